// The write of a segment append (log-segment.ts): the batches end to end at a byte position of the `.log` file,
// with a positional writev (more than one only after a short write, or for more than IOV_MAX buffers), together
// with the CRC check of the batches still unchecked. With the native addon (native-append.ts) the check and the
// write are one job in libuv's thread pool, the check first: nothing is written when it fails. Without, the CRCs
// are checked on this thread while the write is in flight there, and the caller cuts the refused bytes off again
// once the write returned (`wroteRefused`).
//
// `inline` (a follower's append, up to INLINE_WRITE_BYTES_MAX): the check, then a writevSync on this thread, as
// Kafka's fetcher thread appends to the page cache before its next fetch. A follower reports what it wrote only in
// its next fetch, which waits for this write: on a busy machine the two thread switches of a pool job (the job
// queued to a worker, its completion back to this loop) were most of that wait (see the caller, log-appender.ts).
import { writevSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { nativeWritevChecked, type WritevChecked } from './native-append.js';
import { hasValidCrc, readBatchHeader } from './record-batch-layout.js';
import { recordsPass, RecordWalk } from './record-batch-validation.js';

export interface CheckedWrite {
  /** The indexes of the batches whose CRC is wrong; [] when every checked one is right. */
  corrupt: number[];
  /** What the check threw (a batch it could not read), else null; the write completed all the same. */
  checkError: unknown;
  /** Whether refused bytes reached the file: the caller truncates it back to the write's position. */
  wroteRefused: boolean;
}

/** The largest write `inline` does on this thread; a larger one goes to the thread pool all the same. */
export const INLINE_WRITE_BYTES_MAX = 1024 * 1024;

/**
 * Writes `buffers` at `position` of `handle` (the file at `path`), checking the CRCs of `uncheckedCrc`, and the
 * records of those whose `recordWalks` entry says so (append-queue.ts, RecordWalk; [] for none); with `inline`, on
 * this thread when they are at most INLINE_WRITE_BYTES_MAX (nothing written when a check fails).
 */
export async function writeCheckedBatches(
  handle: FileHandle,
  path: string,
  buffers: Buffer[],
  position: number,
  uncheckedCrc: readonly number[],
  inline = false,
  recordWalks: readonly RecordWalk[] = [],
): Promise<CheckedWrite> {
  const total = totalBytes(buffers);
  if (inline && total <= INLINE_WRITE_BYTES_MAX)
    return writeInline(handle.fd, path, buffers, position, total, uncheckedCrc, recordWalks);
  if (nativeWritevChecked !== null)
    return writeNative(nativeWritevChecked, handle.fd, buffers, position, uncheckedCrc, recordWalks);
  const corrupt: number[] = [];
  let checkError: unknown = null;
  let wroteRefused = false;
  let written = 0;
  while (written < total) {
    const pending = written === 0 ? buffers : remainingBuffers(buffers, written);
    const writing =
      pending.length === 1
        ? handle.write(pending[0], 0, pending[0].length, position + written)
        : handle.writev(pending, position + written);
    if (written === 0 && uncheckedCrc.length > 0) {
      try {
        for (const index of uncheckedCrc) if (!passes(buffers[index], recordWalks[index])) corrupt.push(index);
      } catch (error) {
        // the write still completes, then is cut off like a refused one
        checkError = error;
      }
      wroteRefused = corrupt.length > 0 || checkError !== null;
    }
    const { bytesWritten } = await writing;
    if (bytesWritten <= 0) throw new Error(`short write to ${path}`);
    written += bytesWritten;
  }
  return { corrupt, checkError, wroteRefused };
}

/** Whether writeCheckedBatchesToPath can be used: the native addon is here. */
export const canWriteByPath = nativeWritevChecked !== null;

/**
 * writeCheckedBatches without a handle: the native job opens `path` (which must exist) after the check passed,
 * writes and closes it, so the write holds no pooled descriptor. Only when canWriteByPath.
 */
export async function writeCheckedBatchesToPath(
  path: string,
  buffers: Buffer[],
  position: number,
  uncheckedCrc: readonly number[],
  recordWalks: readonly RecordWalk[] = [],
): Promise<CheckedWrite> {
  if (nativeWritevChecked === null) throw new Error('a write by path needs the native addon');
  return writeNative(nativeWritevChecked, path, buffers, position, uncheckedCrc, recordWalks);
}

/** The native check-and-write job on a descriptor or a path (native-append.ts): nothing written when a check fails. */
async function writeNative(
  writevChecked: WritevChecked,
  fdOrPath: number | string,
  buffers: Buffer[],
  position: number,
  uncheckedCrc: readonly number[],
  recordWalks: readonly RecordWalk[],
): Promise<CheckedWrite> {
  const check = [...uncheckedCrc];
  const corrupt = await (recordWalks.length > 0
    ? writevChecked(fdOrPath, buffers, position, check, recordWalks)
    : writevChecked(fdOrPath, buffers, position, check));
  return { corrupt, checkError: null, wroteRefused: false };
}

/**
 * Batches that need no check written on this thread with writevSync, all of them: a leader's write the pipeline
 * does inline (log-write-pipeline.ts, inline-write-gate.ts). Synchronous: an I/O error throws.
 */
export function writeBatchesOnThisThread(fd: number, path: string, buffers: Buffer[], position: number): CheckedWrite {
  return writeInline(fd, path, buffers, position, totalBytes(buffers), [], []);
}

/** The check first (a batch it cannot read throws, nothing written), then writevSync until all is written. */
function writeInline(
  fd: number,
  path: string,
  buffers: Buffer[],
  position: number,
  total: number,
  uncheckedCrc: readonly number[],
  recordWalks: readonly RecordWalk[],
): CheckedWrite {
  const corrupt = uncheckedCrc.filter((index) => !passes(buffers[index], recordWalks[index]));
  if (corrupt.length > 0) return { corrupt, checkError: null, wroteRefused: false };
  let written = 0;
  while (written < total) {
    const bytesWritten = writevSync(
      fd,
      written === 0 ? buffers : remainingBuffers(buffers, written),
      position + written,
    );
    if (bytesWritten <= 0) throw new Error(`short write to ${path}`);
    written += bytesWritten;
  }
  return { corrupt, checkError: null, wroteRefused: false };
}

/** The checks of one batch on this thread: its CRC, then its records when `walk` says so (as the native job). */
function passes(batch: Buffer, walk: RecordWalk | undefined): boolean {
  if (!hasValidCrc(batch)) return false;
  if (walk === undefined || walk === RecordWalk.NONE) return true;
  return recordsPass(batch, readBatchHeader(batch), walk === RecordWalk.KEYS_REQUIRED);
}

function totalBytes(buffers: readonly Buffer[]): number {
  let total = 0;
  for (const buffer of buffers) total += buffer.length;
  return total;
}

function remainingBuffers(buffers: Buffer[], skipBytes: number): Buffer[] {
  const rest: Buffer[] = [];
  let skip = skipBytes;
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return rest;
}
