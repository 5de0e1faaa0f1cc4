import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType, UnsupportedCompressionError } from './compression.js';
import {
  BATCH_HEADER_BYTES,
  compressionOf,
  isControlBatch,
  lastOffsetOf,
  readBatchHeader,
  timestampTypeOf,
  TimestampType,
  validateBatch,
} from './record-batch-layout.js';
import {
  type BatchOptions,
  encodeBatch,
  encodeSpansBatch,
  frameSpansBatch,
  type RecordInput,
} from './record-batch-builder.js';
import { decodeRecords } from './record-batch-reader.js';
import {
  AT,
  T0,
  bytes,
  record,
  header,
  ALL_BYTE_VALUES,
  expectedViews,
  decodedViews,
  fixCrc,
  expectCorrupt,
  recordsArb,
  optionsArb,
  expectHeaderMatches,
} from '../../test/support/record-batch-fixtures.js';

describe('encodeBatch / decodeRecords round trip', () => {
  const EVERY_SHAPE: RecordInput[] = [
    record({ key: null, value: null, timestamp: T0 + 5_000 }),
    record({ key: Buffer.alloc(0), value: Buffer.alloc(0), timestamp: T0 }),
    record({ key: ALL_BYTE_VALUES, value: Buffer.from(ALL_BYTE_VALUES).reverse(), timestamp: T0 + 1_000_000_000 }),
    record({ key: bytes('k'), value: Buffer.alloc(200_000, 0xab), timestamp: T0 + 1 }),
    record({
      headers: [
        header('trace-id', 'abc'),
        header('nothing', null),
        header('', 'empty key'),
        header('ключ', 'значение'),
        header('鍵', Buffer.from([0, 255])),
        header('🔑', ''),
        header('trace-id', 'duplicate keys keep their order'),
      ],
      timestamp: T0 + 3,
    }),
    record({ headers: [], timestamp: T0 + 2 }),
  ];

  const FULL_OPTIONS: BatchOptions = {
    baseOffset: 2 ** 40 + 17,
    partitionLeaderEpoch: 42,
    producerId: 2 ** 45 + 3,
    producerEpoch: 7,
    baseSequence: 1_000_000,
  };

  it.each([
    ['uncompressed', CompressionType.None],
    ['gzip', CompressionType.Gzip],
  ])('keeps every record field and header field (%s)', (_name, compression) => {
    const options = { ...FULL_OPTIONS, compression };
    const batch = encodeBatch(EVERY_SHAPE, options);

    const header = validateBatch(batch);
    expectHeaderMatches(header, batch, EVERY_SHAPE, options);
    expect(compressionOf(header)).toBe(compression);
    expect(timestampTypeOf(header)).toBe(TimestampType.CreateTime);
    expect(isControlBatch(header)).toBe(false);
    expect(lastOffsetOf(header)).toBe(FULL_OPTIONS.baseOffset! + EVERY_SHAPE.length - 1);
    expect(decodedViews(batch)).toEqual(expectedViews(EVERY_SHAPE, FULL_OPTIONS.baseOffset));
  });

  it('uses the placeholders when no options are given', () => {
    const records = [record()];
    const batch = encodeBatch(records);
    expectHeaderMatches(validateBatch(batch), batch, records, {});
    expect(readBatchHeader(batch)).toMatchObject({
      baseOffset: 0,
      partitionLeaderEpoch: -1,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
    });
  });

  it('takes the smallest timestamp as baseTimestamp and the largest as maxTimestamp, in any order', () => {
    const records = [T0 + 50, T0 - 7_000, T0 + 9_000_000, T0].map((timestamp) => record({ timestamp }));
    const batch = encodeBatch(records);
    expect(readBatchHeader(batch)).toMatchObject({ baseTimestamp: T0 - 7_000, maxTimestamp: T0 + 9_000_000 });
    expect(decodeRecords(batch).map((r) => r.timestamp)).toEqual(records.map((r) => r.timestamp));
  });

  it('keeps the offsets of a compacted batch (offsetDeltas and lastOffsetDelta)', () => {
    const records = [record({ value: bytes('a') }), record({ value: bytes('c') })];
    const batch = encodeBatch(records, { baseOffset: 100, offsetDeltas: [0, 2], lastOffsetDelta: 4 });
    const header = validateBatch(batch);
    expect(header.lastOffsetDelta).toBe(4);
    expect(header.recordCount).toBe(2);
    expect(lastOffsetOf(header)).toBe(104);
    expect(decodedViews(batch)).toEqual(expectedViews(records, 100, [0, 2]));
  });

  it('writes LogAppendTime when asked, and then every record carries maxTimestamp', () => {
    const records = [record({ timestamp: T0 }), record({ timestamp: T0 + 10 })];
    const batch = encodeBatch(records, { timestampType: TimestampType.LogAppendTime });
    expect(timestampTypeOf(validateBatch(batch))).toBe(TimestampType.LogAppendTime);
    expect(decodeRecords(batch).map((r) => r.timestamp)).toEqual([T0 + 10, T0 + 10]);
  });

  it('decodes a record with no headers field as an empty header list', () => {
    const [decoded] = decodeRecords(encodeBatch([{ key: null, value: bytes('v'), timestamp: T0 }]));
    expect(decoded.headers).toEqual([]);
  });

  it('refuses an empty record list', () => {
    expect(() => encodeBatch([])).toThrow(RangeError);
  });

  it('gzip actually compresses and sets the compression bits', () => {
    const records = [record({ value: Buffer.alloc(10_000, 'x') })];
    const plain = encodeBatch(records);
    const gzipped = encodeBatch(records, { compression: CompressionType.Gzip });
    expect(gzipped.length).toBeLessThan(plain.length / 10);
    expect(gzipped.readInt16BE(AT.attributes) & 0x07).toBe(CompressionType.Gzip);
    expect(gzipped.subarray(AT.records, AT.records + 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('property: random records and options survive encode -> validate -> decode', () => {
    fc.assert(
      fc.property(recordsArb, optionsArb, (records, options) => {
        const batch = encodeBatch(records, options);
        const header = validateBatch(batch);
        expectHeaderMatches(header, batch, records, options);
        expect(readBatchHeader(batch)).toEqual(header);
        expect(decodedViews(batch)).toEqual(expectedViews(records, options.baseOffset ?? 0));
      }),
      { numRuns: 300 },
    );
  });
});

describe('compressed batches', () => {
  const records = [record({ value: Buffer.alloc(100_000) }), record({ value: Buffer.alloc(50_000, 1) })];
  const plainRecordsBytes = encodeBatch(records).length - BATCH_HEADER_BYTES;

  it('decodeRecords honours maxDecompressedBytes', () => {
    const batch = encodeBatch(records, { compression: CompressionType.Gzip });
    expect(batch.length).toBeLessThan(1_000);
    expect(decodeRecords(batch, plainRecordsBytes)).toHaveLength(2);
    expectCorrupt(() => decodeRecords(batch, plainRecordsBytes - 1), /decompress to more than/);
    expectCorrupt(() => decodeRecords(batch, 1_000), /decompress to more than 1000 bytes/);
  });

  it('a gzip section that is not gzip is CorruptBatchError', () => {
    const batch = encodeBatch(records);
    batch.writeInt16BE(CompressionType.Gzip, AT.attributes);
    expectCorrupt(() => decodeRecords(fixCrc(batch)), /gzip records do not decompress/);
  });

  it.each([
    [CompressionType.Snappy, 'snappy'],
    [CompressionType.Lz4, 'lz4'],
    [CompressionType.Zstd, 'zstd'],
  ])('compression id %d (%s) round-trips, is bounded, and refuses what is not its format', (id, name) => {
    const batch = encodeBatch(records, { compression: id });
    expect(compressionOf(validateBatch(batch))).toBe(id);
    expect(decodeRecords(batch)).toEqual(decodeRecords(encodeBatch(records)));
    expectCorrupt(() => decodeRecords(batch, plainRecordsBytes - 1), /decompress to more than/);
    const plain = encodeBatch(records);
    plain.writeInt16BE(id, AT.attributes);
    expectCorrupt(() => decodeRecords(fixCrc(plain)), new RegExp(`${name} records do not decompress`));
  });

  it('an unknown compression id is refused', () => {
    const batch = encodeBatch([record()]);
    batch.writeInt16BE(5, AT.attributes);
    expect(() => decodeRecords(fixCrc(batch))).toThrow(UnsupportedCompressionError);
    expect(() => decodeRecords(batch)).toThrow('unknown compression type 5');
  });
});

describe('batches of records held as spans of one buffer', () => {
  /** Records without headers at one timestamp, their keys and values laid out in one buffer in random order. */
  const spanned = fc
    .array(fc.record({ key: fc.option(fc.uint8Array({ maxLength: 200 })), value: fc.option(fc.uint8Array()) }), {
      minLength: 1,
      maxLength: 30,
    })
    .map((fields) => {
      const parts: Buffer[] = [Buffer.from('padding')];
      let at = parts[0].length;
      const column = () => new Int32Array(fields.length);
      const spans = { keyAt: column(), keyLength: column(), valueAt: column(), valueLength: column() };
      const place = (bytes: Uint8Array | null): [number, number] => {
        if (bytes === null) return [at, -1];
        parts.push(Buffer.from(bytes));
        at += bytes.length;
        return [at - bytes.length, bytes.length];
      };
      fields.forEach(({ key, value }, i) => {
        [spans.valueAt[i], spans.valueLength[i]] = place(value);
        [spans.keyAt[i], spans.keyLength[i]] = place(key);
      });
      const records: RecordInput[] = fields.map(({ key, value }) => ({
        key: key === null ? null : Buffer.from(key),
        value: value === null ? null : Buffer.from(value),
        timestamp: T0,
      }));
      return { records, spans: { data: Buffer.concat(parts), ...spans } };
    });

  it('encodeSpansBatch gives encodeBatch of the records; any subset likewise', () => {
    fc.assert(
      fc.property(spanned, fc.array(fc.nat()), ({ records, spans }, picks) => {
        const count = records.length;
        const subset = [...new Set(picks.map((pick) => pick % count))].sort((a, b) => a - b);
        if (subset.length > 0) {
          const expected = encodeBatch(subset.map((i) => records[i]));
          expect(encodeSpansBatch(spans, count, subset, T0).equals(expected)).toBe(true);
        }
        expect(encodeSpansBatch(spans, count, null, T0).equals(encodeBatch(records))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("encodeSpansBatch and frameSpansBatch with a producer give encodeBatch's bytes with its fields", () => {
    fc.assert(
      fc.property(
        spanned,
        fc.record({
          producerId: fc.integer({ min: 0, max: 2 ** 53 - 1 }),
          producerEpoch: fc.integer({ min: 0, max: 2 ** 15 - 1 }),
          baseSequence: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
        ({ records, spans }, producer) => {
          const expected = encodeBatch(records, producer);
          const count = records.length;
          expect(encodeSpansBatch(spans, count, null, T0, producer).equals(expected)).toBe(true);
          const laidOut = encodeSpansBatch(spans, count, null, T0); // its records section, framed again below
          expect(frameSpansBatch(laidOut, laidOut.length, count, T0, producer).equals(expected)).toBe(true);
          expect(readBatchHeader(expected)).toMatchObject(producer);
        },
      ),
      { numRuns: 100 },
    );
  });
});
