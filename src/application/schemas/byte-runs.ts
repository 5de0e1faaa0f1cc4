// Copies of short runs of bytes between buffers (a string's bytes from a request body into the records being
// written), cheaper than Buffer#copy's call for the tens to hundreds of bytes a record's string holds: Buffer#copy
// makes a view of the source for each call. Runs of WORD_RUN_BYTES_MIN or more are copied four bytes at a time
// through DataViews (unaligned reads and writes, which the optimising compiler turns into single loads and stores),
// the DataViews of the last two buffers kept; long runs (past NATIVE_RUN_BYTES_MIN) go to Buffer#copy, whose cost
// per call no longer counts there.

const WORD_RUN_BYTES_MIN = 16;
const NATIVE_RUN_BYTES_MIN = 1024;

let fromBuffer: Buffer | null = null;
let fromView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
let toBuffer: Buffer | null = null;
let toView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

/** The view of `buffer`'s bytes (its own range of its ArrayBuffer). */
function viewOf(buffer: Buffer): DataView<ArrayBufferLike> {
  return new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
}

/** Copies from[at, end) into `to` at `toAt` (room there checked by the caller); answers the end in `to`. */
export function copyRun(from: Buffer, at: number, end: number, to: Buffer, toAt: number): number {
  const length = end - at;
  if (length >= NATIVE_RUN_BYTES_MIN) return toAt + from.copy(to, toAt, at, end);
  let i = at;
  let j = toAt;
  if (length >= WORD_RUN_BYTES_MIN) {
    if (from !== fromBuffer) {
      fromView = viewOf(from);
      fromBuffer = from;
    }
    if (to !== toBuffer) {
      toView = viewOf(to);
      toBuffer = to;
    }
    const source = fromView;
    const target = toView;
    const wordsEnd = end - 3;
    while (i < wordsEnd) {
      target.setInt32(j, source.getInt32(i));
      i += 4;
      j += 4;
    }
  }
  while (i < end) to[j++] = from[i++];
  return j;
}
