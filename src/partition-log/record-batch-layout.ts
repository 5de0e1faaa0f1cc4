// Kafka's record batch, magic v2: the unit Brook stores on disk and sends between brokers unchanged. This file
// owns the layout, the fixed header's accessors, validation and the in-place stamps; building batches is in
// record-batch-builder.ts, reading their records in record-batch-reader.ts.
//
//   offset  size  field
//        0     8  baseOffset            first offset of the batch (assigned by the leader's log)
//        8     4  batchLength           bytes after this field (total size - 12)
//       12     4  partitionLeaderEpoch  stamped by the leader's log
//       16     1  magic                 always 2
//       17     4  crc                   CRC-32C (Castagnoli) of bytes 21..end, unsigned
//       21     2  attributes            bits 0-2 compression, 3 timestamp type (1 = LogAppendTime),
//                                       4 transactional, 5 control, 6 has delete horizon
//                                       (Brook writes neither transactional nor control batches yet)
//       23     4  lastOffsetDelta
//       27     8  baseTimestamp         epoch ms
//       35     8  maxTimestamp
//       43     8  producerId            -1 when not idempotent
//       51     2  producerEpoch
//       53     4  baseSequence
//       57     4  recordCount
//       61     .  records (compressed as a whole when the compression bits are set)
//
// A record: length varint, attributes int8 (unused, 0), timestampDelta varlong, offsetDelta varint,
// keyLength varint (-1 = null), key, valueLength varint (-1 = null), value, headerCount varint, then per header
// keyLength varint, key (UTF-8), valueLength varint (-1 = null), value. All varints are zig-zag encoded.
//
// An empty batch (recordCount 0, lastOffsetDelta 0: one offset and no record, as Kafka's cleaner leaves a batch
// whose records it all removed) is what Brook writes as an idempotency key's marker on its home partition
// (application/produce/partition-appends.ts); readers skip it as they skip compaction's gaps. Clients may not send
// one (record-batch-validation.ts).
//
// baseOffset, batchLength, partitionLeaderEpoch and magic sit before the CRC'd range, so the log can assign
// offsets and stamp the leader epoch on a batch without recomputing its CRC.
import { crc32c } from './crc32c.js';
import { CompressionType } from './compression.js';

export const BATCH_HEADER_BYTES = 61;
export const LOG_OVERHEAD_BYTES = 12; // baseOffset + batchLength: the bytes not counted by batchLength
export const MAGIC_V2 = 2;
export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
/** No single batch may claim more than this; anything larger is corruption, not data. */
export const BATCH_BYTES_MAX = 64 * 1024 * 1024;

// Where each field of the fixed header starts.
export const BASE_OFFSET_AT = 0;
export const LENGTH_AT = 8;
export const LEADER_EPOCH_AT = 12;
export const MAGIC_AT = 16;
const CRC_AT = 17;
export const ATTRIBUTES_AT = 21;
export const LAST_OFFSET_DELTA_AT = 23;
export const BASE_TIMESTAMP_AT = 27;
export const MAX_TIMESTAMP_AT = 35;
export const PRODUCER_ID_AT = 43;
export const PRODUCER_EPOCH_AT = 51;
export const BASE_SEQUENCE_AT = 53;
export const RECORD_COUNT_AT = 57;

const COMPRESSION_MASK = 0x07;
export const TIMESTAMP_TYPE_BIT = 0x08;
const CONTROL_BIT = 0x20;

export enum TimestampType {
  CreateTime = 0,
  LogAppendTime = 1,
}

export interface RecordHeader {
  key: string;
  value: Buffer | null;
}

