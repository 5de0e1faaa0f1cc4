// Byte-for-byte and decode compatibility of Brook's v2 record-batch codec with two independent implementations:
// kafkajs 2.2.4 (its internal protocol encoder/decoder, CommonJS without types) and @platformatic/kafka 1.35.0.
import { createRequire } from 'node:module';
import {
  createRecordsBatch,
  type MessageRecord,
  type CreateRecordsBatchOptions,
  Reader,
  readRecordsBatch,
  type RecordsBatch,
} from '@platformatic/kafka';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import {
  type BatchOptions,
  decodeRecords,
  encodeBatch,
  type LogRecord,
  type RecordHeader,
  type RecordInput,
  stampLogAppendTime,
  validateBatch,
} from './record-batch.js';

const T0 = Date.UTC(2024, 0, 1);

// ---------------------------------------------------------------------------------------------------------------
// kafkajs internals, typed just enough for these tests

type KafkajsHeaders = Record<string, Buffer | Buffer[]>;

interface KafkajsEncoder {
  readonly buffer: Buffer;
}

interface KafkajsRecordInput {
  offsetDelta: number;
  timestampDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: KafkajsHeaders;
}

interface KafkajsBatchInput {
  compression: number;
  firstOffset: number;
  firstTimestamp: number;
  maxTimestamp: number;
  partitionLeaderEpoch: number;
  lastOffsetDelta: number;
  producerId: number;
  producerEpoch: number;
  firstSequence: number;
  records: KafkajsEncoder[];
}

interface KafkajsDecodedBatch {
  firstOffset: string;
  partitionLeaderEpoch: number;
  lastOffsetDelta: number;
  firstTimestamp: string;
  maxTimestamp: string;
  producerId: string;
  producerEpoch: number;
  firstSequence: number;
  timestampType: number;
  inTransaction: boolean;
  isControlBatch: boolean;
  records: Array<{
    offset: string;
    timestamp: string;
    key: Buffer | null;
    value: Buffer | null;
    headers: Record<string, Buffer | null | Array<Buffer | null>>;
  }>;
}

const require = createRequire(import.meta.url);
const kafkajs = {
  RecordBatch: (
    require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
      RecordBatch: (input: KafkajsBatchInput) => Promise<KafkajsEncoder>;
    }
  ).RecordBatch,
  Record: require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (
    input: KafkajsRecordInput,
  ) => KafkajsEncoder,
  decodeBatch: require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (
    decoder: unknown,
  ) => Promise<KafkajsDecodedBatch>,
  Decoder: require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => unknown,
  compression: (
    require('kafkajs/src/protocol/message/compression/index.js') as { Types: { None: number; GZIP: number } }
  ).Types,
  LOG_APPEND_TIME: (require('kafkajs/src/protocol/timestampTypes.js') as { LOG_APPEND_TIME: number }).LOG_APPEND_TIME,
};

/**
 * kafkajs takes headers as an object ({ key: value | value[] }), so a record's headers come out grouped by key in
 * Object.keys order (integer-like keys first). Returns that object and the header list in the order kafkajs will
 * write it, which is the list Brook must be given to produce the same bytes.
 */
