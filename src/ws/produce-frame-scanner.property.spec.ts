// The produce frame scanner against routeFrame (JSON.parse of the message's text, then parseProduce) on generated
// frames: well-formed ones in several layouts with keys, values (escapes, control characters, unicode, lone
// surrogates), partitions, headers, other members and wrong types, and the same frames broken (bytes cut, changed
// or inserted, invalid UTF-8). Whatever routeMessage answers must be what routeFrame answers: a frame the scanner
// takes has routeFrame's id, topic, acks and records (keys, values, partitions, no headers, the same timestamp),
// and its laid-out records frame the batch encodeBatch builds of routeFrame's records, byte for byte; any other
// frame is routed, or refused with the same error frame, as routeFrame does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteEdit, edited } from '../../test/support/json-byte-edits.js';
import { encodeBatch, frameSpansBatch } from '../partition-log/record-batch.js';
import { routeMessage, scanProduceFrame } from './produce-frame-scanner.js';
import { errorFrame, REFUSED_FRAME, routeFrame, type ProduceFrame, type RoutedMessage } from './ws-protocol.js';

const NOW_MS = 1_700_000_000_123;
const limits = { produceRecordsMax: 5 };

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'é', '"', '\\', '\u0000', '\ud800', '\udc00x', '\u2028') },
);
const field = fc.oneof(
  { weight: 16, arbitrary: text },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);
const record = fc.record(
  {
    key: field,
    value: field,
    partition: fc.oneof(
      { weight: 12, arbitrary: fc.integer({ min: -1, max: 6 }) },
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(1.5, '1', 2 ** 53, Number.MAX_SAFE_INTEGER, 123456789012345) },
    ),
    headers: fc.oneof(
      { weight: 8, arbitrary: fc.constant([]) },
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant([{ name: 'h', value: 'AQI=' }]) },
      { weight: 1, arbitrary: fc.constantFrom('x', [1], [{ name: '', value: null }]) },
    ),
    other: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const recordOrNot = fc.oneof(
  { weight: 20, arbitrary: record },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);

