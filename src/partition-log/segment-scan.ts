// Walks over the batch headers of a segment (batches end to end, layout in record-batch-layout.ts): in its file,
// through an open handle (finding a batch, re-scanning after a crash, reading past the last index entry), and in
// a buffer read from it (which whole batches a read returns). Each walk is bounded by the bytes it is given.
import type { FileHandle } from 'node:fs/promises';
import {
  BATCH_HEADER_BYTES,
  CorruptBatchError,
  lastOffsetOf,
  readBatchHeader,
  validateBatch,
  type BatchHeader,
} from './record-batch-layout.js';

/** How much a lookup reads at a time while walking batch headers from an index entry. */
const SCAN_CHUNK_BYTES = 64 * 1024;

export interface LocatedBatch {
  position: number;
  header: BatchHeader;
}

export interface ValidPrefix {
  /** Bytes from the start of the file up to the first batch that is cut off, corrupt or out of order. */
  validBytes: number;
  /** One past the last offset of the valid batches; `expectedFirstOffset` when there is none. */
  nextOffset: number;
}

/**
 * The first batch at or after `position` (a batch boundary) and before `sizeBytes` whose last offset is >= `offset`,
 * with its byte position; null when there is none. Reads SCAN_CHUNK_BYTES at a time.
 */
export async function locateBatch(
  handle: FileHandle,
  position: number,
  sizeBytes: number,
  offset: number,
  path: string,
): Promise<LocatedBatch | null> {
  const chunk = Buffer.allocUnsafe(SCAN_CHUNK_BYTES);
  while (position + BATCH_HEADER_BYTES <= sizeBytes) {
    const length = Math.min(SCAN_CHUNK_BYTES, sizeBytes - position);
    const { bytesRead } = await handle.read(chunk, 0, length, position);
    let at = 0;
    while (at + BATCH_HEADER_BYTES <= bytesRead) {
      const header = readBatchHeader(chunk, at);
      if (lastOffsetOf(header) >= offset) return { position: position + at, header };
      at += header.sizeBytes;
    }
    if (at === 0) throw new CorruptBatchError(`unreadable batch at ${position} in ${path}`);
    position += at;
  }
  return null;
}

/**
 * Reads the file's batches from the start, each checked in full (validateBatch) and passed to `onBatch`, up to the
 * first that is cut off at `sizeBytes`, fails its check, or starts below the offset the one before ended at.
 */
export async function scanValidBatches(
  handle: FileHandle,
  sizeBytes: number,
  expectedFirstOffset: number,
  onBatch: (header: BatchHeader, position: number) => void,
): Promise<ValidPrefix> {
  let position = 0;
  let nextOffset = expectedFirstOffset;
  const headerBuffer = Buffer.allocUnsafe(BATCH_HEADER_BYTES);
  while (position + BATCH_HEADER_BYTES <= sizeBytes) {
    await handle.read(headerBuffer, 0, BATCH_HEADER_BYTES, position);
    let header: BatchHeader;
    try {
      header = readBatchHeader(headerBuffer);
    } catch {
      break;
    }
    if (position + header.sizeBytes > sizeBytes || header.baseOffset < nextOffset) break;
    const batch = Buffer.allocUnsafe(header.sizeBytes);
    await handle.read(batch, 0, header.sizeBytes, position);
    try {
      validateBatch(batch);
    } catch {
      break;
    }
    onBatch(header, position);
    nextOffset = lastOffsetOf(header) + 1;
    position += header.sizeBytes;
  }
  return { validBytes: position, nextOffset };
}

/** Passes the header of each batch from `position` (a batch boundary) to `sizeBytes` to `onHeader`, in order. */
export async function scanHeaders(
  handle: FileHandle,
  position: number,
  sizeBytes: number,
  onHeader: (header: BatchHeader) => void,
): Promise<void> {
  const headerBuffer = Buffer.allocUnsafe(BATCH_HEADER_BYTES);
  while (position + BATCH_HEADER_BYTES <= sizeBytes) {
    await handle.read(headerBuffer, 0, BATCH_HEADER_BYTES, position);
    const header = readBatchHeader(headerBuffer);
    onHeader(header);
    position += header.sizeBytes;
  }
}

/** The header of the file's first batch; null when the file is shorter than one header. */
export async function readFirstHeader(handle: FileHandle, sizeBytes: number): Promise<BatchHeader | null> {
  if (sizeBytes < BATCH_HEADER_BYTES) return null;
  const headerBuffer = Buffer.allocUnsafe(BATCH_HEADER_BYTES);
  await handle.read(headerBuffer, 0, BATCH_HEADER_BYTES, 0);
  return readBatchHeader(headerBuffer);
}

/**
 * The whole batches of `buffer` (read from a batch boundary) starting at the first whose last offset is >= `offset`,
 * within `maxBytes` of that batch and below `maxOffsetExclusive`; undefined when that first batch is not whole in
 * `buffer` (the caller reads again from the batch itself).
 */
export function wholeBatchesFrom(
  buffer: Buffer,
  offset: number,
  maxBytes: number,
  maxOffsetExclusive: number,
): Buffer | undefined {
  let start = 0;
  for (;;) {
    if (start + BATCH_HEADER_BYTES > buffer.length) return undefined;
    const header = readBatchHeader(buffer, start);
    if (lastOffsetOf(header) >= offset) break;
    start += header.sizeBytes;
  }
  let end = start;
  while (end + BATCH_HEADER_BYTES <= buffer.length) {
    const header = readBatchHeader(buffer, end);
    const next = end + header.sizeBytes;
    if (lastOffsetOf(header) >= maxOffsetExclusive) break;
    if (next > buffer.length || next - start > maxBytes) break;
    end = next;
  }
  if (end > start) return buffer.subarray(start, end);
  return lastOffsetOf(readBatchHeader(buffer, start)) >= maxOffsetExclusive ? Buffer.alloc(0) : undefined;
}

/**
 * The length of the whole batches at the start of buffer[0, bytesRead) (read from a batch boundary) that end
 * within it and lie below `maxOffsetExclusive`.
 */
export function wholeBatchesLength(buffer: Buffer, bytesRead: number, maxOffsetExclusive: number): number {
  let end = 0;
  while (end + BATCH_HEADER_BYTES <= bytesRead) {
    const header = readBatchHeader(buffer, end);
    if (end + header.sizeBytes > bytesRead || lastOffsetOf(header) >= maxOffsetExclusive) break;
    end += header.sizeBytes;
  }
  return end;
}
