// What opening a log reads besides its batches: the small files this broker wrote into the partition folder
// (partition.metadata, log-state.json, leader-epoch-checkpoint: tens to a few hundred bytes) and each segment
// file's size. These are read synchronously, on the event loop.
//
// Why: a start-up after a crash opens every hosted log (10,000 on one broker in issue 23's S1) and is bound by the
// event loop's own cost per file-system call, not by the disk: each promise-based call is a round trip through
// libuv's thread pool (a request, a wake-up, a completion callback, a promise), and a promise-based readFile is
// four of them (open, fstat, read, close). Measured on this machine (16 reads in flight, page cache warm): 85-99 µs
// of CPU per small file that way against 14-16 µs for readFileSync, whose syscalls take microseconds. A read that
// has to reach the disk blocks the loop for that read alone; the files are tiny and a log's open reads each once.
// Segment data stays on the thread pool. Segment index files and producer snapshots grow with the segment and the
// producers: readFileBytes reads one on the loop when it is at most SYNC_READ_BYTES_MAX (the common case: a
// snapshot of a few producers, the index of a segment below ~32 MB), a larger one through the pool.
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The largest file readFileBytes reads on the event loop. */
export const SYNC_READ_BYTES_MAX = 64 * 1024;

/** The file's text, or null when it does not exist; any other failure is thrown. */
export function readSmallFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The size in bytes of a file that exists. */
export function fileSizeOf(path: string): number {
  return statSync(path).size;
}

/**
 * The file's bytes (a missing file throws ENOENT, as readFile does): open, fstat, read and close on the event loop
 * when it holds at most SYNC_READ_BYTES_MAX (a few microseconds of syscalls against four thread-pool round trips),
 * else read through the thread pool.
 */
export async function readFileBytes(path: string): Promise<Buffer> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size <= SYNC_READ_BYTES_MAX) return readToEnd(fd, size);
  } finally {
    closeSync(fd);
  }
  return readFile(path);
}

function readToEnd(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const bytesRead = readSync(fd, buffer, filled, size - filled, filled);
    if (bytesRead === 0) break; // the file was cut meanwhile: what is there
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
