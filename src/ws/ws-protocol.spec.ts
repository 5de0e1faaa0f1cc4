import { describe, expect, it } from 'vitest';
import { CLIENT_OPS, errorFrame, parseClientFrame, type ParsedFrame } from './ws-protocol.js';

const limits = { produceRecordsMax: 3, creditsMax: 100, defaultCredits: 50, assignPartitionsMax: 2 };
const parse = (frame: unknown): ParsedFrame =>
  parseClientFrame(typeof frame === 'string' ? frame : JSON.stringify(frame), limits, 1234);

function failure(frame: unknown): { id?: unknown; code: number; message: string } {
  const result = parse(frame);
  if (result.ok) throw new Error(`expected an error for ${JSON.stringify(frame)}`);
  return { id: result.id, code: result.error.errorCode, message: result.error.message };
}

function failureOrFrame(frame: unknown): string {
  const result = parse(frame);
  return result.ok ? `ok ${result.frame.op}` : result.error.message;
}

describe('parseClientFrame', () => {
  it('parses a produce frame in each format into bytes', () => {
    const result = parse({
      op: 'produce',
      id: 'p1',
      topic: 't',
      records: [{ key: 'k', value: 'v', partition: 2, headers: [{ name: 'h', value: 'AQI=' }] }, { value: null }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok || result.frame.op !== 'produce') return;
    expect(result.frame.acks).toBe('all');
    expect(result.frame.records[0]).toEqual({
      key: Buffer.from('k'),
      value: Buffer.from('v'),
      headers: [{ key: 'h', value: Buffer.from([1, 2]) }],
      timestamp: 1234,
      partition: 2,
    });
    expect(result.frame.records[1].value).toBeNull();
    const json = parse({ op: 'produce', id: 2, topic: 't', format: 'json', acks: 1, records: [{ value: { a: 1 } }] });
    expect(json.ok && json.frame.op === 'produce' && json.frame.records[0].value?.toString()).toBe('{"a":1}');
    const binary = parse({ op: 'produce', id: 3, topic: 't', format: 'binary', records: [{ value: 'AAE=' }] });
    expect(binary.ok && binary.frame.op === 'produce' && [...binary.frame.records[0].value!]).toEqual([0, 1]);
  });

  it('rejects malformed frames with a message naming the problem, and keeps the id when it has one', () => {
    expect(failure('{nope')).toMatchObject({ code: 40002, message: expect.stringMatching(/not valid JSON/) });
    expect(failure('[1]')).toMatchObject({ code: 40002, message: expect.stringMatching(/JSON object/) });
    expect(failure({ op: 'produce' })).toMatchObject({ id: undefined, message: expect.stringMatching(/^id /) });
    expect(failure({ op: 'dance', id: 'x' })).toMatchObject({ id: 'x', message: expect.stringMatching(/Unknown op/) });
    expect(failure({ op: 'produce', id: 'x', topic: 't', records: [] })).toMatchObject({ message: /records/ });
    expect(failure({ op: 'produce', id: 'x', topic: 't', records: [{}, {}, {}, {}] })).toMatchObject({
      message: expect.stringMatching(/1 to 3 items/),
    });
    expect(failure({ op: 'produce', id: 'x', topic: 't', records: [{ value: 5 }] })).toMatchObject({ code: 42206 });
    expect(failure({ op: 'produce', id: 'x', topic: 't', format: 'binary', records: [{ value: '!!' }] })).toMatchObject(
      { code: 42206, message: expect.stringMatching(/base64/) },
    );
    expect(failure({ op: 'produce', id: 'x', topic: 't', records: [{ value: 'a', partition: -1 }] })).toMatchObject({
      message: expect.stringMatching(/partition/),
    });
    expect(failure({ op: 'produce', id: 'x', topic: 't', acks: 2, records: [{ value: 'a' }] })).toMatchObject({
      message: expect.stringMatching(/acks/),
    });
    expect(failure({ op: 'credit', id: 'x', n: 0 })).toMatchObject({ message: expect.stringMatching(/^n must/) });
    expect(failure({ op: 'credit', id: 'x', n: 101 })).toMatchObject({ message: expect.stringMatching(/1 to 100/) });
    expect(failure({ op: 'commit', id: 'x', offsets: [{ topic: 't', partition: 0, offset: -1 }] })).toMatchObject({
      message: expect.stringMatching(/offset/),
    });
  });

  it("refuses '.' and '..' as group and group instance ids", () => {
    const subscribe = (fields: object) => parse({ op: 'subscribe', id: 's', topics: ['t'], group: 'g', ...fields });
    for (const id of ['.', '..']) {
      expect(subscribe({ group: id })).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/group must not be/) },
      });
      expect(subscribe({ group_instance_id: id })).toMatchObject({ ok: false });
    }
    expect(subscribe({ group: '.g' }).ok).toBe(true);
  });

  it('parses subscriptions with defaults and bounds', () => {
    const result = parse({ op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }] });
    expect(result).toEqual({
      ok: true,
      frame: {
        op: 'subscribe',
        id: 's',
        assign: [{ topic: 't', partition: 0, offset: null }],
        topics: null,
        group: null,
        groupInstanceId: null,
        from: 'latest',
        timestampMs: null,
        format: 'string',
        credits: 50,
      },
    });
    const timed = parse({
      op: 'subscribe',
      id: 's',
      assign: [{ topic: 't', partition: 1, offset: 7 }],
      from: 'timestamp',
      timestamp: '2026-01-01T00:00:00Z',
      credits: 0,
    });
    expect(timed.ok && timed.frame.op === 'subscribe' && timed.frame.timestampMs).toBe(
      Date.parse('2026-01-01T00:00:00Z'),
    );
    expect(failure({ op: 'subscribe', id: 's' }).message).toMatch(/assign/);
    expect(failure({ op: 'subscribe', id: 's', topics: ['t'] }).message).toMatch(/needs a group/);
    expect(failure({ op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }], credits: 101 }).message).toMatch(
      /credits/,
    );
    expect(
      failure({
        op: 'subscribe',
        id: 's',
        assign: [
          { topic: 't', partition: 0 },
          { topic: 't', partition: 0 },
        ],
      }).message,
    ).toMatch(/twice/);
    expect(
      failure({ op: 'subscribe', id: 's', assign: [0, 1, 2].map((partition) => ({ topic: 't', partition })) }).message,
    ).toMatch(/1 to 2 items/);
    expect(
      failure({ op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }], from: 'timestamp' }).message,
    ).toMatch(/needs timestamp/);
    expect(
      failure({ op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }], from: 'middle' }).message,
    ).toMatch(/from must be/);
    expect(
      failure({ op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }], format: 'xml' }).message,
    ).toMatch(/format/);
  });

  it('accepts exactly the ops of CLIENT_OPS', () => {
    for (const op of CLIENT_OPS) expect(failureOrFrame({ op, id: 1 })).not.toMatch(/Unknown op/);
    for (const op of ['ack', 'records', 'Produce', 'subscribe '])
      expect(failureOrFrame({ op, id: 1 })).toMatch(/Unknown op/);
  });

  it('renders error frames with five-digit codes', () => {
    const result = parse('{');
    if (result.ok) throw new Error('expected failure');
    expect(JSON.parse(errorFrame(result.error))).toEqual({
      op: 'error',
      error_code: 40002,
      message: result.error.message,
    });
  });
});
