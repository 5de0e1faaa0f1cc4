// Splits a TCP byte stream into Kafka frames (an int32 size, then that many bytes). Pure: the caller pushes each
// chunk it reads and gets back the complete frames, each with its size prefix, ready for decodeRequest or
// decodeResponse. A frame inside one chunk is a slice of it (no copy); only a frame split across chunks is
// joined. A size below 0 or above `maxFrameBytes` (socket.request.max.bytes) is an error after which the stream
// cannot be read any further: the caller closes the connection, as Kafka does. What is held between pushes is at
// most one frame and the part of the last chunk after it.
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
