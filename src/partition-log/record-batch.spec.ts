import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType, UnsupportedCompressionError } from './compression.js';
import {
  assignOffsetAndEpoch,
  BATCH_BYTES_MAX,
  BATCH_HEADER_BYTES,
  type BatchHeader,
  type BatchOptions,
  batchesIn,
  compressionOf,
  CorruptBatchError,
  decodeRecords,
  encodeBatch,
  hasValidCrc,
  isControlBatch,
  lastOffsetOf,
  LOG_OVERHEAD_BYTES,
  type LogRecord,
  MAGIC_V2,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  readBatchHeader,
  type RecordHeader,
  type RecordInput,
  stampLogAppendTime,
  timestampTypeOf,
  TimestampType,
  validateBatch,
} from './record-batch.js';
import { crc32c } from '@node-rs/crc32';

// Byte positions of the v2 header fields (see the layout in record-batch.ts).
const AT = {
  baseOffset: 0,
  batchLength: 8,
  leaderEpoch: 12,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
  records: 61,
} as const;

const T0 = Date.UTC(2024, 0, 1);

// ---------------------------------------------------------------------------------------------------------------
// Builders

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

function record(overrides: Partial<RecordInput> = {}): RecordInput {
  return { key: bytes('key'), value: bytes('value'), timestamp: T0, ...overrides };
}

function header(key: string, value: string | Buffer | null): RecordHeader {
  return { key, value: typeof value === 'string' ? bytes(value) : value };
}

/** Every byte value once, so binary keys and values are not just ASCII. */
const ALL_BYTE_VALUES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** Plain, comparable form of a decoded or expected record (buffers as hex, null kept). */
interface RecordView {
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: Array<{ key: string; value: string | null }>;
}

const hex = (buffer: Buffer | null): string | null => (buffer === null ? null : buffer.toString('hex'));

function view(record: LogRecord): RecordView {
  return {
    offset: record.offset,
    timestamp: record.timestamp,
    key: hex(record.key),
    value: hex(record.value),
    headers: record.headers.map((h) => ({ key: h.key, value: hex(h.value) })),
  };
}

/** What decodeRecords should return for `records` encoded at `baseOffset` (offsets 0..n-1 unless given). */
function expectedViews(
  records: RecordInput[],
  baseOffset = 0,
  offsetDeltas?: number[],
  logAppendTime?: number,
): RecordView[] {
  return records.map((input, i) => ({
    offset: baseOffset + (offsetDeltas?.[i] ?? i),
    timestamp: logAppendTime ?? input.timestamp,
    key: hex(input.key),
    value: hex(input.value),
    headers: (input.headers ?? []).map((h) => ({ key: h.key, value: hex(h.value) })),
  }));
}

const decodedViews = (batch: Buffer, maxDecompressedBytes?: number): RecordView[] =>
  decodeRecords(batch, maxDecompressedBytes).map(view);

/** Rewrites the CRC so a deliberately damaged batch gets past the checksum and exercises the structural checks. */
function fixCrc(batch: Buffer): Buffer {
  batch.writeUInt32BE(crc32c(batch.subarray(AT.attributes)) >>> 0, AT.crc);
  return batch;
}

function withInt32(batch: Buffer, position: number, value: number): Buffer {
  const copy = Buffer.from(batch);
  copy.writeInt32BE(value, position);
  return copy;
}

