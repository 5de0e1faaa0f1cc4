import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAME_PREALLOCATED_BYTES_MAX, FrameCopier, FrameSplitter } from './frames.js';

function frameOf(payload: Uint8Array): Buffer {
  const frame = Buffer.alloc(4 + payload.length);
  frame.writeInt32BE(payload.length, 0);
  frame.set(payload, 4);
  return frame;
}

/** Cuts `stream` at the given positions. */
function chunksOf(stream: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, stream.length]) {
    chunks.push(stream.subarray(start, point));
    start = point;
  }
  return chunks;
}

describe('FrameSplitter', () => {
  it('gives back the frames that were sent, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (payloads, cuts) => {
          const frames = payloads.map(frameOf);
          const splitter = new FrameSplitter(1024);
          const received: Buffer[] = [];
          for (const chunk of chunksOf(Buffer.concat(frames), cuts)) {
            const result = splitter.push(chunk);
            if (!result.ok) throw new Error(result.message);
            received.push(...result.frames);
          }
          expect(received).toEqual(frames);
          expect(splitter.bufferedBytes).toBe(0);
        },
      ),
    );
  });

  it('returns a frame inside one chunk as a slice of it', () => {
    const chunk = Buffer.concat([frameOf(Buffer.from('abc')), frameOf(Buffer.from('de'))]);
    const result = new FrameSplitter(16).push(chunk);
    expect(result.ok && result.frames.map((frame) => frame.buffer === chunk.buffer)).toEqual([true, true]);
  });

  it('refuses a frame larger than the limit, or with a negative size, as soon as the size is read', () => {
    const splitter = new FrameSplitter(10);
    expect(splitter.push(Buffer.from([0, 0]))).toEqual({ ok: true, frames: [] });
    expect(splitter.push(Buffer.from([0, 11]))).toMatchObject({ ok: false });
    expect(new FrameSplitter(10).push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toMatchObject({ ok: false });
    expect(new FrameSplitter(10).push(frameOf(Buffer.alloc(10)))).toMatchObject({
      ok: true,
      frames: [expect.any(Buffer)],
    });
  });
});

/** Pushes each chunk through one reused buffer, overwritten after every push, as a socket's read buffer is. */
function copyThrough(copier: FrameCopier, chunks: Buffer[]): Buffer[] {
  const readBuffer = Buffer.alloc(Math.max(1, ...chunks.map((chunk) => chunk.length)));
  const received: Buffer[] = [];
  for (const chunk of chunks) {
    chunk.copy(readBuffer);
    const result = copier.push(readBuffer.subarray(0, chunk.length));
    readBuffer.fill(0xee);
    if (!result.ok) throw new Error(result.message);
    received.push(...result.frames);
  }
  return received;
}

describe('FrameCopier', () => {
  it('gives back the frames that were sent, however the stream is cut, though the read buffer is reused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (payloads, cuts) => {
          const frames = payloads.map(frameOf);
          const copier = new FrameCopier(1024);
          expect(copyThrough(copier, chunksOf(Buffer.concat(frames), cuts))).toEqual(frames);
          expect(copier.bufferedBytes).toBe(0);
        },
      ),
    );
  });

  it('gives back a frame over the preallocation bound, split over reads, whole', () => {
    const payload = Buffer.alloc(FRAME_PREALLOCATED_BYTES_MAX + 10);
    for (let at = 0; at < payload.length; at++) payload[at] = at % 251;
    const frame = frameOf(payload);
    const copier = new FrameCopier(2 * FRAME_PREALLOCATED_BYTES_MAX);
    const chunks = chunksOf(frame, [2, 65_536, 65_540, 700_000, FRAME_PREALLOCATED_BYTES_MAX + 1]);
    const received = copyThrough(copier, chunks);
    expect(received).toHaveLength(1);
    expect(received[0].equals(frame)).toBe(true); // (toEqual's diff of a 1 MiB mismatch takes minutes)
    expect(copier.bufferedBytes).toBe(0);
  });

  it('refuses a frame larger than the limit, or with a negative size, as soon as the size is read', () => {
    const copier = new FrameCopier(10);
    expect(copier.push(Buffer.from([0, 0]))).toEqual({ ok: true, frames: [] });
    expect(copier.push(Buffer.from([0, 11]))).toMatchObject({ ok: false });
    expect(new FrameCopier(10).push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toMatchObject({ ok: false });
    expect(new FrameCopier(10).push(frameOf(Buffer.alloc(10)))).toMatchObject({
      ok: true,
      frames: [expect.any(Buffer)],
    });
  });
});
