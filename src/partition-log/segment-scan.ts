// Walks over the batch headers of a segment (batches end to end, layout in record-batch-layout.ts): in its file,
// through an open handle (finding a batch, re-scanning after a crash, reading past the last index entry), and in
// a buffer read from it (which whole batches a read returns, and the reads of LogSegment's read path). Each walk is
// bounded by the bytes it is given. The walks through a handle read SCAN_CHUNK_BYTES at a time (SegmentWindow), not
// one read per header or batch.
import type { FileHandle } from 'node:fs/promises';
import { readAt } from './positional-read.js';
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
 * A forward view of a segment file's bytes below `sizeBytes` through one buffer: a request inside the bytes read
 * last is answered from them, any other reads at least SCAN_CHUNK_BYTES from its position (or the whole request,
 * when larger). The walks below go through it, so a walk over small batches costs one read per chunk instead of
 * one or two per batch: each read is a thread-pool round trip, and after a crash every hosted log walks its active
 * segment (10,000 logs on one broker in issue 23's S1).
 */
export class SegmentWindow {
  private buffer: Buffer;
  /** The file's bytes [start, start + length) are buffer[0, length). */
  private start = 0;
  private length = 0;
  /** Reads done, for tests. */
  reads = 0;

  constructor(
    private handle: FileHandle,
    private sizeBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(0, Math.min(SCAN_CHUNK_BYTES, sizeBytes)));
  }

  /**
   * The same bytes read on through another handle of the same file (a later lease of the pool), up to its size now
   * (which may be below the bytes already read: a recovery cut the file; those past it are never answered).
   */
  readingThrough(handle: FileHandle, sizeBytes: number): this {
    this.handle = handle;
    this.sizeBytes = sizeBytes;
    return this;
  }

  /**
   * The file's bytes [position, position + length): a view that stays valid until the next call; null when fewer
   * than `length` bytes lie there below `sizeBytes` (or the file is shorter than `sizeBytes` said).
   */
  async bytes(position: number, length: number): Promise<Buffer | null> {
    if (position + length > this.sizeBytes) return null;
    if (position >= this.start && position + length <= this.start + this.length) {
      return this.buffer.subarray(position - this.start, position - this.start + length);
    }
    const wanted = Math.min(Math.max(length, SCAN_CHUNK_BYTES), this.sizeBytes - position);
    if (wanted < length) return null;
    if (this.buffer.length < wanted) this.buffer = Buffer.allocUnsafe(wanted);
    this.reads++;
    const { bytesRead } = await this.handle.read(this.buffer, 0, wanted, position);
    this.start = position;
    this.length = bytesRead;
    return bytesRead < length ? null : this.buffer.subarray(0, length);
  }
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
  window = new SegmentWindow(handle, sizeBytes),
): Promise<ValidPrefix> {
  let position = 0;
  let nextOffset = expectedFirstOffset;
  for (;;) {
    const headerBytes = await window.bytes(position, BATCH_HEADER_BYTES);
    if (headerBytes === null) break;
    let header: BatchHeader;
    try {
      header = readBatchHeader(headerBytes);
    } catch {
      break;
    }
    if (position + header.sizeBytes > sizeBytes || header.baseOffset < nextOffset) break;
    const batch = await window.bytes(position, header.sizeBytes);
    if (batch === null) break;
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

/**
 * Passes the header of each batch from `position` (a batch boundary) to `sizeBytes` to `onHeader`, in order; with
 * `fromOffset`, only those from the first whose last offset is >= it.
 */
export async function scanHeaders(
  handle: FileHandle,
  position: number,
  sizeBytes: number,
  onHeader: (header: BatchHeader) => void,
  fromOffset = -1,
  window = new SegmentWindow(handle, sizeBytes),
): Promise<void> {
  let found = fromOffset < 0;
  for (;;) {
    const headerBytes = await window.bytes(position, BATCH_HEADER_BYTES);
    if (headerBytes === null) return;
    const header = readBatchHeader(headerBytes);
    found ||= lastOffsetOf(header) >= fromOffset;
    if (found) onHeader(header);
    position += header.sizeBytes;
  }
}

/** The header of the file's first batch; null when the file is shorter than one header. */
export async function readFirstHeader(
  handle: FileHandle,
  sizeBytes: number,
  window = new SegmentWindow(handle, sizeBytes),
): Promise<BatchHeader | null> {
  const headerBytes = await window.bytes(0, BATCH_HEADER_BYTES);
  return headerBytes === null ? null : readBatchHeader(headerBytes);
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

/**
 * The read from an index entry's `position` (`available` bytes after it) for the batches from `offset`: one read of
 * `maxBytes` (at least a header), then wholeBatchesFrom; undefined when the wanted batch is not whole in it.
 */
export async function readBatchesFromIndexed(
  handle: FileHandle,
  position: number,
  available: number,
  offset: number,
  maxBytes: number,
  maxOffsetExclusive: number,
): Promise<Buffer | undefined> {
  const length = Math.min(Math.max(maxBytes, BATCH_HEADER_BYTES), available);
  const buffer = Buffer.allocUnsafe(length);
  const bytesRead = await readAt(handle, buffer, length, position);
  return wholeBatchesFrom(buffer.subarray(0, bytesRead), offset, maxBytes, maxOffsetExclusive);
}

/**
 * Whole batches read from the batch boundary `position` (`available` bytes after it): at most `maxBytes`, but at
 * least the first batch when `minOneBatch` (a second read of its size when the first was short), and none whose last
 * offset is >= `maxOffsetExclusive`.
 */
export async function readBatchesAt(
  handle: FileHandle,
  position: number,
  available: number,
  maxBytes: number,
  maxOffsetExclusive: number,
  minOneBatch: boolean,
): Promise<Buffer> {
  let length = Math.min(maxBytes, available);
  if (minOneBatch && length < BATCH_HEADER_BYTES) length = Math.min(BATCH_HEADER_BYTES, available);
  if (length < BATCH_HEADER_BYTES) return Buffer.alloc(0); // maxBytes below one header, without minOneBatch
  let buffer = Buffer.allocUnsafe(length);
  let bytesRead = await readAt(handle, buffer, length, position);
  const first = readBatchHeader(buffer.subarray(0, bytesRead));
  if (minOneBatch && first.sizeBytes > bytesRead && lastOffsetOf(first) < maxOffsetExclusive) {
    buffer = Buffer.allocUnsafe(first.sizeBytes);
    bytesRead = await readAt(handle, buffer, first.sizeBytes, position);
  }
  return buffer.subarray(0, wholeBatchesLength(buffer, bytesRead, maxOffsetExclusive));
}
