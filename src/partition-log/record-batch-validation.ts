// Record-level validation of a batch a client built (Kafka's LogValidator), before the log takes it: a batch
// whose CRC is right can still hold records that no reader could decode, and once stored it would fail every
// read of its partition on every protocol. The layout is record-batch-layout.ts's. Checked here, on the records
// (decompressed first, within the caller's bound, when the batch is compressed):
//   - the batch is neither a control batch nor transactional (clients write neither without transactions, which
//     Brook does not have), and its compression type is one Brook knows;
//   - exactly `recordCount` records fill the records section, each exactly its stated length;
//   - record i has offset delta i, and the last offset delta is recordCount - 1;
//   - every length (key, value, header key, header value) lies within its record; a header key is never null;
//   - with `keysRequired` (a compacted topic), every record has a key.
// Timestamps are not checked (Kafka's message.timestamp.*.max.ms default to unbounded). Failures throw
// CorruptBatchError naming the record.
//
// The walk over the records runs in C where the addon is built (native/record-walk.c, the same checks; about a tenth
// of the JavaScript walk's time, which was a tenth of the Kafka listener's CPU per Produce): it answers only whether
// and where a check failed, and a batch it refuses is walked again here, which throws the error naming the reason.
// BROOK_NATIVE_RECORD_WALK=false forces the JavaScript walk for every batch.
import { loadAddonFunction } from '../common/native-addon.js';
import { codecFor, CompressionType, DecompressionLimitError, UnsupportedCompressionError } from './compression.js';
import { nativeWritevChecked } from './native-append.js';
import {
  BATCH_BYTES_MAX,
  BATCH_HEADER_BYTES,
  compressionOf,
  CorruptBatchError,
  isControlBatch,
  type BatchHeader,
} from './record-batch-layout.js';

/** -1 when every record of `body` passes the walk's checks, else the index of the first that does not (see above). */
export type NativeWalkRecords = (body: Uint8Array, count: number, keysRequired: boolean) => number;

export const nativeWalkRecords: NativeWalkRecords | null = loadAddonFunction<NativeWalkRecords>(
  'record-walk',
  'walkRecords',
  'BROOK_NATIVE_RECORD_WALK',
);

const TRANSACTIONAL_BIT = 0x10;
const VARINT_MAX_BYTES = 10;

export interface RecordValidationOptions {
  /** A compacted topic: records without a key are refused (Kafka: "Compacted topic cannot accept message without key"). */
  keysRequired: boolean;
  /** The most bytes a compressed records section may expand to. */
  maxDecompressedBytes: number;
}

export function validateClientRecords(batch: Buffer, header: BatchHeader, options: RecordValidationOptions): void {
  validateClientBatchHeader(header);
  let body = batch.subarray(BATCH_HEADER_BYTES, header.sizeBytes);
  const compression = compressionOf(header);
  if (compression !== CompressionType.None) body = decompressed(compression, body, options.maxDecompressedBytes);
  if (nativeWalkRecords === null || nativeWalkRecords(body, header.recordCount, options.keysRequired) >= 0) {
    walkRecords(body, header.recordCount, options.keysRequired);
    if (nativeWalkRecords !== null) {
      // the two walks check the same things (record-batch-validation.spec.ts): a batch only one refuses is a bug
      throw new Error('the native record walk refused a batch that the JavaScript walk accepts');
    }
  }
}

/**
 * Whether a queued client batch's records are still to be walked (below), by its write's job
 * right after its CRC: NONE (walked before it was queued, or not a client's), KEYS_OPTIONAL, KEYS_REQUIRED (a
 * compacted topic). The values are what the native job takes (native-append.ts).
 */
export const RecordWalk = { NONE: 0, KEYS_OPTIONAL: 1, KEYS_REQUIRED: 2 } as const;
export type RecordWalk = (typeof RecordWalk)[keyof typeof RecordWalk];

/**
 * Whether the record walk of this client batch can be left to the thread-pool job that checks its CRC and writes
 * it (native/crc32c.c, writevChecked: the same checks as walkRecords, off the JavaScript thread): where the addon is
 * built and the records are not compressed. The caller then checks only the header here
 * (validateClientBatchHeader); a batch the job refuses is walked again here for the error that names the reason.
 */
export function recordWalkDeferrable(header: BatchHeader): boolean {
  // BROOK_NATIVE_RECORD_WALK=false asks for the JavaScript walk of every batch
  return nativeWritevChecked !== null && nativeWalkRecords !== null && compressionOf(header) === CompressionType.None;
}

