// Building v2 record batches (layout in record-batch-layout.ts): from records (encodeBatch, which the cleaner also
// uses to rewrite a batch with fewer records), and from records held as spans of one buffer (the v2 produce fast
// paths: binary, and records with schemas), which gives the same bytes; and the empty batch of an idempotency key's
// marker (encodeEmptyBatch).
import { codecFor, CompressionType } from './compression.js';
import {
  ATTRIBUTES_AT,
  BASE_OFFSET_AT,
  BASE_SEQUENCE_AT,
  BASE_TIMESTAMP_AT,
  BATCH_HEADER_BYTES,
  LAST_OFFSET_DELTA_AT,
  LEADER_EPOCH_AT,
  LENGTH_AT,
  LOG_OVERHEAD_BYTES,
  MAGIC_AT,
  MAGIC_V2,
  MAX_TIMESTAMP_AT,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  PRODUCER_EPOCH_AT,
  PRODUCER_ID_AT,
  RECORD_COUNT_AT,
  TIMESTAMP_TYPE_BIT,
  TimestampType,
  writeCrc,
  type RecordHeader,
} from './record-batch-layout.js';
import { varintSize, writeVarint } from './varint.js';

/** A record to be written; the timestamp is epoch ms. */
export interface RecordInput {
  key: Buffer | null;
  value: Buffer | null;
  headers?: RecordHeader[];
  timestamp: number;
}

export interface BatchOptions {
  baseOffset?: number;
  partitionLeaderEpoch?: number;
  compression?: CompressionType;
  timestampType?: TimestampType;
  producerId?: number;
  producerEpoch?: number;
  baseSequence?: number;
  /** Offset deltas when they are not 0..n-1 (a compacted batch keeps its records' original offsets). */
  offsetDeltas?: number[];
  /** Keeps lastOffsetDelta when trailing records were removed by compaction. */
  lastOffsetDelta?: number;
}

function headerSize(header: RecordHeader): number {
  const keyBytes = Buffer.byteLength(header.key, 'utf8');
  const valueBytes = header.value === null ? 0 : header.value.length;
  return varintSize(keyBytes) + keyBytes + varintSize(header.value === null ? -1 : valueBytes) + valueBytes;
}

function recordBodySize(record: RecordInput, timestampDelta: number, offsetDelta: number): number {
  const keyBytes = record.key === null ? 0 : record.key.length;
  const valueBytes = record.value === null ? 0 : record.value.length;
  const headers = record.headers ?? [];
  let size =
    1 +
    varintSize(timestampDelta) +
    varintSize(offsetDelta) +
    varintSize(record.key === null ? -1 : keyBytes) +
    keyBytes +
    varintSize(record.value === null ? -1 : valueBytes) +
    valueBytes +
    varintSize(headers.length);
  for (const header of headers) size += headerSize(header);
  return size;
}

function writeRecords(
  records: RecordInput[],
  baseTimestamp: number,
  offsetDeltas: number[] | undefined,
  bodySizes: number[],
  target: Buffer,
  start: number,
): number {
  let position = start;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    position = writeVarint(target, position, bodySizes[i]);
    target[position++] = 0;
    position = writeVarint(target, position, record.timestamp - baseTimestamp);
    position = writeVarint(target, position, offsetDeltas === undefined ? i : offsetDeltas[i]);
    position = writeNullableBytes(target, position, record.key);
    position = writeNullableBytes(target, position, record.value);
    const headers = record.headers ?? [];
    position = writeVarint(target, position, headers.length);
    for (const header of headers) {
      const keyBytes = Buffer.byteLength(header.key, 'utf8');
      position = writeVarint(target, position, keyBytes);
      position += target.write(header.key, position, 'utf8');
      position = writeNullableBytes(target, position, header.value);
    }
  }
  return position;
}

function writeNullableBytes(target: Buffer, position: number, bytes: Buffer | null): number {
  if (bytes === null) return writeVarint(target, position, -1);
  position = writeVarint(target, position, bytes.length);
  target.set(bytes, position);
  return position + bytes.length;
}

