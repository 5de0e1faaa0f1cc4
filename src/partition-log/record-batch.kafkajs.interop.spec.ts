// Byte-for-byte and decode compatibility of Brook's v2 record-batch codec with kafkajs 2.2.4 (its internal protocol
// encoder/decoder, CommonJS without types); @platformatic/kafka's is in record-batch.platformatic.interop.spec.ts.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import {
  decodeRecords,
  encodeBatch,
  type RecordHeader,
  type RecordInput,
  stampLogAppendTime,
  validateBatch,
} from './record-batch.js';
import {
  compressionArb,
  expectedViews,
  expectSameBytes,
  type FullOptions,
  hex,
  optionsArb,
  recordsArb,
  T0,
  view,
} from '../../test/support/record-batch-interop.js';

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
