// The buffers follower fetch answers are received into (peer-fetch-connection.ts), shared by every fetch loop of a
// broker and reused, so that replicating does not allocate and free a large buffer per fetch (which, beside the
// time, leaves the allocator's arenas grown: the follower's RSS). A buffer is taken for one answer and given back
// once the log no longer reads it (the follower's append has settled); one never given back (a failed append) is
// left to the garbage collector.
//
// Bounded: buffers are kept in power-of-two sizes from ANSWER_BUFFER_BYTES_MIN, none larger than
// ANSWER_BUFFER_KEPT_BYTES_MAX (a larger answer gets a buffer of its own), and at most ANSWER_BUFFERS_KEPT_BYTES_MAX
// in all are kept free.

/** The smallest buffer handed out. */
export const ANSWER_BUFFER_BYTES_MIN = 64 * 1024;
/** The largest buffer kept for reuse (replica.fetch.max.bytes is 1 MiB by default; one batch may exceed it). */
export const ANSWER_BUFFER_KEPT_BYTES_MAX = 4 * 1024 * 1024;
/** Free buffers kept, in bytes, over all sizes. */
export const ANSWER_BUFFERS_KEPT_BYTES_MAX = 16 * 1024 * 1024;

export class AnswerBuffers {
  /** Free buffers by their size. */
  private readonly free = new Map<number, Buffer[]>();
  private freeBytes = 0;

  constructor(
    readonly keptBufferBytesMax = ANSWER_BUFFER_KEPT_BYTES_MAX,
    readonly keptBytesMax = ANSWER_BUFFERS_KEPT_BYTES_MAX,
  ) {}

  /** Bytes held free for reuse. */
  get keptBytes(): number {
    return this.freeBytes;
  }

  /** A buffer of at least `bytes` (its contents undefined): a free one when there is one of that size. */
  take(bytes: number): Buffer {
    const size = sizeFor(bytes);
    const reused = this.free.get(size)?.pop();
    if (reused !== undefined) {
      this.freeBytes -= size;
      return reused;
    }
    // not from Node's shared pool: a buffer given back must be the whole of its memory
    return Buffer.allocUnsafeSlow(size);
  }

  /** `buffer`, from take, is no longer read or written by anyone: kept for reuse while within the bounds. */
  giveBack(buffer: Buffer): void {
    const size = buffer.length;
    if (size !== sizeFor(size) || buffer.byteOffset !== 0 || buffer.buffer.byteLength !== size) {
      throw new Error('a buffer given back must be a whole buffer taken here');
    }
    if (size > this.keptBufferBytesMax || this.freeBytes + size > this.keptBytesMax) return;
    let list = this.free.get(size);
    if (list === undefined) this.free.set(size, (list = []));
    list.push(buffer);
    this.freeBytes += size;
  }
}

/** The power of two at or above `bytes`, at least ANSWER_BUFFER_BYTES_MIN. */
function sizeFor(bytes: number): number {
  let size = ANSWER_BUFFER_BYTES_MIN;
  while (size < bytes) size *= 2;
  return size;
}
