import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrookError, errors } from '../common/brook-error.js';
import { CLIENT_OPS, errorFrame, REFUSED_FRAME, routeFrame, type RoutedFrame } from './ws-protocol.js';

const limits = { produceRecordsMax: 3 };
const route = (frame: unknown): RoutedFrame =>
  routeFrame(typeof frame === 'string' ? frame : JSON.stringify(frame), limits, 1234);

function refusal(frame: unknown): { id?: unknown; code: number; message: string } {
  const routed = route(frame);
  if (routed.event !== REFUSED_FRAME) throw new Error(`expected a refusal of ${JSON.stringify(frame)}`);
  return { id: routed.data.id, code: routed.data.error.errorCode, message: routed.data.error.message };
}

describe('routeFrame', () => {
  it('parses a produce frame in each format into bytes', () => {
    const routed = route({
      op: 'produce',
      id: 'p1',
      topic: 't',
      records: [{ key: 'k', value: 'v', partition: 2, headers: [{ name: 'h', value: 'AQI=' }] }, { value: null }],
    });
    if (routed.event !== 'produce') throw new Error(`routed to ${routed.event}`);
    expect(routed.data.acks).toBe('all');
    expect(routed.data.records[0]).toEqual({
      key: Buffer.from('k'),
      value: Buffer.from('v'),
      headers: [{ key: 'h', value: Buffer.from([1, 2]) }],
      timestamp: 1234,
      partition: 2,
    });
    expect(routed.data.records[1].value).toBeNull();
    const json = route({ op: 'produce', id: 2, topic: 't', format: 'json', acks: 1, records: [{ value: { a: 1 } }] });
    expect(json.event === 'produce' && json.data.records[0].value?.toString()).toBe('{"a":1}');
    const binary = route({ op: 'produce', id: 3, topic: 't', format: 'binary', records: [{ value: 'AAE=' }] });
    expect(binary.event === 'produce' && [...binary.data.records[0].value!]).toEqual([0, 1]);
  });

  it('routes a control frame by its op as the JSON object the client sent, for its DTO', () => {
    const frame = { op: 'subscribe', id: 's', assign: [{ topic: 't', partition: 0 }], credits: 'many', extra: 1 };
    expect(route(frame)).toEqual({ event: 'subscribe', data: frame });
    for (const op of ['credit', 'commit', 'unsubscribe'] as const)
      expect(route({ op, id: 1 })).toEqual({ event: op, data: { op, id: 1 } });
  });

  it('refuses malformed frames with a message naming the problem, and keeps the id when it has a valid one', () => {
    expect(refusal('{nope')).toMatchObject({ code: 40002, message: expect.stringMatching(/not valid JSON/) });
    expect(refusal('[1]')).toMatchObject({ code: 40002, message: expect.stringMatching(/JSON object/) });
    expect(refusal({ op: 'produce' })).toMatchObject({ id: undefined, message: expect.stringMatching(/^id /) });
    expect(refusal({ op: 'credit', id: 'x'.repeat(81) })).toMatchObject({ id: undefined });
    expect(refusal({ op: 'dance', id: 'x' })).toEqual({
      id: 'x',
      code: 40002,
      message: 'Unknown op "dance"; expected one of produce, subscribe, credit, commit, unsubscribe.',
    });
    expect(refusal({ id: 'x' }).message).toBe(
      'Unknown op undefined; expected one of produce, subscribe, credit, commit, unsubscribe.',
    );
    expect(refusal({ op: 'produce', id: 'x', topic: 't', records: [] })).toMatchObject({ id: 'x', message: /records/ });
    expect(refusal({ op: 'produce', id: 'x', topic: 't', records: [{}, {}, {}, {}] })).toMatchObject({
      message: 'records must be an array of 1 to 3 items.',
    });
    expect(refusal({ op: 'produce', id: 'x', topic: 't', records: [{ value: 5 }] })).toMatchObject({ code: 42206 });
    expect(refusal({ op: 'produce', id: 'x', topic: 't', format: 'binary', records: [{ value: '!!' }] })).toMatchObject(
      { code: 42206, message: expect.stringMatching(/base64/) },
    );
    expect(refusal({ op: 'produce', id: 'x', topic: 't', records: [{ value: 'a', partition: -1 }] })).toMatchObject({
      message: 'records[0].partition must be an integer from 0 to 9007199254740991, got -1.',
    });
    expect(refusal({ op: 'produce', id: 'x', topic: 't', acks: 2, records: [{ value: 'a' }] })).toMatchObject({
      message: 'acks must be 0, 1 or "all", got 2.',
    });
  });

  it('refuses a binary frame without reading it', () => {
    const routed = routeFrame(Buffer.from('{"op":"produce","id":1}'), limits, 0);
    expect(routed).toEqual({
      event: REFUSED_FRAME,
      data: { error: expect.objectContaining({ message: 'Binary frames are not accepted; send JSON text frames.' }) },
    });
  });

  it('refuses values nested past the call stack in words, never by throwing', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(refusal(`{"op":${deep},"id":1}`).message).toMatch(/^Unknown op a value nested too deeply to show;/);
    expect(refusal(`{"op":"produce","id":1,"topic":"t","records":[{"value":"x","partition":${deep}}]}`)).toEqual({
      id: 1,
      code: 40002,
      message:
        'records[0].partition must be an integer from 0 to 9007199254740991, got a value nested too deeply to show.',
    });
    expect(refusal(`{"op":"produce","id":1,"topic":"t","format":"json","records":[{"value":${deep}}]}`)).toMatchObject({
      code: 42206,
      message: 'records[0].value is nested too deeply to be stored as JSON.',
    });
  });

  it('routes every JSON text to an op of CLIENT_OPS or to the refusal, and never throws', () => {
    const events = new Set<string>([...CLIENT_OPS, REFUSED_FRAME]);
    const frames = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
      fc
        .record(
          { op: fc.oneof(fc.constantFrom(...CLIENT_OPS), fc.jsonValue()), id: fc.jsonValue() },
          { requiredKeys: [] },
        )
        .map((frame) => JSON.stringify(frame)),
    );
    fc.assert(
      fc.property(frames, (text) => {
        const routed = routeFrame(text, limits, 0);
        expect(events.has(routed.event)).toBe(true);
        if (routed.event === REFUSED_FRAME) expect(routed.data.error).toBeInstanceOf(BrookError);
      }),
    );
  });

  it('routes exactly the ops of CLIENT_OPS', () => {
    const body = { topic: 't', records: [{ value: 'v' }] };
    for (const op of CLIENT_OPS) expect(route({ op, id: 1, ...body }).event).toBe(op);
    for (const op of ['ack', 'records', 'Produce', 'subscribe ', REFUSED_FRAME])
      expect(refusal({ op, id: 1 }).message).toMatch(/Unknown op/);
  });

  it('renders error frames with five-digit codes', () => {
    const { error } = (route('{') as Extract<RoutedFrame, { event: typeof REFUSED_FRAME }>).data;
    expect(JSON.parse(errorFrame(error))).toEqual({ op: 'error', error_code: 40002, message: error.message });
    expect(JSON.parse(errorFrame(new BrookError(500, 500, 'boom'), 'p'))).toEqual({
      op: 'error',
      id: 'p',
      error_code: 50002,
      message: 'boom',
    });
  });

  it('marks the error frame of a produce whose outcome is unknown, and only that one', () => {
    expect(JSON.parse(errorFrame(errors.outcomeUnknown('timed out waiting for the ISR'), 'p'))).toEqual({
      op: 'error',
      id: 'p',
      error_code: 50003,
      message: 'timed out waiting for the ISR',
      outcome: 'unknown',
    });
    expect(JSON.parse(errorFrame(errors.notEnoughReplicas('nothing was appended'), 'p'))).not.toHaveProperty('outcome');
  });
});
