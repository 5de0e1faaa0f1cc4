// Splits a TCP byte stream into Kafka frames (an int32 size, then that many bytes). Pure: the caller pushes each
// chunk it reads and gets back the complete frames, each with its size prefix, ready for decodeRequest or
// decodeResponse. A size below 0 or above `maxFrameBytes` (socket.request.max.bytes) is an error after which the
// stream cannot be read any further: the caller closes the connection, as Kafka does. Two forms:
//   - FrameSplitter, for chunks the caller hands over (a socket's 'data' events): a frame inside one chunk is a
//     slice of it (no copy); only a frame split across chunks is joined. Held between pushes: at most one frame
//     and the part of the last chunk after it.
//   - FrameReader, for a socket whose reads land where the reader says (net's `onread` with a buffer function:
//     read-buffer-socket.ts). Every frame ends up in memory of its own, read there once: the reader hands out the
//     listener's shared read buffer (whose bytes it copies out before the next read) or, once a frame's size is
//     known and at least FRAME_IN_PLACE_READ_BYTES_MIN of it is still to come, the rest of that frame's own buffer,
//     so that a large frame is not copied after the kernel wrote it. Such a frame's memory has FRAME_READ_AHEAD_BYTES
//     of room after it, so that the read of its end also takes the next frame's size and start (copied out): one
//     read a frame when the client sends faster than the broker reads. After such a frame the shared buffer is handed
//     out for only that many bytes past the current frame; small frames keep coming many to a read. A frame of at
//     most FRAME_PREALLOCATED_BYTES_MAX gets its whole buffer (and the room) once its size is read; a larger one is
//     filled a piece of at most that size at a time and joined when complete, so that a size prefix alone never
//     makes the broker allocate more than that. Held between reads: at most one frame.
import { FRAME_SIZE_BYTES } from './codec.js';

export type FramePushResult =
  { readonly ok: true; readonly frames: Buffer[] } | { readonly ok: false; readonly message: string };

export class FrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes received and not yet returned in a frame. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): FramePushResult {
    if (chunk.length > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    const frames: Buffer[] = [];
    while (this.pendingBytes >= FRAME_SIZE_BYTES) {
      const size = this.peekSize();
      if (size < 0 || size > this.maxFrameBytes) {
        return { ok: false, message: `frame size ${size} is outside 0..${this.maxFrameBytes}` };
      }
      const frameBytes = FRAME_SIZE_BYTES + size;
      if (this.pendingBytes < frameBytes) break;
      frames.push(this.take(frameBytes));
    }
    return { ok: true, frames };
  }

  private peekSize(): number {
    const first = this.pending[0];
    if (first.length >= FRAME_SIZE_BYTES) return first.readInt32BE(0);
    return this.gather(FRAME_SIZE_BYTES, false).readInt32BE(0);
  }

  private take(bytes: number): Buffer {
    const first = this.pending[0];
    if (first.length >= bytes) {
      const frame = first.subarray(0, bytes);
      if (first.length === bytes) this.pending.shift();
      else this.pending[0] = first.subarray(bytes);
      this.pendingBytes -= bytes;
      return frame;
    }
    return this.gather(bytes, true);
  }

  /** The first `bytes` pending bytes as one buffer; consumed from the queue when `consume` is set. */
  private gather(bytes: number, consume: boolean): Buffer {
    const joined = Buffer.allocUnsafe(bytes);
    let filled = 0;
    let index = 0;
    while (filled < bytes) {
      const part = this.pending[index];
      const used = Math.min(part.length, bytes - filled);
      part.copy(joined, filled, 0, used);
      filled += used;
      if (consume && used < part.length) this.pending[index] = part.subarray(used);
      else index++;
    }
    if (consume) {
      this.pending.splice(0, index);
      this.pendingBytes -= bytes;
    }
    return joined;
  }
}

/** A frame up to this size gets its buffer as soon as its size is read (FrameReader); a larger one, pieces of it. */
export const FRAME_PREALLOCATED_BYTES_MAX = 1024 * 1024;
/** A frame with at least this many bytes still to come is read straight into its own buffer, not the read buffer. */
export const FRAME_IN_PLACE_READ_BYTES_MIN = 32 * 1024;
/**
 * A read in place may take this many bytes past its frame's end (into room allocated after the frame: the next
 * frame's size and start, copied out); after a frame read in place, a read into the read buffer takes at most this
 * many bytes past the current frame.
 */
export const FRAME_READ_AHEAD_BYTES = 4 * 1024;

export class FrameReader {
  /** The size prefix while it is incomplete (a read may end inside it). */
  private readonly sizeBytes = Buffer.alloc(FRAME_SIZE_BYTES);
  private sizeFilled = 0;
  /** The piece of the frame being filled (the whole frame up to the preallocation bound), and how much of it is in. */
  private piece: Buffer | null = null;
  private pieceFilled = 0;
  /** Bytes allocated past the piece's end: FRAME_READ_AHEAD_BYTES for a large frame's last piece, else 0. */
  private pieceRoom = 0;
  /** Full pieces of a frame over the preallocation bound, joined when it is complete. */
  private pieces: Buffer[] = [];
  /** The current frame's bytes with its size prefix (0: none started), and how many of them are in. */
  private frameBytes = 0;
  private filled = 0;
  /** Whether the current frame had a read in place, and whether the last complete one did (the next read peeks). */
  private readInPlace = false;
  private largeFrames = false;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes received and not yet returned in a frame. */
  get bufferedBytes(): number {
    return this.sizeFilled + this.filled;
  }

