// The positional read of the log's hot read path (log-segment.ts): fs.read with a callback on an open pooled
// handle's descriptor, instead of FileHandle.read. The promise API allocates a stats buffer and a promise request
// per call (an ArrayBuffer for every read, which the fetch path pays once per answer); this one does neither. The
// caller holds its pool lease until the promise settles, so the descriptor stays open under the read.
import { read } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Reads up to `length` bytes at `position` of `handle` into the start of `buffer`; resolves to the bytes read. */
export function readAt(handle: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(handle.fd, buffer, 0, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
  });
}