export interface BatchHeader {
  baseOffset: number;
  /** Size of the whole batch in bytes, header included. */
  sizeBytes: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

export class CorruptBatchError extends Error {}

export function lastOffsetOf(header: BatchHeader): number {
  return header.baseOffset + header.lastOffsetDelta;
}

export function compressionOf(header: BatchHeader): CompressionType {
  return header.attributes & COMPRESSION_MASK;
}

export function timestampTypeOf(header: BatchHeader): TimestampType {
  return header.attributes & TIMESTAMP_TYPE_BIT ? TimestampType.LogAppendTime : TimestampType.CreateTime;
}

export function isControlBatch(header: BatchHeader): boolean {
  return (header.attributes & CONTROL_BIT) !== 0;
}

/** Writes the CRC-32C of bytes 21..end; everything it covers must be in place. */
export function writeCrc(batch: Buffer): void {
  batch.writeUInt32BE(crc32c(batch.subarray(ATTRIBUTES_AT)), CRC_AT);
}

const TWO_POW_32 = 4294967296;

/**
 * The int64 at `at` as a number: the same value as Number(readBigInt64BE) (both round the exact integer to the
 * nearest double once), without a BigInt for every field of every header read.
 */
function int64At(buffer: Buffer, at: number): number {
  return buffer.readInt32BE(at) * TWO_POW_32 + buffer.readUInt32BE(at + 4);
}

/** Reads the fixed header at `position`; checks only what is needed to know the batch's extent. */
export function readBatchHeader(buffer: Buffer, position = 0): BatchHeader {
  if (buffer.length - position < BATCH_HEADER_BYTES) throw new CorruptBatchError('truncated batch header');
  const batchLength = buffer.readInt32BE(position + LENGTH_AT);
  const sizeBytes = batchLength + LOG_OVERHEAD_BYTES;
  if (sizeBytes < BATCH_HEADER_BYTES || sizeBytes > BATCH_BYTES_MAX) {
    throw new CorruptBatchError(`batch length ${batchLength} out of range`);
  }
  const magic = buffer.readInt8(position + MAGIC_AT);
  if (magic !== MAGIC_V2) throw new CorruptBatchError(`unsupported batch magic ${magic}`);
  return {
    baseOffset: int64At(buffer, position + BASE_OFFSET_AT),
    sizeBytes,
    partitionLeaderEpoch: buffer.readInt32BE(position + LEADER_EPOCH_AT),
    magic,
    crc: buffer.readUInt32BE(position + CRC_AT),
    attributes: buffer.readInt16BE(position + ATTRIBUTES_AT),
    lastOffsetDelta: buffer.readInt32BE(position + LAST_OFFSET_DELTA_AT),
    baseTimestamp: int64At(buffer, position + BASE_TIMESTAMP_AT),
    maxTimestamp: int64At(buffer, position + MAX_TIMESTAMP_AT),
    producerId: int64At(buffer, position + PRODUCER_ID_AT),
    producerEpoch: buffer.readInt16BE(position + PRODUCER_EPOCH_AT),
    baseSequence: buffer.readInt32BE(position + BASE_SEQUENCE_AT),
    recordCount: buffer.readInt32BE(position + RECORD_COUNT_AT),
  };
}

/** True when the stored CRC matches the batch bytes. */
export function hasValidCrc(batch: Buffer): boolean {
  return crc32c(batch.subarray(ATTRIBUTES_AT)) === batch.readUInt32BE(CRC_AT);
}

/**
 * Full validation of one batch from an untrusted source (a client, a peer, a file being recovered): extent,
 * magic, CRC, counts. Returns the header or throws CorruptBatchError.
 */
export function validateBatch(batch: Buffer): BatchHeader {
  const header = readBatchHeader(batch);
  if (header.sizeBytes !== batch.length) throw new CorruptBatchError('batch length does not match its bytes');
  if (!hasValidCrc(batch)) throw new CorruptBatchError('batch CRC mismatch');
  checkCountsAndOffsets(header);
  return header;
}

/**
 * Everything validateBatch checks but the CRC: extent, magic, counts, offsets. The log uses it to start writing a
 * batch while it checks the CRC (see log-appender.ts); the CRC check must still follow before the batch is kept.
 */
export function validateBatchStructure(batch: Buffer): BatchHeader {
  const header = readBatchHeader(batch);
  if (header.sizeBytes !== batch.length) throw new CorruptBatchError('batch length does not match its bytes');
  checkCountsAndOffsets(header);
  return header;
}

function checkCountsAndOffsets(header: BatchHeader): void {
  const empty = header.recordCount === 0 && header.lastOffsetDelta === 0;
  if (!empty && (header.recordCount < 1 || header.lastOffsetDelta < header.recordCount - 1)) {
    throw new CorruptBatchError(`record count ${header.recordCount} inconsistent with last offset delta`);
  }
  if (header.baseOffset < 0 || header.baseOffset + header.lastOffsetDelta > Number.MAX_SAFE_INTEGER) {
    throw new CorruptBatchError('batch offsets out of range');
  }
}

/** Stamps offsets and leader epoch onto a batch in place (both outside the CRC'd range). */
export function assignOffsetAndEpoch(batch: Buffer, baseOffset: number, partitionLeaderEpoch: number): void {
  batch.writeBigInt64BE(BigInt(baseOffset), BASE_OFFSET_AT);
  batch.writeInt32BE(partitionLeaderEpoch, LEADER_EPOCH_AT);
}

/** Marks a batch as LogAppendTime with the broker's time as max timestamp; recomputes the CRC. */
export function stampLogAppendTime(batch: Buffer, appendTimeMs: number): void {
  const attributes = batch.readInt16BE(ATTRIBUTES_AT);
  batch.writeInt16BE(attributes | TIMESTAMP_TYPE_BIT, ATTRIBUTES_AT);
  batch.writeBigInt64BE(BigInt(appendTimeMs), MAX_TIMESTAMP_AT);
  writeCrc(batch);
}