  /**
   * Where the next read should land: the rest of the current frame's own memory (and the room after it) when at
   * least FRAME_IN_PLACE_READ_BYTES_MIN of it is still to come, otherwise `readBuffer` (after a frame read in place,
   * only its first FRAME_READ_AHEAD_BYTES past the current frame).
   */
  readTarget(readBuffer: Buffer): Buffer {
    const remaining = this.frameBytes - this.filled;
    if (remaining >= FRAME_IN_PLACE_READ_BYTES_MIN) {
      const piece = this.currentPiece();
      const offset = piece.byteOffset + this.pieceFilled;
      return Buffer.from(piece.buffer, offset, piece.length - this.pieceFilled + this.pieceRoom);
    }
    if (!this.largeFrames) return readBuffer;
    return readBuffer.subarray(0, Math.min(readBuffer.length, remaining + FRAME_READ_AHEAD_BYTES));
  }

  /**
   * Takes `bytes`: either the start of what readTarget() last returned (taken where it is) or bytes the caller may
   * overwrite once this returns (copied). The frames returned are each in memory of their own.
   */
  push(bytes: Uint8Array): FramePushResult {
    const frames: Buffer[] = [];
    let at = 0;
    if (bytes.length > 0 && this.isInPlace(bytes)) {
      at = Math.min(bytes.length, this.piece!.length - this.pieceFilled); // the rest is read ahead: copied below
      this.pieceFilled += at;
      this.filled += at;
      this.readInPlace = true;
      const complete = this.complete();
      if (complete !== null) frames.push(complete);
    }
    while (at < bytes.length) {
      if (this.frameBytes === 0) {
        const taken = Math.min(FRAME_SIZE_BYTES - this.sizeFilled, bytes.length - at);
        this.sizeBytes.set(bytes.subarray(at, at + taken), this.sizeFilled);
        this.sizeFilled += taken;
        at += taken;
        if (this.sizeFilled < FRAME_SIZE_BYTES) break;
        const size = this.sizeBytes.readInt32BE(0);
        if (size < 0 || size > this.maxFrameBytes) {
          return { ok: false, message: `frame size ${size} is outside 0..${this.maxFrameBytes}` };
        }
        this.start(size);
      }
      at += this.fill(bytes.subarray(at));
      const complete = this.complete();
      if (complete !== null) frames.push(complete);
    }
    return { ok: true, frames };
  }

  /** Whether `bytes` lies where the current frame's next bytes go (a read into what readTarget() returned). */
  private isInPlace(bytes: Uint8Array): boolean {
    const piece = this.piece;
    return (
      piece !== null &&
      bytes.buffer === piece.buffer &&
      bytes.byteOffset === piece.byteOffset + this.pieceFilled &&
      bytes.length <= piece.length - this.pieceFilled + this.pieceRoom
    );
  }

  private start(size: number): void {
    this.frameBytes = FRAME_SIZE_BYTES + size;
    this.filled = 0;
    this.sizeFilled = 0;
    this.fill(this.sizeBytes);
  }

  /**
   * The piece the frame's next bytes go into, a new one when the last is full: at most the preallocation bound, and
   * a large frame's last piece with FRAME_READ_AHEAD_BYTES of room after it.
   */
  private currentPiece(): Buffer {
    if (this.piece !== null && this.pieceFilled < this.piece.length) return this.piece;
    if (this.piece !== null) this.pieces.push(this.piece);
    const remaining = this.frameBytes - this.filled;
    const bytes = Math.min(remaining, FRAME_PREALLOCATED_BYTES_MAX);
    const last = bytes === remaining;
    this.pieceRoom = last && this.frameBytes >= FRAME_IN_PLACE_READ_BYTES_MIN ? FRAME_READ_AHEAD_BYTES : 0;
    this.piece = Buffer.allocUnsafe(bytes + this.pieceRoom).subarray(0, bytes);
    this.pieceFilled = 0;
    return this.piece;
  }

  /** Copies what `bytes` holds of the current frame; answers how many bytes it took. */
  private fill(bytes: Uint8Array): number {
    let taken = 0;
    while (taken < bytes.length && this.filled < this.frameBytes) {
      const piece = this.currentPiece();
      const part = Math.min(piece.length - this.pieceFilled, bytes.length - taken);
      piece.set(bytes.subarray(taken, taken + part), this.pieceFilled);
      this.pieceFilled += part;
      this.filled += part;
      taken += part;
    }
    return taken;
  }

  /** The current frame once all its bytes are in, and the reader ready for the next one; null before. */
  private complete(): Buffer | null {
    if (this.frameBytes === 0 || this.filled < this.frameBytes) return null;
    const last = this.piece!;
    const frame = this.pieces.length === 0 ? last : Buffer.concat([...this.pieces, last], this.frameBytes);
    this.largeFrames = this.readInPlace;
    this.readInPlace = false;
    this.piece = null;
    this.pieceFilled = 0;
    this.pieceRoom = 0;
    this.pieces = [];
    this.frameBytes = 0;
    this.filled = 0;
    return frame;
  }
}
