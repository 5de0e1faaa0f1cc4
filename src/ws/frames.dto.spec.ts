import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrookError } from '../common/brook-error.js';
import { validateSync } from '../common/class-validator.js';
import { controlFrameDto, validControlFrame } from './frame-validation.pipe.js';
import { passesRules } from './frame-rules.js';
import { CommitFrameDto, CreditFrameDto, SubscribeFrameDto, UnsubscribeFrameDto } from './frames.dto.js';
import type { ControlFrameBody } from './ws-protocol.js';

const limits = { creditsMax: 100, defaultCredits: 50, assignPartitionsMax: 2 };
const dtos = {
  subscribe: SubscribeFrameDto,
  credit: CreditFrameDto,
  commit: CommitFrameDto,
  unsubscribe: UnsubscribeFrameDto,
} as const;

function valid(frame: Record<string, unknown>): unknown {
  const body = { id: 's', ...frame } as ControlFrameBody;
  return validControlFrame(dtos[body.op] as typeof SubscribeFrameDto, body, limits);
}

/** The message a frame is refused with (every refusal of a control frame is 400 with 40002). */
function refusal(frame: Record<string, unknown>): string {
  try {
    valid(frame);
  } catch (error) {
    expect(error).toBeInstanceOf(BrookError);
    expect(error).toMatchObject({ status: 400, errorCode: 40002 });
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(frame)} to be refused`);
}

/** Every field name a control frame's DTOs declare, for generated frames. */
const FRAME_FIELD_NAMES = [
  'group',
  'group_instance_id',
  'assign',
  'topics',
  'from',
  'timestamp',
  'credits',
  'format',
  'n',
  'offsets',
];
const assign = (...partitions: Array<Record<string, unknown>>) => ({ op: 'subscribe', assign: partitions });

describe('control frame DTOs', () => {
  it('gives a subscription its defaults and bounds', () => {
    expect(valid(assign({ topic: 't', partition: 0 }))).toEqual({
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
    });
    const timed = { ...assign({ topic: 't', partition: 1, offset: 7 }), from: 'timestamp', credits: 0 };
    expect(valid({ ...timed, timestamp: '2026-01-01T00:00:00Z' })).toMatchObject({
      assign: [{ topic: 't', partition: 1, offset: 7 }],
      timestampMs: Date.parse('2026-01-01T00:00:00Z'),
      credits: 0,
    });
    expect(valid({ ...timed, timestamp: 12 })).toMatchObject({ timestampMs: 12 });
    expect(
      valid({ op: 'subscribe', topics: ['t', 'u'], group: 'g', group_instance_id: 'm', format: 'json', from: null }),
    ).toMatchObject({
      assign: null,
      topics: ['t', 'u'],
      group: 'g',
      groupInstanceId: 'm',
      format: 'json',
      from: 'latest',
    });
  });

  it('refuses each field in the words of the protocol, with its path', () => {
    const start = { topic: 't', partition: 0 };
    expect(refusal({ op: 'subscribe' })).toBe('subscribe needs assign (explicit partitions) or topics with a group.');
    expect(refusal({ op: 'subscribe', topics: ['t'] })).toBe(
      'A subscription to topics needs a group; without one, use assign.',
    );
    expect(refusal({ op: 'subscribe', topics: ['t', ''], group: 'g' })).toBe('topics[1] must be a non-empty string.');
    expect(refusal({ ...assign(start), topics: ['t'] })).toBe('Give either assign or topics, not both.');
    expect(refusal({ ...assign(start), group: 'g' })).toBe('A group subscription names topics, not assign.');
    expect(refusal(assign())).toBe('assign must be an array of 1 to 2 items.');
    expect(refusal(assign(start, start, start))).toBe('assign must be an array of 1 to 2 items.');
    expect(refusal(assign(start, start))).toBe('assign names t-0 twice.');
    expect(refusal(assign(start, { topic: 't', partition: -1 }))).toBe(
      'assign[1].partition must be an integer from 0 to 9007199254740991, got -1.',
    );
    expect(refusal({ op: 'subscribe', assign: [start, [start]] })).toBe('assign[1] must be a JSON object.');
    expect(refusal({ op: 'subscribe', assign: [null] })).toBe('assign[0] must be a JSON object.');
    expect(refusal(assign({ topic: 5, partition: 0 }))).toBe('assign[0].topic must be a non-empty string.');
    expect(refusal({ ...assign(start), credits: 101 })).toBe('credits must be an integer from 0 to 100, got 101.');
    expect(refusal({ ...assign(start), from: 'middle' })).toBe(
      'from must be earliest, latest or timestamp, got "middle".',
    );
    expect(refusal({ ...assign(start), from: 'timestamp' })).toBe(
      'from=timestamp needs timestamp (epoch milliseconds or RFC 3339).',
    );
    expect(refusal({ ...assign(start), from: 'timestamp', timestamp: 'yesterday' })).toBe(
      "timestamp must be epoch milliseconds or an RFC 3339 date-time, got 'yesterday'.",
    );
    expect(refusal({ ...assign(start), timestamp: 5 })).toBe('timestamp is only allowed with from=timestamp.');
    expect(refusal({ ...assign(start), format: 'xml' })).toBe(
      'format must be one of string, json, binary, avro, jsonschema, protobuf, got "xml".',
    );
    expect(refusal({ op: 'credit', n: 0 })).toBe('n must be an integer from 1 to 100, got 0.');
    expect(refusal({ op: 'credit' })).toBe('n must be an integer from 1 to 100, got undefined.');
    expect(refusal({ op: 'commit', offsets: [{ topic: 't', partition: 0, offset: -1 }] })).toBe(
      'offsets[0].offset must be an integer from 0 to 9007199254740991, got -1.',
    );
    expect(refusal({ op: 'commit', offsets: 'all' })).toBe('offsets must be an array of 1 to 2 items.');
  });

  it("refuses '.' and '..' as group and group instance ids", () => {
    const subscribe = { op: 'subscribe', topics: ['t'], group: 'g' };
    for (const id of ['.', '..']) {
      expect(refusal({ ...subscribe, group: id })).toBe(
        "group must not be '.' or '..': it becomes a segment of URL paths.",
      );
      expect(refusal({ ...subscribe, group_instance_id: id })).toMatch(/^group_instance_id must not be/);
    }
    expect(valid({ ...subscribe, group: '.g' })).toMatchObject({ group: '.g' });
  });

  it('answers the first problem in the order of the fields, items in order', () => {
    expect(refusal({ op: 'subscribe', group: '', from: 'middle', credits: -1 })).toBe(
      'group must be a non-empty string.',
    );
    expect(refusal({ ...assign({ topic: 't', partition: 'x' }), from: 'middle' })).toMatch(/^assign\[0\]\.partition/);
    // A repeat counts among the partitions before the first malformed one; that one is refused for itself.
    const start = { topic: 't', partition: 0 };
    expect(refusal(assign({ topic: 't', partition: 0, offset: -1 }, start))).toMatch(/^assign\[0\]\.offset/);
    expect(refusal(assign(start, { topic: 't', partition: 0, offset: -1 }))).toMatch(/^assign\[1\]\.offset/);
    expect(refusal({ op: 'commit', offsets: [{ topic: '' }, 5] })).toBe('offsets[0].topic must be a non-empty string.');
  });

  it('copies only the fields it declares, from the JSON object itself', () => {
    const frame = JSON.parse('{"op":"credit","id":"s","n":3,"__proto__":{"n":7},"constructor":{"n":9},"x":[[[]]]}');
    expect(valid(frame)).toEqual({ op: 'credit', id: 's', n: 3 });
    const inherited = Object.assign(Object.create({ n: 4 }) as object, { op: 'credit' });
    expect(refusal(inherited)).toBe('n must be an integer from 1 to 100, got undefined.');
    expect(valid({ op: 'unsubscribe', anything: 1 })).toEqual({ op: 'unsubscribe', id: 's' });
  });

  it('refuses values nested past the call stack in words, never by throwing', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(refusal({ op: 'credit', n: deep })).toBe(
      'n must be an integer from 1 to 100, got a value nested too deeply to show.',
    );
    expect(refusal({ op: 'subscribe', assign: deep })).toBe('assign[0] must be a JSON object.');
    expect(refusal({ op: 'subscribe', topics: [deep], group: 'g' })).toBe('topics[0] must be a non-empty string.');
    expect(refusal({ op: 'commit', offsets: [{ topic: deep }] })).toBe('offsets[0].topic must be a non-empty string.');
  });

  it('gives any frame a typed frame or a 40002, and a credit frame exactly when n is an integer in bounds', () => {
    const anyFields = fc.dictionary(fc.constantFrom(...FRAME_FIELD_NAMES), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(dtos) as Array<keyof typeof dtos>)), anyFields, (op, fields) => {
        try {
          expect(valid({ ...fields, op })).toMatchObject({ op, id: 's' });
        } catch (error) {
          expect(error).toMatchObject({ status: 400, errorCode: 40002 });
        }
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -5, max: 105 }), fc.double(), fc.jsonValue()), (n) => {
        const inBounds = typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= limits.creditsMax;
        if (inBounds) expect(valid({ op: 'credit', n })).toEqual({ op: 'credit', id: 's', n });
        else expect(refusal({ op: 'credit', n })).toMatch(/^n must be an integer from 1 to 100, got /);
      }),
    );
  });

  it('skips class-validator exactly for the frames in which it finds no problem', () => {
    // values near each rule's bounds, of the right and wrong types, so that frames pass and fail in every field
    const scalar = fc.constantFrom<unknown>(
      undefined,
      null,
      0,
      1,
      2,
      50,
      100,
      101,
      -1,
      1.5,
      2 ** 53,
      '',
      't',
      'u',
      'g',
      '.',
      '..',
      'earliest',
      'latest',
      'timestamp',
      'string',
      'binary',
      'json',
      'avro',
      '2026-01-01T00:00:00Z',
      'yesterday',
      true,
      {},
      [],
    );
    const item = fc.oneof(
      fc.record({ topic: scalar, partition: scalar, offset: scalar }, { requiredKeys: [] }),
      fc.constantFrom<unknown>(null, 1, 't', []),
    );
    const field = fc.oneof(
      scalar,
      fc.array(item, { maxLength: 3 }),
      fc.array(scalar, { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(dtos) as Array<keyof typeof dtos>)),
        fc.dictionary(fc.constantFrom(...FRAME_FIELD_NAMES), field),
        (op, fields) => {
          const dto = dtos[op] as typeof SubscribeFrameDto;
          const built = controlFrameDto(dto, { id: 's', ...fields, op } as ControlFrameBody, limits);
          const problems = validateSync(built, { stopAtFirstError: true, forbidUnknownValues: false });
          expect(passesRules(dto, built as unknown as Record<string, unknown>, limits)).toBe(problems.length === 0);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
