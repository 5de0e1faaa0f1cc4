// Shared helpers of the record batch specs (src/partition-log/record-batch-layout, -builder and -reader .spec.ts):
// the header field positions, record builders, comparable views of decoded records, damaging helpers, and
// fast-check arbitraries of records and batch options.
import fc from 'fast-check';
import { expect } from 'vitest';
import { CompressionType } from '../../src/partition-log/compression.js';
import {
  type BatchHeader,
  CorruptBatchError,
  MAGIC_V2,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  type RecordHeader,
  TimestampType,
} from '../../src/partition-log/record-batch-layout.js';
import { type BatchOptions, type RecordInput } from '../../src/partition-log/record-batch-builder.js';
import { decodeRecords, type LogRecord } from '../../src/partition-log/record-batch-reader.js';
import { crc32c } from '@node-rs/crc32';

// Byte positions of the v2 header fields (see the layout in record-batch-layout.ts).
export const AT = {
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

export const T0 = Date.UTC(2024, 0, 1);

// ---------------------------------------------------------------------------------------------------------------
// Builders

export const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

export function record(overrides: Partial<RecordInput> = {}): RecordInput {
  return { key: bytes('key'), value: bytes('value'), timestamp: T0, ...overrides };
}

export function header(key: string, value: string | Buffer | null): RecordHeader {
  return { key, value: typeof value === 'string' ? bytes(value) : value };
}

/** Every byte value once, so binary keys and values are not just ASCII. */
export const ALL_BYTE_VALUES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** Plain, comparable form of a decoded or expected record (buffers as hex, null kept). */
export interface RecordView {
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: Array<{ key: string; value: string | null }>;
}

export const hex = (buffer: Buffer | null): string | null => (buffer === null ? null : buffer.toString('hex'));

export function view(record: LogRecord): RecordView {
  return {
    offset: record.offset,
    timestamp: record.timestamp,
    key: hex(record.key),
    value: hex(record.value),
    headers: record.headers.map((h) => ({ key: h.key, value: hex(h.value) })),
  };
}

/** What decodeRecords should return for `records` encoded at `baseOffset` (offsets 0..n-1 unless given). */
export function expectedViews(
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

export const decodedViews = (batch: Buffer, maxDecompressedBytes?: number): RecordView[] =>
  decodeRecords(batch, maxDecompressedBytes).map(view);

/** Rewrites the CRC so a deliberately damaged batch gets past the checksum and exercises the structural checks. */
export function fixCrc(batch: Buffer): Buffer {
  batch.writeUInt32BE(crc32c(batch.subarray(AT.attributes)) >>> 0, AT.crc);
  return batch;
}

export function withInt32(batch: Buffer, position: number, value: number): Buffer {
  const copy = Buffer.from(batch);
  copy.writeInt32BE(value, position);
  return copy;
}

/** Asserts `action` throws CorruptBatchError (and so not a TypeError, RangeError or zlib error). */
export function expectCorrupt(action: () => unknown, message?: RegExp): void {
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

export const nullableBytes = (maxLength = 64) =>
  fc.option(
    fc.uint8Array({ maxLength }).map((array) => Buffer.from(array)),
    { nil: null, freq: 4 },
  );

export const headerArb = fc.record({
  key: fc.string({ unit: 'binary', maxLength: 12 }),
  value: nullableBytes(32),
});

export const recordsArb = fc
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

export const optionsArb: fc.Arbitrary<BatchOptions> = fc.record(
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

export function expectHeaderMatches(
  header: BatchHeader,
  batch: Buffer,
  records: RecordInput[],
  options: BatchOptions,
): void {
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