/** Encodes records into one v2 batch. Offsets and leader epoch default to placeholders the log overwrites. */
export function encodeBatch(records: RecordInput[], options: BatchOptions = {}): Buffer {
  if (records.length === 0) throw new RangeError('a record batch holds at least one record');
  const offsetDeltas = options.offsetDeltas;
  let baseTimestamp = records[0].timestamp;
  let maxTimestamp = records[0].timestamp;
  for (const record of records) {
    if (record.timestamp < baseTimestamp) baseTimestamp = record.timestamp;
    if (record.timestamp > maxTimestamp) maxTimestamp = record.timestamp;
  }
  const bodySizes = new Array<number>(records.length);
  let recordsBytes = 0;
  for (let i = 0; i < records.length; i++) {
    const body = recordBodySize(records[i], records[i].timestamp - baseTimestamp, offsetDeltas?.[i] ?? i);
    bodySizes[i] = body;
    recordsBytes += varintSize(body) + body;
  }
  const compression = options.compression ?? CompressionType.None;
  let recordsSection: Buffer | null = null;
  if (compression !== CompressionType.None) {
    const plain = Buffer.allocUnsafe(recordsBytes);
    writeRecords(records, baseTimestamp, offsetDeltas, bodySizes, plain, 0);
    recordsSection = codecFor(compression).compress(plain);
    recordsBytes = recordsSection.length;
  }
  const batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + recordsBytes);
  const lastOffsetDelta =
    options.lastOffsetDelta ?? (offsetDeltas ? offsetDeltas[offsetDeltas.length - 1] : records.length - 1);
  batch.writeBigInt64BE(BigInt(options.baseOffset ?? 0), BASE_OFFSET_AT);
  batch.writeInt32BE(batch.length - LOG_OVERHEAD_BYTES, LENGTH_AT);
  batch.writeInt32BE(options.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH, LEADER_EPOCH_AT);
  batch.writeInt8(MAGIC_V2, MAGIC_AT);
  const timestampBit = options.timestampType === TimestampType.LogAppendTime ? TIMESTAMP_TYPE_BIT : 0;
  batch.writeInt16BE(compression | timestampBit, ATTRIBUTES_AT);
  batch.writeInt32BE(lastOffsetDelta, LAST_OFFSET_DELTA_AT);
  batch.writeBigInt64BE(BigInt(baseTimestamp), BASE_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(maxTimestamp), MAX_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(options.producerId ?? NO_PRODUCER_ID), PRODUCER_ID_AT);
  batch.writeInt16BE(options.producerEpoch ?? NO_PRODUCER_EPOCH, PRODUCER_EPOCH_AT);
  batch.writeInt32BE(options.baseSequence ?? NO_SEQUENCE, BASE_SEQUENCE_AT);
  batch.writeInt32BE(records.length, RECORD_COUNT_AT);
  if (recordsSection === null) writeRecords(records, baseTimestamp, offsetDeltas, bodySizes, batch, BATCH_HEADER_BYTES);
  else recordsSection.copy(batch, BATCH_HEADER_BYTES);
  writeCrc(batch);
  return batch;
}

/**
 * Records whose keys and values lie in one buffer: record i's key is data[keyAt[i], keyAt[i] + keyLength[i]) or
 * null when keyLength[i] is -1, its value likewise. No headers.
 */
export interface RecordSpans {
  data: Buffer;
  keyAt: ArrayLike<number>;
  keyLength: ArrayLike<number>;
  valueAt: ArrayLike<number>;
  valueLength: ArrayLike<number>;
}

/**
 * The size after the length varint of a record with `keyBytes` and `valueBytes` (-1: null), no headers, timestamp
 * delta 0, at `offsetDelta`.
 */
export function spanRecordBodySize(offsetDelta: number, keyBytes: number, valueBytes: number): number {
  // attributes, timestamp delta 0 and header count 0 are one byte each
  return (
    3 +
    varintSize(offsetDelta) +
    varintSize(keyBytes) +
    (keyBytes < 0 ? 0 : keyBytes) +
    varintSize(valueBytes) +
    (valueBytes < 0 ? 0 : valueBytes)
  );
}

/** An idempotent producer's fields in a batch header (a batch without one has NO_PRODUCER_ID's). */
export type BatchProducer = Required<Pick<BatchOptions, 'producerId' | 'producerEpoch' | 'baseSequence'>>;

/**
 * Writes the header of an uncompressed batch of `count` records all at `timestamp` into batch[0, 61), with
 * `producer`'s fields when given, and the CRC.
 */
function writeUniformHeader(batch: Buffer, count: number, timestamp: number, producer: BatchProducer | null): void {
  batch.writeBigInt64BE(0n, BASE_OFFSET_AT);
  batch.writeInt32BE(batch.length - LOG_OVERHEAD_BYTES, LENGTH_AT);
  batch.writeInt32BE(NO_PARTITION_LEADER_EPOCH, LEADER_EPOCH_AT);
  batch.writeInt8(MAGIC_V2, MAGIC_AT);
  batch.writeInt16BE(CompressionType.None, ATTRIBUTES_AT);
  batch.writeInt32BE(count - 1, LAST_OFFSET_DELTA_AT);
  batch.writeBigInt64BE(BigInt(timestamp), BASE_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(timestamp), MAX_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(producer?.producerId ?? NO_PRODUCER_ID), PRODUCER_ID_AT);
  batch.writeInt16BE(producer?.producerEpoch ?? NO_PRODUCER_EPOCH, PRODUCER_EPOCH_AT);
  batch.writeInt32BE(producer?.baseSequence ?? NO_SEQUENCE, BASE_SEQUENCE_AT);
  batch.writeInt32BE(count, RECORD_COUNT_AT);
  writeCrc(batch);
}