/** Whether the records of a client batch pass the walk (validateClientRecords), for the writes done without the job. */
export function recordsPass(batch: Buffer, header: BatchHeader, keysRequired: boolean): boolean {
  try {
    validateClientRecords(batch, header, { keysRequired, maxDecompressedBytes: BATCH_BYTES_MAX });
    return true;
  } catch (error) {
    if (error instanceof CorruptBatchError) return false;
    throw error;
  }
}

/** The checks of a client batch that need no walk over its records. */
export function validateClientBatchHeader(header: BatchHeader): void {
  if (isControlBatch(header)) throw new CorruptBatchError('clients may not write control batches');
  if ((header.attributes & TRANSACTIONAL_BIT) !== 0) {
    throw new CorruptBatchError('transactional batches are not supported (Brook has no transactions)');
  }
  if (header.lastOffsetDelta !== header.recordCount - 1) {
    throw new CorruptBatchError(
      `last offset delta ${header.lastOffsetDelta} does not match the record count ${header.recordCount}`,
    );
  }
}

function decompressed(compression: CompressionType, data: Buffer, maxOutputBytes: number): Buffer {
  let codec;
  try {
    codec = codecFor(compression);
    return codec.decompress(data, maxOutputBytes);
  } catch (error) {
    if (error instanceof UnsupportedCompressionError || error instanceof DecompressionLimitError) {
      throw new CorruptBatchError(error.message);
    }
    throw new CorruptBatchError(
      `${codec?.name ?? 'compressed'} records do not decompress: ${(error as Error).message}`,
    );
  }
}

/**
 * Walks every record of a records section. Written as one loop over local positions (no reader object, no
 * allocation): it runs on every batch a Kafka client produces.
 */
export function walkRecords(body: Buffer, count: number, keysRequired: boolean): void {
  const end = body.length;
  let position = 0;
  // Reads a zig-zag varint that must fit 31 bits (lengths, deltas, counts) at `position` within `limit`.
  const varint = (limit: number, what: string, index: number): number => {
    let raw = 0;
    let shift = 0;
    for (;;) {
      if (position >= limit) throw new CorruptBatchError(`record ${index}: ${what} runs past its record`);
      const byte = body[position++];
      raw |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new CorruptBatchError(`record ${index}: ${what} is too long a varint`);
    }
    return (raw >>> 1) ^ -(raw & 1);
  };
  for (let index = 0; index < count; index++) {
    const length = varint(end, 'the length', index);
    const recordEnd = position + length;
    if (length < 1 || recordEnd > end) throw new CorruptBatchError(`record ${index} runs past its batch`);
    position++; // attributes
    for (let i = 0; ; i++) {
      // the timestamp delta, a varlong: only skipped
      if (position >= recordEnd || i >= VARINT_MAX_BYTES) {
        throw new CorruptBatchError(`record ${index}: bad timestamp delta`);
      }
      if ((body[position++] & 0x80) === 0) break;
    }
    if (varint(recordEnd, 'the offset delta', index) !== index) {
      throw new CorruptBatchError(`record ${index} does not have offset delta ${index}`);
    }
    const keyLength = varint(recordEnd, 'the key length', index);
    if (keyLength === -1) {
      if (keysRequired) throw new CorruptBatchError(`record ${index} has no key, which a compacted topic needs`);
    } else if (keyLength < -1 || (position += keyLength) > recordEnd) {
      throw new CorruptBatchError(`record ${index}: bad key length ${keyLength}`);
    }
    const valueLength = varint(recordEnd, 'the value length', index);
    if (valueLength < -1 || (valueLength > 0 && (position += valueLength) > recordEnd)) {
      throw new CorruptBatchError(`record ${index}: bad value length ${valueLength}`);
    }
    const headers = varint(recordEnd, 'the header count', index);
    if (headers < 0 || headers > length) throw new CorruptBatchError(`record ${index}: bad header count ${headers}`);
    for (let h = 0; h < headers; h++) {
      const headerKeyLength = varint(recordEnd, 'a header key length', index);
      if (headerKeyLength < 0 || (position += headerKeyLength) > recordEnd) {
        throw new CorruptBatchError(`record ${index}: bad header key length ${headerKeyLength}`);
      }
      const headerValueLength = varint(recordEnd, 'a header value length', index);
      if (headerValueLength < -1 || (headerValueLength > 0 && (position += headerValueLength) > recordEnd)) {
        throw new CorruptBatchError(`record ${index}: bad header value length ${headerValueLength}`);
      }
    }
    if (position !== recordEnd) throw new CorruptBatchError(`record ${index} has bytes after its last field`);
  }
  if (position !== end) throw new CorruptBatchError(`the batch has bytes after its ${count} records`);
}
