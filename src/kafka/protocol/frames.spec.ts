import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameSplitter } from './frames.js';

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