/** Asserts `action` throws CorruptBatchError (and so not a TypeError, RangeError or zlib error). */
function expectCorrupt(action: () => unknown, message?: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a CorruptBatchError').toBeInstanceOf(CorruptBatchError);
  if (message) expect((thrown as Error).message).toMatch(message);
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries

const nullableBytes = (maxLength = 64) =>
  fc.option(
    fc.uint8Array({ maxLength }).map((array) => Buffer.from(array)),
    { nil: null, freq: 4 },
  );

const headerArb = fc.record({
  key: fc.string({ unit: 'binary', maxLength: 12 }),
  value: nullableBytes(32),
});

const recordsArb = fc
  .tuple(
    fc.integer({ min: 0, max: 2 ** 42 }),
    fc.array(
      fc.record({
        key: nullableBytes(),
        value: nullableBytes(256),
        headers: fc.option(fc.array(headerArb, { maxLength: 5 }), { nil: undefined }),
        skew: fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
      }),
      { minLength: 1, maxLength: 20 },
    ),
  )
  .map(([base, drafts]): RecordInput[] =>
    drafts.map(({ skew, headers, ...rest }) => ({
      ...rest,
      ...(headers === undefined ? {} : { headers }),
      timestamp: Math.max(0, base + skew),
    })),
  );

const optionsArb: fc.Arbitrary<BatchOptions> = fc.record(
  {
    baseOffset: fc.integer({ min: 0, max: 2 ** 50 }),
    partitionLeaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
    compression: fc.constantFrom(CompressionType.None, CompressionType.Gzip),
    producerId: fc.oneof(fc.constant(NO_PRODUCER_ID), fc.integer({ min: 0, max: 2 ** 50 })),
    producerEpoch: fc.integer({ min: -1, max: 2 ** 15 - 1 }),
    baseSequence: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
  },
  { requiredKeys: [] },
);

function expectHeaderMatches(header: BatchHeader, batch: Buffer, records: RecordInput[], options: BatchOptions): void {
  const timestamps = records.map((r) => r.timestamp);
  expect(header).toEqual({
    baseOffset: options.baseOffset ?? 0,
    sizeBytes: batch.length,
    partitionLeaderEpoch: options.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH,
    magic: MAGIC_V2,
    crc: crc32c(batch.subarray(AT.attributes)) >>> 0,
    attributes:
      (options.compression ?? CompressionType.None) | (options.timestampType === TimestampType.LogAppendTime ? 8 : 0),
    lastOffsetDelta: records.length - 1,
    baseTimestamp: Math.min(...timestamps),
    maxTimestamp: Math.max(...timestamps),
    producerId: options.producerId ?? NO_PRODUCER_ID,
    producerEpoch: options.producerEpoch ?? NO_PRODUCER_EPOCH,
    baseSequence: options.baseSequence ?? NO_SEQUENCE,
    recordCount: records.length,
  });
}

// ---------------------------------------------------------------------------------------------------------------

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

describe('CRC', () => {
  const sample = () =>
    encodeBatch(
      [record({ headers: [header('h', 'v'), header('n', null)] }), record({ key: null, timestamp: T0 + 9 })],
      { baseOffset: 5, partitionLeaderEpoch: 3, producerId: 77, producerEpoch: 1, baseSequence: 12 },
    );

  it('is CRC-32C of bytes 21..end', () => {
    const batch = sample();
    expect(batch.readUInt32BE(AT.crc)).toBe(crc32c(batch.subarray(21)) >>> 0);
    expect(hasValidCrc(batch)).toBe(true);
  });

  it('property: flipping any bits of any byte from 21 to the end is caught by validateBatch', () => {
    for (const compression of [CompressionType.None, CompressionType.Gzip]) {
      const batch = encodeBatch([record({ headers: [header('h', 'v')] }), record({ key: null })], { compression });
      const positions = fc.integer({ min: AT.attributes, max: batch.length - 1 });
      fc.assert(
        fc.property(positions, fc.integer({ min: 1, max: 255 }), (position, mask) => {
          const damaged = Buffer.from(batch);
          damaged[position] ^= mask;
          expect(hasValidCrc(damaged)).toBe(false);
          expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
        }),
        { numRuns: 500 },
      );
    }
  });

  it('every single-byte flip in the CRC-covered range is caught (exhaustive over positions)', () => {
    const batch = sample();
    for (let position = AT.attributes; position < batch.length; position++) {
      const damaged = Buffer.from(batch);
      damaged[position] ^= 0x01;
      expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
    }
  });

  it('a damaged stored CRC is caught', () => {
    for (let position = AT.crc; position < AT.attributes; position++) {
      const damaged = Buffer.from(sample());
      damaged[position] ^= 0x80;
      expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
    }
  });

  it('baseOffset and partitionLeaderEpoch are outside the CRC', () => {
    const batch = sample();
    for (const position of [AT.baseOffset + 7, AT.leaderEpoch + 3]) {
      const changed = Buffer.from(batch);
      changed[position] ^= 0x01;
      expect(hasValidCrc(changed)).toBe(true);
    }
  });
});

describe('validateBatch and readBatchHeader reject malformed input', () => {
  const batch = encodeBatch([record(), record({ timestamp: T0 + 1 })], { baseOffset: 10 });

  it('every truncation of a batch is rejected with CorruptBatchError, by every reader', () => {
    for (const compression of [CompressionType.None, CompressionType.Gzip]) {
      const whole = encodeBatch([record({ headers: [header('a', 'b')] }), record({ value: null })], { compression });
      for (let length = 0; length < whole.length; length++) {
        const truncated = whole.subarray(0, length);
        expectCorrupt(() => validateBatch(truncated));
        expectCorrupt(() => decodeRecords(truncated));
        if (length < BATCH_HEADER_BYTES) expectCorrupt(() => readBatchHeader(truncated), /truncated batch header/);
        expect([...batchesIn(truncated)]).toEqual([]);
      }
    }
  });

  it('rejects a batch length that claims more or fewer bytes than there are', () => {
    const longer = withInt32(batch, AT.batchLength, batch.length - LOG_OVERHEAD_BYTES + 1);
    expectCorrupt(() => validateBatch(longer), /does not match/);
    expectCorrupt(() => decodeRecords(longer), /truncated/);

    const shorter = withInt32(batch, AT.batchLength, batch.length - LOG_OVERHEAD_BYTES - 1);
    expectCorrupt(() => validateBatch(shorter), /does not match/);
    expectCorrupt(() => decodeRecords(shorter));
  });

  it.each([
    ['negative', -1],
    ['smaller than the header', BATCH_HEADER_BYTES - LOG_OVERHEAD_BYTES - 1],
    ['above the maximum batch size', BATCH_BYTES_MAX - LOG_OVERHEAD_BYTES + 1],
    ['int32 max', 2 ** 31 - 1],
  ])('rejects a batch length that is %s', (_name, length) => {
    const lying = withInt32(batch, AT.batchLength, length);
    expectCorrupt(() => readBatchHeader(lying), /out of range/);
    expectCorrupt(() => validateBatch(lying), /out of range/);
    expectCorrupt(() => decodeRecords(lying), /out of range/);
    expectCorrupt(() => [...batchesIn(lying)], /out of range/);
  });

  it('rejects any magic but 2', () => {
    for (const magic of [0, 1, 3, -1]) {
      const other = Buffer.from(batch);
      other.writeInt8(magic, AT.magic);
      expectCorrupt(() => readBatchHeader(other), /magic/);
      expectCorrupt(() => validateBatch(other), /magic/);
    }
  });

  it('rejects record counts inconsistent with lastOffsetDelta (CRC fixed so the count check is reached)', () => {
    for (const count of [0, -1, 3]) {
      expectCorrupt(() => validateBatch(fixCrc(withInt32(batch, AT.recordCount, count))), /record count/);
    }
  });

  it('rejects negative base offsets and offsets past MAX_SAFE_INTEGER', () => {
    const negative = Buffer.from(batch);
    negative.writeBigInt64BE(-5n, AT.baseOffset);
    expectCorrupt(() => validateBatch(negative), /offsets out of range/);
    const huge = Buffer.from(batch);
    huge.writeBigInt64BE(BigInt(Number.MAX_SAFE_INTEGER), AT.baseOffset);
    expectCorrupt(() => validateBatch(huge), /offsets out of range/);
  });
});

describe('decodeRecords rejects lying lengths and counts with CorruptBatchError', () => {
  // One uncompressed record whose layout is known: length, attributes, tsDelta, offsetDelta, key, value, headers.
  const single = () => encodeBatch([record({ key: bytes('kk'), value: bytes('vvv'), headers: [header('h', 'x')] })]);
  const RECORD_LENGTH_AT = AT.records;
  const KEY_LENGTH_AT = AT.records + 4; // length(1) attributes(1) timestampDelta(1) offsetDelta(1)

  it.each([
    ['larger than the batch', 0x7e], // zig-zag 63: runs past the end
    ['one byte short', null],
    ['negative', 0x03], // zig-zag -2
  ])('record length %s', (_name, replacement) => {
    const batch = single();
    batch[RECORD_LENGTH_AT] = replacement ?? batch[RECORD_LENGTH_AT] - 2; // length n -> n - 1 (zig-zag step 2)
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('key length running past the record', () => {
    const batch = single();
    batch[KEY_LENGTH_AT] = 0x20; // 16 bytes of key in a 16-byte record
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('record count larger than the records present, or absurd', () => {
    for (const count of [2, 1000, 2 ** 31 - 1, -1, -(2 ** 31)]) {
      expectCorrupt(() => decodeRecords(fixCrc(withInt32(single(), AT.recordCount, count))));
    }
  });

  it('record count smaller than the records present', () => {
    const two = encodeBatch([record(), record()]);
    expectCorrupt(() => decodeRecords(fixCrc(withInt32(two, AT.recordCount, 1))), /after its last record/);
  });

  it('a varint that never ends', () => {
    const batch = single();
    batch.fill(0xff, AT.records);
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('property: random damage to the records section never escapes as anything but CorruptBatchError', () => {
    const batches = [
      encodeBatch([record({ headers: [header('a', 'b'), header('c', null)] }), record({ key: null, value: null })]),
      encodeBatch([record({ value: Buffer.alloc(300, 7) }), record()], { compression: CompressionType.Gzip }),
    ];
    const damage = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 });
    for (const batch of batches) {
      fc.assert(
        fc.property(damage, (edits) => {
          const damaged = Buffer.from(batch);
          for (const [at, value] of edits) damaged[AT.records + (at % (batch.length - AT.records))] = value;
          fixCrc(damaged);
          try {
            decodeRecords(damaged);
          } catch (error) {
            expect(error).toBeInstanceOf(CorruptBatchError);
          }
        }),
        { numRuns: 500 },
      );
    }
  });

  it('property: random damage to the header fields gives a result or a CorruptBatch/UnsupportedCompression error', () => {
    const batch = encodeBatch([record(), record({ timestamp: T0 + 1 })]);
    const damage = fc.tuple(fc.integer({ min: AT.batchLength, max: AT.records - 1 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(damage, ([at, value]) => {
        const damaged = Buffer.from(batch);
        damaged[at] = value;
        try {
          decodeRecords(fixCrc(damaged));
        } catch (error) {
          expect([CorruptBatchError, UnsupportedCompressionError]).toContain((error as Error).constructor);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('assignOffsetAndEpoch', () => {
  it('property: stamps offsets and epoch, keeps the CRC valid and leaves the CRC-covered bytes alone', () => {
    fc.assert(
      fc.property(
        recordsArb,
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(CompressionType.None, CompressionType.Gzip),
        (records, baseOffset, epoch, compression) => {
          const batch = encodeBatch(records, { compression });
          const covered = Buffer.from(batch.subarray(AT.crc));
          assignOffsetAndEpoch(batch, baseOffset, epoch);
          expect(batch.subarray(AT.crc)).toEqual(covered);
          const header = validateBatch(batch);
          expect(header.baseOffset).toBe(baseOffset);
          expect(header.partitionLeaderEpoch).toBe(epoch);
          expect(lastOffsetOf(header)).toBe(baseOffset + records.length - 1);
          expect(decodeRecords(batch).map((r) => r.offset)).toEqual(records.map((_, i) => baseOffset + i));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('stampLogAppendTime', () => {
  it.each([
    ['uncompressed', CompressionType.None],
    ['gzip', CompressionType.Gzip],
  ])('makes every decoded record carry the append time and keeps the CRC valid (%s)', (_name, compression) => {
    const records = [record({ timestamp: T0 + 30 }), record({ timestamp: T0 }), record({ timestamp: T0 + 10 })];
    const batch = encodeBatch(records, { compression, baseOffset: 9 });
    const appendTime = T0 + 60_000;
    stampLogAppendTime(batch, appendTime);

    const header = validateBatch(batch);
    expect(timestampTypeOf(header)).toBe(TimestampType.LogAppendTime);
    expect(compressionOf(header)).toBe(compression);
    expect(header.maxTimestamp).toBe(appendTime);
    expect(header.baseTimestamp).toBe(T0); // the create times stay in the batch
    expect(decodedViews(batch)).toEqual(expectedViews(records, 9, undefined, appendTime));
  });

  it('is idempotent and can be followed by assignOffsetAndEpoch', () => {
    const batch = encodeBatch([record()]);
    stampLogAppendTime(batch, T0 + 1);
    stampLogAppendTime(batch, T0 + 2);
    assignOffsetAndEpoch(batch, 50, 4);
    expect(hasValidCrc(batch)).toBe(true);
    expect(decodeRecords(batch)).toMatchObject([{ offset: 50, timestamp: T0 + 2 }]);
  });
});

describe('batchesIn', () => {
  const batchOf = (count: number, baseOffset: number, compression = CompressionType.None) =>
    encodeBatch(
      Array.from({ length: count }, (_, i) => record({ value: bytes(`v${baseOffset + i}`), timestamp: T0 + i })),
      { baseOffset, compression },
    );

  it('walks concatenated batches in order with their positions', () => {
    const batches = [batchOf(1, 0), batchOf(3, 1, CompressionType.Gzip), batchOf(2, 4)];
    const log = Buffer.concat(batches);
    const walked = [...batchesIn(log)];
    expect(walked.map(({ position }) => position)).toEqual([
      0,
      batches[0].length,
      batches[0].length + batches[1].length,
    ]);
    expect(walked.map(({ header }) => header.baseOffset)).toEqual([0, 1, 4]);
    expect(walked.map(({ header }) => header.sizeBytes)).toEqual(batches.map((b) => b.length));
    const offsets = walked.flatMap(({ header, position }) =>
      decodeRecords(log.subarray(position, position + header.sizeBytes)).map((r) => r.offset),
    );
    expect(offsets).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('yields nothing for an empty buffer', () => {
    expect([...batchesIn(Buffer.alloc(0))]).toEqual([]);
  });

  it('property: stops before a partial tail wherever the buffer is cut', () => {
    const batchList = fc.array(
      fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(CompressionType.None, CompressionType.Gzip)),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(batchList, fc.double({ min: 0, max: 1, noNaN: true }), (specs, cutFraction) => {
        let nextOffset = 0;
        const batches = specs.map(([count, compression]) => {
          const batch = batchOf(count, nextOffset, compression);
          nextOffset += count;
          return batch;
        });
        const log = Buffer.concat(batches);
        const cut = Math.floor(cutFraction * log.length);
        const whole: number[] = [];
        let end = 0;
        for (const batch of batches) {
          if (end + batch.length > cut) break;
          whole.push(end);
          end += batch.length;
        }
        expect([...batchesIn(log.subarray(0, cut))].map(({ position }) => position)).toEqual(whole);
      }),
      { numRuns: 200 },
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