/**
 * A batch whose records section the caller already wrote into buffer[BATCH_HEADER_BYTES, end) (`count` records
 * framed as encodeBatch frames them, offset deltas 0..count-1, timestamp deltas 0, no headers): writes the header
 * in front of it (with `producer`'s fields when given) and returns the batch, a view of `buffer`. The same bytes as
 * encodeBatch of those records.
 */
export function frameSpansBatch(
  buffer: Buffer,
  end: number,
  count: number,
  timestamp: number,
  producer: BatchProducer | null = null,
): Buffer {
  if (count === 0) throw new RangeError('a record batch holds at least one record');
  const batch = buffer.subarray(0, end);
  writeUniformHeader(batch, count, timestamp, producer);
  return batch;
}

/**
 * encodeBatch for records held as spans of one buffer (the v2 produce fast path), all with the same timestamp:
 * the records `indexes` name, in that order, or all of them in order when `indexes` is null, with `producer`'s
 * fields when given. Gives exactly the bytes encodeBatch gives for the same records without headers.
 */
export function encodeSpansBatch(
  records: RecordSpans,
  count: number,
  indexes: readonly number[] | null,
  timestamp: number,
  producer: BatchProducer | null = null,
): Buffer {
  const n = indexes === null ? count : indexes.length;
  if (n === 0) throw new RangeError('a record batch holds at least one record');
  const batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + spanRecordsBytes(records, n, indexes));
  writeSpanRecords(records, n, indexes, batch);
  writeUniformHeader(batch, n, timestamp, producer);
  return batch;
}

/** The size of the records section of the n records `indexes` names (null: the first n). */
function spanRecordsBytes(records: RecordSpans, n: number, indexes: readonly number[] | null): number {
  const { keyLength, valueLength } = records;
  let recordsBytes = 0;
  for (let position = 0; position < n; position++) {
    const i = indexes === null ? position : indexes[position];
    const body = spanRecordBodySize(position, keyLength[i], valueLength[i]);
    recordsBytes += varintSize(body) + body;
  }
  return recordsBytes;
}

/** Writes the records section after batch[0, BATCH_HEADER_BYTES). */
function writeSpanRecords(records: RecordSpans, n: number, indexes: readonly number[] | null, batch: Buffer): void {
  const { data, keyAt, keyLength, valueAt, valueLength } = records;
  let at = BATCH_HEADER_BYTES;
  for (let position = 0; position < n; position++) {
    const i = indexes === null ? position : indexes[position];
    const key = keyLength[i];
    const value = valueLength[i];
    at = writeVarint(batch, at, spanRecordBodySize(position, key, value));
    batch[at++] = 0; // attributes
    batch[at++] = 0; // timestamp delta 0
    at = writeVarint(batch, at, position);
    at = writeVarint(batch, at, key);
    at = copySpan(data, keyAt[i], key, batch, at);
    at = writeVarint(batch, at, value);
    at = copySpan(data, valueAt[i], value, batch, at);
    batch[at++] = 0; // header count 0
  }
}

/** Copies length bytes (none when length <= 0) of `from` at `start` into `to` at `at`; returns the end. */
function copySpan(from: Buffer, start: number, length: number, to: Buffer, at: number): number {
  if (length <= 0) return at;
  // Small spans (record keys and values are often tens of bytes) copy faster here than through Buffer#copy.
  if (length > 64) return at + from.copy(to, at, start, start + length);
  for (let k = 0; k < length; k++) to[at + k] = from[start + k];
  return at + length;
}

/**
 * A batch with no record that takes one offset (see record-batch-layout.ts), stamped with `timestampMs` and the
 * producer's fields: an idempotency key's marker on its home partition.
 */
export function encodeEmptyBatch(
  timestampMs: number,
  producer: { producerId: number; producerEpoch: number; baseSequence: number },
): Buffer {
  const batch = Buffer.alloc(BATCH_HEADER_BYTES);
  batch.writeInt32BE(batch.length - LOG_OVERHEAD_BYTES, LENGTH_AT);
  batch.writeInt32BE(NO_PARTITION_LEADER_EPOCH, LEADER_EPOCH_AT);
  batch.writeInt8(MAGIC_V2, MAGIC_AT);
  batch.writeInt32BE(0, LAST_OFFSET_DELTA_AT);
  batch.writeBigInt64BE(BigInt(timestampMs), BASE_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(timestampMs), MAX_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(producer.producerId), PRODUCER_ID_AT);
  batch.writeInt16BE(producer.producerEpoch, PRODUCER_EPOCH_AT);
  batch.writeInt32BE(producer.baseSequence, BASE_SEQUENCE_AT);
  batch.writeInt32BE(0, RECORD_COUNT_AT);
  writeCrc(batch);
  return batch;
}