function toKafkajsHeaders(headers: RecordHeader[]): { object: KafkajsHeaders; ordered: RecordHeader[] } {
  const object: KafkajsHeaders = Object.create(null) as KafkajsHeaders;
  for (const { key, value } of headers) {
    if (value === null) throw new Error('kafkajs cannot encode a null header value');
    const existing = object[key];
    object[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  const ordered = Object.keys(object).flatMap((key) => {
    const values = object[key];
    return (Array.isArray(values) ? values : [values]).map((value) => ({ key, value }));
  });
  return { object, ordered };
}

/** The header object kafkajs's decoder builds (same grouping rule, nulls allowed). */
function kafkajsDecodedHeaders(headers: RecordHeader[]): KafkajsDecodedBatch['records'][number]['headers'] {
  const object: KafkajsDecodedBatch['records'][number]['headers'] = {};
  for (const { key, value } of headers) {
    const existing = object[key];
    object[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return object;
}

type FullOptions = Required<
  Pick<BatchOptions, 'baseOffset' | 'partitionLeaderEpoch' | 'producerId' | 'producerEpoch' | 'baseSequence'>
>;

/** Records with headers already in kafkajs order, ready for both encoders. */
function inKafkajsOrder(records: RecordInput[]): RecordInput[] {
  return records.map((r) => ({ ...r, headers: toKafkajsHeaders(r.headers ?? []).ordered }));
}

async function kafkajsEncode(
  records: RecordInput[],
  options: FullOptions,
  compression: CompressionType,
  firstTimestamp = Math.min(...records.map((r) => r.timestamp)),
): Promise<Buffer> {
  const encoded = await kafkajs.RecordBatch({
    compression: compression === CompressionType.Gzip ? kafkajs.compression.GZIP : kafkajs.compression.None,
    firstOffset: options.baseOffset,
    firstTimestamp,
    maxTimestamp: Math.max(...records.map((r) => r.timestamp)),
    partitionLeaderEpoch: options.partitionLeaderEpoch,
    lastOffsetDelta: records.length - 1,
    producerId: options.producerId,
    producerEpoch: options.producerEpoch,
    firstSequence: options.baseSequence,
    records: records.map((r, i) =>
      kafkajs.Record({
        offsetDelta: i,
        timestampDelta: r.timestamp - firstTimestamp,
        key: r.key,
        value: r.value,
        headers: toKafkajsHeaders(r.headers ?? []).object,
      }),
    ),
  });
  return Buffer.from(encoded.buffer);
}

const kafkajsDecode = (batch: Buffer): Promise<KafkajsDecodedBatch> => kafkajs.decodeBatch(new kafkajs.Decoder(batch));

// ---------------------------------------------------------------------------------------------------------------
// @platformatic/kafka

function platformaticMessages(records: RecordInput[]): MessageRecord[] {
  return records.map((r) => ({
    topic: 't',
    partition: 0,
    key: r.key ?? undefined,
    value: r.value as Buffer, // null is written as length -1, which is what we want
    timestamp: BigInt(r.timestamp),
    headers: new Map((r.headers ?? []).map((h) => [Buffer.from(h.key, 'utf8'), h.value as Buffer])),
  }));
}

function platformaticEncode(records: RecordInput[], options: FullOptions, compression: CompressionType): Buffer {
  const batchOptions: Partial<CreateRecordsBatchOptions> = {
    compression: compression === CompressionType.Gzip ? 'gzip' : 'none',
    producerId: BigInt(options.producerId),
    producerEpoch: options.producerEpoch,
    partitionLeaderEpoch: options.partitionLeaderEpoch,
    // platformatic looks the base sequence up per topic-partition in its own map type.
    sequences: { getWithDefault: () => options.baseSequence } as unknown as CreateRecordsBatchOptions['sequences'],
  };
  return createRecordsBatch(platformaticMessages(records), batchOptions).buffer;
}

const platformaticDecode = (batch: Buffer): RecordsBatch => readRecordsBatch(Reader.from(batch));

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries and expectations

/** Header keys kafkajs's decoder can represent: its header object is a plain {}, so Object.prototype names clash. */
const headerKeyArb = fc.string({ unit: 'binary', maxLength: 10 }).filter((key) => !(key in {}));
const bufferArb = (maxLength: number) => fc.uint8Array({ maxLength }).map((array) => Buffer.from(array));
const nullableBufferArb = (maxLength: number) => fc.option(bufferArb(maxLength), { nil: null, freq: 4 });

/** Default spread of timestamps within a batch: ±2^40 ms, so deltas need more than 32 bits (varlong, not varint). */
const WIDE_SKEW = 2 ** 40;

/**
 * @platformatic/kafka 1.35.0 (through @platformatic/dynamic-buffer 0.3.1) zig-zags varlongs with `value >> 31n`
 * where Kafka's ByteUtils.writeVarlong uses `value >> 63`, so it writes timestamp deltas of 2^31 ms or more wrongly
 * (2^31 comes out as -1). Brook, kafkajs and Kafka agree; platformatic is only compared below that.
 */
const PLATFORMATIC_SKEW = 2 ** 30 - 1;

const recordsArb = (options: { nullHeaderValues: boolean; firstIsOldest: boolean; maxSkew?: number }) =>
  fc
    .tuple(
      fc.integer({ min: 2 ** 40, max: 2 ** 42 }),
      fc.array(
        fc.record({
          key: nullableBufferArb(40),
          value: nullableBufferArb(300),
          headers: fc.array(
            fc.record({ key: headerKeyArb, value: options.nullHeaderValues ? nullableBufferArb(20) : bufferArb(20) }),
            { maxLength: 4 },
          ),
          skew: fc.oneof(
            fc.integer({ min: -1000, max: 1000 }),
            fc.integer({ min: -(options.maxSkew ?? WIDE_SKEW), max: options.maxSkew ?? WIDE_SKEW }),
          ),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    )
    .map(([base, drafts]): RecordInput[] => {
      const records = drafts.map(({ skew, ...rest }) => ({ ...rest, timestamp: base + skew }));
      if (options.firstIsOldest) {
        const oldest = Math.min(...records.map((r) => r.timestamp));
        records[0] = { ...records[0], timestamp: oldest };
      }
      return records;
    });

const optionsArb: fc.Arbitrary<FullOptions> = fc.record({
  baseOffset: fc.integer({ min: 0, max: 2 ** 50 }),
  partitionLeaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
  producerId: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 2 ** 50 })),
  producerEpoch: fc.integer({ min: -1, max: 2 ** 15 - 1 }),
  baseSequence: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
});

const compressionArb = fc.constantFrom(CompressionType.None, CompressionType.Gzip);

const hex = (buffer: Buffer | null): string | null => (buffer === null ? null : buffer.toString('hex'));

function view(record: LogRecord) {
  return {
    offset: record.offset,
    timestamp: record.timestamp,
    key: hex(record.key),
    value: hex(record.value),
    headers: record.headers.map((h) => ({ key: h.key, value: hex(h.value) })),
  };
}

function expectedViews(records: RecordInput[], baseOffset: number) {
  return records.map((r, i) => ({
    offset: baseOffset + i,
    timestamp: r.timestamp,
    key: hex(r.key),
    value: hex(r.value),
    headers: (r.headers ?? []).map((h) => ({ key: h.key, value: hex(h.value) })),
  }));
}

/** Locates the first differing byte, so a failure names the field instead of dumping two buffers. */
function firstDifference(a: Buffer, b: Buffer): string {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return `byte ${i}: brook ${a[i].toString(16)} vs other ${b[i].toString(16)}`;
  }
  return a.length === b.length ? 'identical' : `lengths ${a.length} vs ${b.length}`;
}

function expectSameBytes(brook: Buffer, other: Buffer): void {
  expect(firstDifference(brook, other)).toBe('identical');
}

// ---------------------------------------------------------------------------------------------------------------

describe('kafkajs 2.2.4 compatibility', () => {
  it('a readable example: every field shape encodes to the same bytes', async () => {
    const records = inKafkajsOrder([
      { key: null, value: null, timestamp: T0 + 5, headers: [] },
      { key: Buffer.alloc(0), value: Buffer.alloc(0), timestamp: T0 },
      { key: Buffer.from('k'), value: Buffer.alloc(70_000, 0x5a), timestamp: T0 + 2 ** 35 },
      {
        key: Buffer.from('user-1'),
        value: Buffer.from('{"n":1}'),
        timestamp: T0 + 1,
        headers: [
          { key: 'trace', value: Buffer.from('t1') },
          { key: 'ключ', value: Buffer.from('значение') },
          { key: '🔑', value: Buffer.alloc(0) },
          { key: 'trace', value: Buffer.from('t2') },
          { key: '7', value: Buffer.from('integer-like keys sort first in kafkajs') },
        ],
      },
    ]);
    const options: FullOptions = {
      baseOffset: 1234,
      partitionLeaderEpoch: 5,
      producerId: 987_654_321_012,
      producerEpoch: 3,
      baseSequence: 40,
    };
    for (const compression of [CompressionType.None, CompressionType.Gzip]) {
      const brook = encodeBatch(records, { ...options, compression });
      expectSameBytes(brook, await kafkajsEncode(records, options, compression));
    }
  });

  it('property: uncompressed batches are byte-identical to kafkajs RecordBatch', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ nullHeaderValues: false, firstIsOldest: false }),
        optionsArb,
        async (drafts, options) => {
          const records = inKafkajsOrder(drafts);
          expectSameBytes(encodeBatch(records, options), await kafkajsEncode(records, options, CompressionType.None));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: gzip batches are byte-identical too (both use zlib defaults, mtime 0)', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ nullHeaderValues: false, firstIsOldest: false }),
        optionsArb,
        async (drafts, options) => {
          const records = inKafkajsOrder(drafts);
          const brook = encodeBatch(records, { ...options, compression: CompressionType.Gzip });
          expectSameBytes(brook, await kafkajsEncode(records, options, CompressionType.Gzip));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('property: Brook validates and decodes kafkajs batches, also with Java-style firstTimestamp (negative deltas)', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ nullHeaderValues: false, firstIsOldest: false }),
        optionsArb,
        compressionArb,
        fc.boolean(),
        async (drafts, options, compression, javaStyle) => {
          const records = inKafkajsOrder(drafts);
          // Java's MemoryRecordsBuilder bases the batch on the first record's timestamp, not the smallest.
          const firstTimestamp = javaStyle ? records[0].timestamp : Math.min(...records.map((r) => r.timestamp));
          const batch = await kafkajsEncode(records, options, compression, firstTimestamp);
          const header = validateBatch(batch);
          expect(header).toMatchObject({
            baseOffset: options.baseOffset,
            partitionLeaderEpoch: options.partitionLeaderEpoch,
            baseTimestamp: firstTimestamp,
            maxTimestamp: Math.max(...records.map((r) => r.timestamp)),
            producerId: options.producerId,
            producerEpoch: options.producerEpoch,
            baseSequence: options.baseSequence,
            recordCount: records.length,
            lastOffsetDelta: records.length - 1,
          });
          expect(decodeRecords(batch).map(view)).toEqual(expectedViews(records, options.baseOffset));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: kafkajs decodes Brook batches (null keys, values and header values included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ nullHeaderValues: true, firstIsOldest: false }),
        optionsArb,
        compressionArb,
        async (records, options, compression) => {
          const decoded = await kafkajsDecode(encodeBatch(records, { ...options, compression }));
          const timestamps = records.map((r) => r.timestamp);
          expect(decoded).toMatchObject({
            firstOffset: String(options.baseOffset),
            partitionLeaderEpoch: options.partitionLeaderEpoch,
            lastOffsetDelta: records.length - 1,
            firstTimestamp: String(Math.min(...timestamps)),
            maxTimestamp: String(Math.max(...timestamps)),
            producerId: String(options.producerId),
            producerEpoch: options.producerEpoch,
            firstSequence: options.baseSequence,
            timestampType: 0,
            inTransaction: false,
            isControlBatch: false,
          });
          expect(
            decoded.records.map((r) => ({
              offset: r.offset,
              timestamp: r.timestamp,
              key: hex(r.key),
              value: hex(r.value),
              headers: r.headers,
            })),
          ).toEqual(
            records.map((r, i) => ({
              offset: String(options.baseOffset + i),
              timestamp: String(r.timestamp),
              key: hex(r.key),
              value: hex(r.value),
              headers: kafkajsDecodedHeaders(r.headers ?? []),
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('kafkajs sees a Brook LogAppendTime batch the same way (every record at the append time)', async () => {
    const batch = encodeBatch(
      [
        { key: null, value: Buffer.from('a'), timestamp: T0 },
        { key: null, value: Buffer.from('b'), timestamp: T0 + 9 },
      ],
      { compression: CompressionType.Gzip },
    );
    stampLogAppendTime(batch, T0 + 1_000);
    const decoded = await kafkajsDecode(batch);
    expect(decoded.timestampType).toBe(kafkajs.LOG_APPEND_TIME);
    expect(decoded.records.map((r) => r.timestamp)).toEqual([String(T0 + 1_000), String(T0 + 1_000)]);
    expect(decodeRecords(batch).map((r) => r.timestamp)).toEqual([T0 + 1_000, T0 + 1_000]);
  });
});

describe('@platformatic/kafka 1.35.0 compatibility', () => {
  // platformatic always writes baseOffset 0 and bases timestamps on the first record, so for byte equality the
  // first record is made the oldest and baseOffset is 0.
  it('property: batches are byte-identical to createRecordsBatch (none and gzip, null header values included)', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: true, maxSkew: PLATFORMATIC_SKEW }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const atZero = { ...options, baseOffset: 0 };
          const brook = encodeBatch(records, { ...atZero, compression });
          expectSameBytes(brook, platformaticEncode(records, atZero, compression));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: Brook decodes platformatic batches, including ones whose first record is not the oldest', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: false, maxSkew: PLATFORMATIC_SKEW }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const batch = platformaticEncode(records, options, compression);
          const header = validateBatch(batch);
          expect(header.baseTimestamp).toBe(records[0].timestamp);
          expect(header.maxTimestamp).toBe(Math.max(...records.map((r) => r.timestamp)));
          expect(header.baseSequence).toBe(options.baseSequence);
          expect(decodeRecords(batch).map(view)).toEqual(expectedViews(records, 0));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: platformatic decodes Brook batches (its varlong reader is right, so full-width deltas)', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: false }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const decoded = platformaticDecode(encodeBatch(records, { ...options, compression }));
          const baseTimestamp = Math.min(...records.map((r) => r.timestamp));
          expect(decoded).toMatchObject({
            firstOffset: BigInt(options.baseOffset),
            partitionLeaderEpoch: options.partitionLeaderEpoch,
            magic: 2,
            attributes: compression,
            lastOffsetDelta: records.length - 1,
            firstTimestamp: BigInt(baseTimestamp),
            producerId: BigInt(options.producerId),
            producerEpoch: options.producerEpoch,
            firstSequence: options.baseSequence,
          });
          expect(
            decoded.records.map((r) => ({
              offsetDelta: r.offsetDelta,
              timestamp: Number(BigInt(baseTimestamp) + r.timestampDelta),
              key: hex(r.key),
              value: hex(r.value),
              headers: r.headers.map(([key, value]) => ({ key: key?.toString('utf8'), value: hex(value) })),
            })),
          ).toEqual(
            records.map((r, i) => ({
              offsetDelta: i,
              timestamp: r.timestamp,
              key: hex(r.key),
              value: hex(r.value),
              headers: (r.headers ?? []).map((h) => ({ key: h.key, value: hex(h.value) })),
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
