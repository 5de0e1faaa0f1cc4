// The write of a log append as one job in libuv's thread pool that also checks the CRCs of the batches still
// unchecked, before writing (writevChecked in native/crc32c.c): the CRC no longer runs on the JavaScript thread.
// Null when the addon was not built here or does not load (segment-append-write.ts then writes with fs and checks
// the CRCs on this thread while the write is in flight). BROOK_NATIVE_APPEND=false forces that path, and so does
// BROOK_NATIVE_CRC32C=false (the native CRC is off, and this job computes it).
import { loadAddonFunction } from '../common/native-addon.js';

/**
 * Checks the CRC of `buffers[i]` for each i in `check`, and walks the records of those with `walk[i]` > 0
 * (append-queue.ts, RecordWalk; after the CRC, the checks of record-batch-validation.ts's walkRecords); when one
 * fails nothing is written and the promise resolves to the indexes of the corrupt batches. Otherwise writes `buffers` end to end at `position` of `fd`
 * (every byte, or rejects with the error fs would give: message, code, errno, syscall) and resolves to []. `buffers`
 * must not be changed until the promise settles. With a path instead of `fd` the job opens the file (which must
 * exist) for writing after the check passed, writes and closes it: the descriptor lives on the pool thread only for
 * the job (a failed open rejects as fs's open does: syscall 'open', path).
 */
export type WritevChecked = (
  fdOrPath: number | string,
  buffers: Buffer[],
  position: number,
  check: number[],
  walk?: readonly number[],
) => Promise<number[]>;

export const nativeWritevChecked: WritevChecked | null =
  process.env.BROOK_NATIVE_CRC32C === 'false'
    ? null
    : loadAddonFunction<WritevChecked>('crc32c', 'writevChecked', 'BROOK_NATIVE_APPEND');
