// Kafka's record batch, magic v2: the unit Brook stores on disk and sends between brokers unchanged.
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
// baseOffset, batchLength, partitionLeaderEpoch and magic sit before the CRC'd range, so the log can assign
// offsets and stamp the leader epoch on a batch without recomputing its CRC.
import { crc32c } from './crc32c.js';
import { codecFor, CompressionType, DecompressionLimitError, UnsupportedCompressionError } from './compression.js';
import { VarintReader, varintSize, writeVarint } from './varint.js';

export const BATCH_HEADER_BYTES = 61;
export const LOG_OVERHEAD_BYTES = 12; // baseOffset + batchLength: the bytes not counted by batchLength
export const MAGIC_V2 = 2;
export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
/** No single batch may claim more than this; anything larger is corruption, not data. */
export const BATCH_BYTES_MAX = 64 * 1024 * 1024;

const BASE_OFFSET_AT = 0;
const LENGTH_AT = 8;
const LEADER_EPOCH_AT = 12;
const MAGIC_AT = 16;
const CRC_AT = 17;
const ATTRIBUTES_AT = 21;
const LAST_OFFSET_DELTA_AT = 23;
const BASE_TIMESTAMP_AT = 27;
const MAX_TIMESTAMP_AT = 35;
const PRODUCER_ID_AT = 43;
const PRODUCER_EPOCH_AT = 51;
const BASE_SEQUENCE_AT = 53;
const RECORD_COUNT_AT = 57;

const COMPRESSION_MASK = 0x07;
const TIMESTAMP_TYPE_BIT = 0x08;
const CONTROL_BIT = 0x20;

export enum TimestampType {
  CreateTime = 0,
  LogAppendTime = 1,
}

export interface RecordHeader {
  key: string;
  value: Buffer | null;
}

/** A record to be written; the timestamp is epoch ms. */
export interface RecordInput {
  key: Buffer | null;
  value: Buffer | null;
  headers?: RecordHeader[];
  timestamp: number;
}