const anyFrame = fc.record(
  {
    op: fc.oneof({ weight: 12, arbitrary: fc.constant('produce') }, { weight: 1, arbitrary: fc.jsonValue() }),
    id: fc.oneof(
      { weight: 6, arbitrary: fc.integer() },
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 0, maxLength: 82 }) },
      { weight: 1, arbitrary: fc.constantFrom(1.5, -0, 2 ** 53, null, 'x'.repeat(80), 'x'.repeat(81), '\ud800') },
    ),
    topic: fc.oneof({ weight: 10, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.jsonValue() }),
    records: fc.oneof(
      { weight: 20, arbitrary: fc.array(recordOrNot, { minLength: 0, maxLength: 6 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    acks: fc.constantFrom(0, 1, -1, 'all', '0', '1', '-1', 2, 'some', null),
    format: fc.constantFrom('string', 'string', null, 'json', 'binary', 'text'),
    producer_id: fc.constantFrom(5, null),
    idempotency_key: fc.constantFrom('k1', null),
    extra: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['op', 'id', 'topic', 'records'] },
);
/** Frames with the members the scanner leaves to routeFrame (producer_id, idempotency_key) in one of four. */
const frame = fc.tuple(anyFrame, fc.nat(3)).map(([value, draw]) => {
  if (draw === 0) return value;
  const { producer_id: _producerId, idempotency_key: _idempotencyKey, ...rest } = value;
  return rest;
});

const layout = fc.constantFrom('compact', 'compact', 'indented', 'spaced');

function written(value: unknown, how: string): Buffer {
  if (how === 'indented') return Buffer.from(JSON.stringify(value, null, '\t'));
  if (how === 'spaced') return Buffer.from(` \r\n${JSON.stringify(value, null, ' \r\n\t')} \n`);
  return Buffer.from(JSON.stringify(value));
}

const edit = byteEdit([
  '"',
  '\\',
  '\\u00e9',
  '\\ud83d',
  '\\ud83d\\ude00',
  '\\n',
  '\\x',
  '\n',
  '\u0001',
  ',',
  '{',
  ']',
  '"key":"k",',
  '"value":null,',
  '"partition":1,',
  '"id":2,',
  '"op":"produce",',
  '"format":"json",',
  '"headers":[],',
  '"\\u0076alue":"v",',
  '-0',
  '01',
  '1e0',
  '\xff',
  '\xc3',
  'é',
  '😀',
]);

/** What a client sees of a routed frame: the error frame of a refusal, else the event and its data. */
function seen(routed: RoutedMessage): unknown {
  if (routed.event === REFUSED_FRAME) return errorFrame(routed.data.error, routed.data.id);
  return routed;
}

/** Checks routeMessage against routeFrame on `bytes`; answers whether the scanner took the frame. */
function agrees(bytes: Buffer): boolean {
  const full = routeFrame(bytes.toString('utf8'), limits, NOW_MS);
  const routed = routeMessage(bytes, false, limits, NOW_MS);
  if (routed.event !== 'produce' || !('laidOut' in routed.data)) {
    expect(seen(routed)).toEqual(seen(full));
    return false;
  }
  const scanned = routed.data;
  expect(full.event).toBe('produce');
  const parsed = full.data as ProduceFrame;
  const { laidOut, ...rest } = scanned;
  expect({ ...rest, timestampMs: undefined }).toEqual({
    op: 'produce',
    id: parsed.id,
    topic: parsed.topic,
    timestampMs: undefined,
    acks: parsed.acks,
    producer: parsed.producer,
    idempotency: parsed.idempotency,
  });
  expect(laidOut.count).toBe(parsed.records.length);
  parsed.records.forEach((input, i) => {
    expect(input.timestamp).toBe(scanned.timestampMs);
    expect(input.headers).toEqual([]);
    expect(laidOut.key(i)).toEqual(input.key);
    expect(laidOut.value(i)).toEqual(input.value);
    expect(laidOut.partitions?.[i] ?? null).toBe(input.partition);
  });
  expect(laidOut.keyed).toBe(parsed.records.some((input) => input.key !== null));
  const partitions = parsed.records.map((input) => input.partition);
  expect(laidOut.partitions).toEqual(partitions.every((partition) => partition === null) ? null : partitions);
  const batch = frameSpansBatch(Buffer.from(laidOut.data), laidOut.end, laidOut.count, scanned.timestampMs);
  expect(batch.equals(encodeBatch(parsed.records))).toBe(true);
  return true;
}

describe('scanProduceFrame', () => {
  it('reads generated frames as routeFrame does, and leaves routeFrame every frame it does not take', () => {
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(frame, layout, (value, how) => {
        const bytes = written(value, how);
        if (agrees(bytes)) taken++;
        else if (routeFrame(bytes.toString('utf8'), limits, NOW_MS).event === REFUSED_FRAME) refused++;
      }),
      { numRuns: 1500 },
    );
    // both kinds must be drawn often (over 6 runs: taken 87-109, refused 1,328-1,348 of 1,500)
    expect(taken).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(900);
  });

  it('reads frames of the covered shape with any keys, values and partitions as routeFrame does', () => {
    const covered = fc.record({
      op: fc.constant('produce'),
      id: fc.oneof(fc.integer(), fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })),
      topic: fc.string({ minLength: 1, maxLength: 8 }),
      records: fc.array(
        fc.record(
          {
            key: fc.oneof(text, fc.constant(null)),
            value: fc.oneof(text, fc.constant(null)),
            partition: fc.oneof(fc.nat(9), fc.constant(null)),
            headers: fc.constantFrom([], null),
          },
          { requiredKeys: [] },
        ),
        { minLength: 1, maxLength: 5 },
      ),
      acks: fc.constantFrom(0, 1, 'all', '1'),
    });
    let taken = 0;
    fc.assert(
      fc.property(covered, layout, (value, how) => {
        if (agrees(written(value, how))) taken++;
      }),
      { numRuns: 1000 },
    );
    // every such frame but those whose text is not valid UTF-8 (a lone surrogate stays escaped in JSON.stringify)
    expect(taken).toBe(1000);
  });

  it('agrees with routeFrame on frames with bytes cut, changed or inserted', () => {
    let taken = 0;
    const base = fc.record({
      op: fc.constant('produce'),
      id: fc.nat(),
      topic: fc.constant('t'),
      records: fc.array(record, { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(base, fc.array(edit, { minLength: 1, maxLength: 3 }), (value, edits) => {
        if (agrees(edited(Buffer.from(JSON.stringify(value)), edits))) taken++;
      }),
      { numRuns: 2000 },
    );
    // over 6 runs the scanner took 67-94 of the 2,000 edited frames
    expect(taken).toBeGreaterThan(30);
  });

  it('leaves routeFrame repeated members, escaped names, odd partitions, producer fields and other formats', () => {
    const records = '"records":[{"value":"v"}]';
    const cases = [
      `{"op":"produce","id":1,"topic":"t",${records}}`,
      `{"op":"produce","id":1,"topic":"t",${records},${records}}`,
      `{"op":"produce","id":1,"id":2,"topic":"t",${records}}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"v","value":"w"}]}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"v\\u0061lue":"v"}]}`,
      `{"op":"produce","id":1,"t\\u006fpic":"t",${records}}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"v","partition":-0}]}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"v","partition":1.0}]}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"v","partition":1234567890123456}]}`,
      `{"op":"produce","id":1,"topic":"t","producer_id":1,"producer_epoch":0,"sequence":0,${records}}`,
      `{"op":"produce","id":1,"topic":"t","idempotency_key":"k",${records}}`,
      `{"op":"produce","id":1,"topic":"t","format":"json",${records}}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"v","headers":[{"name":"h","value":null}]}]}`,
      `\ufeff{"op":"produce","id":1,"topic":"t",${records}}`,
      `{"op":"produce","id":1,"topic":"t","records":[{"value":"\\ud800"},{"value":"é\\n\\""}]}`,
    ];
    const taken = cases.map((source) => agrees(Buffer.from(source)));
    expect(taken).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('reads the value bytes of a frame that is not valid UTF-8 as routeFrame does: the full way', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"op":"produce","id":1,"topic":"t","records":[{"value":"'),
      Buffer.from([0xff]),
      Buffer.from('"}]}'),
    ]);
    expect(scanProduceFrame(bytes, limits, NOW_MS)).toBeNull();
    const routed = routeMessage(bytes, false, limits, NOW_MS);
    expect(routed.event === 'produce' && 'records' in routed.data && routed.data.records[0].value).toEqual(
      Buffer.from('\ufffd'),
    );
  });

  it('leaves routeFrame a frame with one record more than the bound', () => {
    const frameOf = (n: number) =>
      Buffer.from(JSON.stringify({ op: 'produce', id: 1, topic: 't', records: Array.from({ length: n }, () => ({})) }));
    expect(agrees(frameOf(5))).toBe(true);
    expect(agrees(frameOf(6))).toBe(false);
    expect(routeMessage(frameOf(6), false, limits, NOW_MS).event).toBe(REFUSED_FRAME);
  });
});
