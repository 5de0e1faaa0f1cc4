// Reading what the log returns (layout in record-batch-layout.ts): the batches laid end to end in a buffer, and
// the records of one batch.
import { codecFor, CompressionType, DecompressionLimitError, UnsupportedCompressionError } from './compression.js';
import {
  BATCH_BYTES_MAX,
  BATCH_HEADER_BYTES,
  compressionOf,
  CorruptBatchError,
  readBatchHeader,
  timestampTypeOf,
  TimestampType,
  type BatchHeader,
  type RecordHeader,
} from './record-batch-layout.js';
import { VarintReader } from './varint.js';

/** A record read back, with its absolute offset. */
export interface LogRecord {
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeader[];
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
 * What a read's batches add up to, in one loop without batchesIn's generator (the fetch path walks every answer):
 * the offset after the last whole batch (`from` when there is none) and the records they hold.
 */
export function batchesSummary(buffer: Buffer, from: number): { nextOffset: number; recordCount: number } {
  let nextOffset = from;
  let recordCount = 0;
  let position = 0;
  while (buffer.length - position >= BATCH_HEADER_BYTES) {
    const header = readBatchHeader(buffer, position);
    if (position + header.sizeBytes > buffer.length) break;
    nextOffset = header.baseOffset + header.lastOffsetDelta + 1;
    recordCount += header.recordCount;
    position += header.sizeBytes;
  }
  return { nextOffset, recordCount };
}

/**
 * Decodes the records of one batch. Under LogAppendTime every record carries the batch's max timestamp, as in
 * Kafka. `maxDecompressedBytes` bounds the memory a compressed batch may expand to. Malformed bytes (a truncated
 * batch, lengths or counts that run past the data, a compressed section that does not inflate or inflates past
 * the bound) throw CorruptBatchError; a codec the broker cannot run throws UnsupportedCompressionError. The CRC is
 * not checked here (see validateBatch).
 */
export function decodeRecords(batch: Buffer, maxDecompressedBytes = BATCH_BYTES_MAX): LogRecord[] {
  const { header, body } = recordsSectionOf(batch, maxDecompressedBytes);
  try {
    return readRecords(header, body);
  } catch (error) {
    // VarintReader reports a field running past its record as a RangeError.
    if (error instanceof RangeError) throw new CorruptBatchError(error.message);
    throw error;
  }
}

/**
 * One batch's header and its records section, decompressed (bounded by `maxDecompressedBytes`), checked as far as
 * the batch's length and record count go; what decodeRecords and RecordCursor read the records from.
 */
export function recordsSectionOf(
  batch: Buffer,
  maxDecompressedBytes = BATCH_BYTES_MAX,
): { header: BatchHeader; body: Buffer } {
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
  return { header, body };
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
