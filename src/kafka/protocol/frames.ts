// Splits a TCP byte stream into Kafka frames (an int32 size, then that many bytes). Pure: the caller pushes each
// chunk it reads and gets back the complete frames, each with its size prefix, ready for decodeRequest or
// decodeResponse. A size below 0 or above `maxFrameBytes` (socket.request.max.bytes) is an error after which the
// stream cannot be read any further: the caller closes the connection, as Kafka does. Two forms:
//   - FrameSplitter, for chunks the caller hands over (a socket's 'data' events): a frame inside one chunk is a
//     slice of it (no copy); only a frame split across chunks is joined. Held between pushes: at most one frame
//     and the part of the last chunk after it.
//   - FrameCopier, for bytes valid only during the call (a read buffer the socket reuses for every read, net's
//     `onread`): every frame is copied out into memory of its own. A frame of at most `FRAME_PREALLOCATED_BYTES_MAX`
//     gets its whole buffer once its size is read, and each read is copied straight into it; a larger one is kept
//     as copied pieces and joined when complete, so that a size prefix alone never makes the broker allocate more
//     than that. Held between pushes: at most one frame.
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

/** A frame up to this size gets its buffer as soon as its size is read (FrameCopier); a larger one grows by reads. */
export const FRAME_PREALLOCATED_BYTES_MAX = 1024 * 1024;

export class FrameCopier {
  /** The size prefix while it is incomplete (a read may end inside it). */
  private readonly sizeBytes = Buffer.alloc(FRAME_SIZE_BYTES);
  private sizeFilled = 0;
  /** The frame being filled: one buffer (preallocated), or pieces to join (a frame over the preallocation bound). */
  private frame: Buffer | null = null;
  private pieces: Buffer[] = [];
  /** The current frame's bytes with its size prefix (0: none started), and how many of them are in. */
  private frameBytes = 0;
  private filled = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes received and not yet returned in a frame. */
  get bufferedBytes(): number {
    return this.sizeFilled + this.filled;
  }

  /** Takes `bytes`, which the caller may overwrite once this returns: the frames returned are copies. */
  push(bytes: Uint8Array): FramePushResult {
    const frames: Buffer[] = [];
    let at = 0;
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

  private start(size: number): void {
    const frameBytes = FRAME_SIZE_BYTES + size;
    this.frameBytes = frameBytes;
    if (frameBytes <= FRAME_PREALLOCATED_BYTES_MAX) {
      this.frame = Buffer.allocUnsafe(frameBytes);
      this.sizeBytes.copy(this.frame, 0);
    } else {
      this.pieces.push(Buffer.from(this.sizeBytes));
    }
    this.filled = FRAME_SIZE_BYTES;
    this.sizeFilled = 0;
  }

  /** Copies what `bytes` holds of the current frame; answers how many bytes it took. */
  private fill(bytes: Uint8Array): number {
    const taken = Math.min(this.frameBytes - this.filled, bytes.length);
    if (taken === 0) return 0;
    if (this.frame !== null) this.frame.set(bytes.subarray(0, taken), this.filled);
    else this.pieces.push(Buffer.from(bytes.subarray(0, taken)));
    this.filled += taken;
    return taken;
  }

  /** The current frame once all its bytes are in, and the copier ready for the next one; null before. */
  private complete(): Buffer | null {
    if (this.filled < this.frameBytes) return null;
    const frame = this.frame ?? Buffer.concat(this.pieces, this.frameBytes);
    this.frame = null;
    this.pieces = [];
    this.frameBytes = 0;
    this.filled = 0;
    return frame;
  }
}