/** A record read back, with its absolute offset. */
export interface LogRecord {
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeader[];
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

function writeCrc(batch: Buffer): void {
  batch.writeUInt32BE(crc32c(batch.subarray(ATTRIBUTES_AT)), CRC_AT);
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
    baseOffset: Number(buffer.readBigInt64BE(position + BASE_OFFSET_AT)),
    sizeBytes,
    partitionLeaderEpoch: buffer.readInt32BE(position + LEADER_EPOCH_AT),
    magic,
    crc: buffer.readUInt32BE(position + CRC_AT),
    attributes: buffer.readInt16BE(position + ATTRIBUTES_AT),
    lastOffsetDelta: buffer.readInt32BE(position + LAST_OFFSET_DELTA_AT),
    baseTimestamp: Number(buffer.readBigInt64BE(position + BASE_TIMESTAMP_AT)),
    maxTimestamp: Number(buffer.readBigInt64BE(position + MAX_TIMESTAMP_AT)),
    producerId: Number(buffer.readBigInt64BE(position + PRODUCER_ID_AT)),
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
 * batch while it checks the CRC (see PartitionLog); the CRC check must still follow before the batch is kept.
 */
export function validateBatchStructure(batch: Buffer): BatchHeader {
  const header = readBatchHeader(batch);
  if (header.sizeBytes !== batch.length) throw new CorruptBatchError('batch length does not match its bytes');
  checkCountsAndOffsets(header);
  return header;
}

function checkCountsAndOffsets(header: BatchHeader): void {
  if (header.recordCount < 1 || header.lastOffsetDelta < header.recordCount - 1) {
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

/**
 * Decodes the records of one batch. Under LogAppendTime every record carries the batch's max timestamp, as in
 * Kafka. `maxDecompressedBytes` bounds the memory a compressed batch may expand to. Malformed bytes (a truncated
 * batch, lengths or counts that run past the data, a compressed section that does not inflate or inflates past
 * the bound) throw CorruptBatchError; a codec the broker cannot run throws UnsupportedCompressionError. The CRC is
 * not checked here (see validateBatch).
 */
export function decodeRecords(batch: Buffer, maxDecompressedBytes = BATCH_BYTES_MAX): LogRecord[] {
  const header = readBatchHeader(batch);
  if (batch.length < header.sizeBytes) {
    throw new CorruptBatchError(`batch truncated: ${batch.length} of ${header.sizeBytes} bytes`);
  }
  let body = batch.subarray(BATCH_HEADER_BYTES, header.sizeBytes);
  const compression = compressionOf(header);
  if (compression !== CompressionType.None) body = decompress(compression, body, maxDecompressedBytes);
  if (header.recordCount < 0 || header.recordCount * MIN_RECORD_BYTES > body.length) {
    throw new CorruptBatchError(`record count ${header.recordCount} does not fit in ${body.length} bytes of records`);
  }
  try {
    return readRecords(header, body);
  } catch (error) {
    // VarintReader reports a field running past its record as a RangeError.
    if (error instanceof RangeError) throw new CorruptBatchError(error.message);
    throw error;
  }
}

/** length, attributes, timestampDelta, offsetDelta, key length, value length, header count: one byte each at least. */
const MIN_RECORD_BYTES = 7;

function decompress(compression: CompressionType, data: Buffer, maxOutputBytes: number): Buffer {
  const codec = codecFor(compression);
  try {
    return codec.decompress(data, maxOutputBytes);
  } catch (error) {
    if (error instanceof UnsupportedCompressionError) throw error;
    if (error instanceof DecompressionLimitError) throw new CorruptBatchError(error.message);
    throw new CorruptBatchError(`${codec.name} records do not decompress: ${(error as Error).message}`);
  }
}

function readRecords(header: BatchHeader, body: Buffer): LogRecord[] {
  const logAppendTime = timestampTypeOf(header) === TimestampType.LogAppendTime;
  const reader = new VarintReader(body, 0, body.length);
  const records = new Array<LogRecord>(header.recordCount);
  for (let i = 0; i < header.recordCount; i++) {
    const length = reader.readVarint();
    const end = reader.position + length;
    if (length < 0 || end > body.length) throw new CorruptBatchError(`record ${i} runs past its batch`);
    const recordReader = new VarintReader(body, reader.position, end);
    recordReader.readInt8();
    const timestampDelta = recordReader.readVarint();
    const offsetDelta = recordReader.readVarint();
    const key = recordReader.readBytes();
    const value = recordReader.readBytes();
    const headerCount = recordReader.readVarint();
    if (headerCount < 0 || headerCount > length) throw new CorruptBatchError(`bad header count ${headerCount}`);
    const headers = new Array<RecordHeader>(headerCount);
    for (let h = 0; h < headerCount; h++) {
      const headerKey = recordReader.readBytes();
      if (headerKey === null) throw new CorruptBatchError('null header key');
      headers[h] = { key: headerKey.toString('utf8'), value: recordReader.readBytes() };
    }
    if (recordReader.position !== end) throw new CorruptBatchError(`record ${i} has trailing bytes`);
    reader.position = end;
    records[i] = {
      offset: header.baseOffset + offsetDelta,
      timestamp: logAppendTime ? header.maxTimestamp : header.baseTimestamp + timestampDelta,
      key,
      value,
      headers,
    };
  }
  if (reader.position !== body.length) throw new CorruptBatchError('batch has bytes after its last record');
  return records;
}

/** Iterates the batches laid end to end in `buffer` (a read from the log); stops at the last whole batch. */
export function* batchesIn(buffer: Buffer): Generator<{ header: BatchHeader; position: number }> {
  let position = 0;
  while (buffer.length - position >= BATCH_HEADER_BYTES) {
    const header = readBatchHeader(buffer, position);
    if (position + header.sizeBytes > buffer.length) return;
    yield { header, position };
    position += header.sizeBytes;
  }
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

/** Writes the header of an uncompressed batch of `count` records all at `timestamp` into batch[0, 61), and the CRC. */
function writeUniformHeader(batch: Buffer, count: number, timestamp: number): void {
  batch.writeBigInt64BE(0n, BASE_OFFSET_AT);
  batch.writeInt32BE(batch.length - LOG_OVERHEAD_BYTES, LENGTH_AT);
  batch.writeInt32BE(NO_PARTITION_LEADER_EPOCH, LEADER_EPOCH_AT);
  batch.writeInt8(MAGIC_V2, MAGIC_AT);
  batch.writeInt16BE(CompressionType.None, ATTRIBUTES_AT);
  batch.writeInt32BE(count - 1, LAST_OFFSET_DELTA_AT);
  batch.writeBigInt64BE(BigInt(timestamp), BASE_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(timestamp), MAX_TIMESTAMP_AT);
  batch.writeBigInt64BE(BigInt(NO_PRODUCER_ID), PRODUCER_ID_AT);
  batch.writeInt16BE(NO_PRODUCER_EPOCH, PRODUCER_EPOCH_AT);
  batch.writeInt32BE(NO_SEQUENCE, BASE_SEQUENCE_AT);
  batch.writeInt32BE(count, RECORD_COUNT_AT);
  writeCrc(batch);
}

/**
 * A batch whose records section the caller already wrote into buffer[BATCH_HEADER_BYTES, end) (`count` records
 * framed as encodeBatch frames them, offset deltas 0..count-1, timestamp deltas 0, no headers): writes the header
 * in front of it and returns the batch, a view of `buffer`. The same bytes as encodeBatch of those records.
 */
export function frameSpansBatch(buffer: Buffer, end: number, count: number, timestamp: number): Buffer {
  if (count === 0) throw new RangeError('a record batch holds at least one record');
  const batch = buffer.subarray(0, end);
  writeUniformHeader(batch, count, timestamp);
  return batch;
}

/**
 * encodeBatch for records held as spans of one buffer (the v2 produce fast path), all with the same timestamp:
 * the records `indexes` name, in that order, or all of them in order when `indexes` is null. Gives exactly the bytes
 * encodeBatch gives for the same records without headers.
 */
export function encodeSpansBatch(
  records: RecordSpans,
  count: number,
  indexes: readonly number[] | null,
  timestamp: number,
): Buffer {
  const n = indexes === null ? count : indexes.length;
  if (n === 0) throw new RangeError('a record batch holds at least one record');
  const { data, keyAt, keyLength, valueAt, valueLength } = records;
  let recordsBytes = 0;
  for (let position = 0; position < n; position++) {
    const i = indexes === null ? position : indexes[position];
    const body = spanRecordBodySize(position, keyLength[i], valueLength[i]);
    recordsBytes += varintSize(body) + body;
  }
  const batch = Buffer.allocUnsafe(BATCH_HEADER_BYTES + recordsBytes);
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
  writeUniformHeader(batch, n, timestamp);
  return batch;
}

/** Copies length bytes (none when length <= 0) of `from` at `start` into `to` at `at`; returns the end. */
function copySpan(from: Buffer, start: number, length: number, to: Buffer, at: number): number {
  if (length <= 0) return at;
  // Small spans (record keys and values are often tens of bytes) copy faster here than through Buffer#copy.
  if (length > 64) return at + from.copy(to, at, start, start + length);
  for (let k = 0; k < length; k++) to[at + k] = from[start + k];
  return at + length;
}
