import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FRAME_IN_PLACE_READ_BYTES_MIN,
  FRAME_READ_AHEAD_BYTES,
  FRAME_PREALLOCATED_BYTES_MAX,
  FrameReader,
  FrameSplitter,
} from './frames.js';

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
function copyThrough(copier: FrameReader, chunks: Buffer[]): Buffer[] {
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

describe('FrameReader, given bytes to copy', () => {
  it('gives back the frames that were sent, however the stream is cut, though the read buffer is reused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (payloads, cuts) => {
          const frames = payloads.map(frameOf);
          const copier = new FrameReader(1024);
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
    const copier = new FrameReader(2 * FRAME_PREALLOCATED_BYTES_MAX);
    const chunks = chunksOf(frame, [2, 65_536, 65_540, 700_000, FRAME_PREALLOCATED_BYTES_MAX + 1]);
    const received = copyThrough(copier, chunks);
    expect(received).toHaveLength(1);
    expect(received[0].equals(frame)).toBe(true); // (toEqual's diff of a 1 MiB mismatch takes minutes)
    expect(copier.bufferedBytes).toBe(0);
  });

  it('refuses a frame larger than the limit, or with a negative size, as soon as the size is read', () => {
    const copier = new FrameReader(10);
    expect(copier.push(Buffer.from([0, 0]))).toEqual({ ok: true, frames: [] });
    expect(copier.push(Buffer.from([0, 11]))).toMatchObject({ ok: false });
    expect(new FrameReader(10).push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toMatchObject({ ok: false });
    expect(new FrameReader(10).push(frameOf(Buffer.alloc(10)))).toMatchObject({
      ok: true,
      frames: [expect.any(Buffer)],
    });
  });
});

const READ_BUFFER_BYTES = 64 * 1024;

interface ReadOutcome {
  readonly frames: Buffer[];
  /** Bytes read where a frame returned holds them, and bytes read elsewhere (copied into a frame afterwards). */
  readonly inPlaceBytes: number;
  readonly copiedBytes: number;
  /** The length of each read into the read buffer, and how many reads there were in all. */
  readonly sharedReads: number[];
  readonly reads: number;
}

/** How many of the `length` bytes at `offset` of `memory` lie inside one of `frames`. */
function bytesInFrames(frames: Buffer[], memory: ArrayBufferLike, offset: number, length: number): number {
  let inside = 0;
  for (const frame of frames) {
    if (frame.buffer !== memory) continue;
    const start = Math.max(offset, frame.byteOffset);
    const end = Math.min(offset + length, frame.byteOffset + frame.length);
    if (end > start) inside += end - start;
  }
  return inside;
}

/**
 * Plays a socket reading `stream` where the reader says: the bytes up to each arrival point are available (in
 * order), and each read takes as many of them as the reader's target holds. The read buffer is overwritten after
 * every read into it, as the listener's is by the next connection's read.
 */
function readThrough(reader: FrameReader, stream: Buffer, arrivals: number[]): ReadOutcome {
  const readBuffer = Buffer.alloc(READ_BUFFER_BYTES);
  const frames: Buffer[] = [];
  const sharedReads: number[] = [];
  const ownReads: Array<{ memory: ArrayBufferLike; offset: number; length: number }> = [];
  let consumed = 0;
  const points = [...new Set(arrivals.map((arrival) => arrival % (stream.length + 1)))].sort((a, b) => a - b);
  for (const arrived of [...points, stream.length]) {
    while (consumed < arrived) {
      const target = reader.readTarget(readBuffer);
      expect(target.length).toBeGreaterThan(0);
      const read = Math.min(target.length, arrived - consumed);
      stream.copy(target, 0, consumed, consumed + read);
      const result = reader.push(target.subarray(0, read));
      if (!result.ok) throw new Error(result.message);
      if (target.buffer === readBuffer.buffer) {
        readBuffer.fill(0xee);
        sharedReads.push(read);
      } else {
        ownReads.push({ memory: target.buffer, offset: target.byteOffset, length: read });
      }
      consumed += read;
      frames.push(...result.frames);
    }
  }
  const inPlaceBytes = ownReads.reduce(
    (bytes, { memory, offset, length }) => bytes + bytesInFrames(frames, memory, offset, length),
    0,
  );
  const reads = sharedReads.length + ownReads.length;
  return { frames, inPlaceBytes, copiedBytes: stream.length - inPlaceBytes, sharedReads, reads };
}

function patterned(bytes: number, seed: number): Buffer {
  const payload = Buffer.alloc(bytes);
  for (let at = 0; at < bytes; at++) payload[at] = (at * 7 + seed) % 251;
  return payload;
}

function expectSameFrames(received: Buffer[], sent: Buffer[]): void {
  expect(received.map((frame) => frame.length)).toEqual(sent.map((frame) => frame.length));
  for (const [index, frame] of sent.entries()) expect(received[index].equals(frame)).toBe(true);
}

describe('FrameReader, reading where it says', () => {
  it('gives back the frames that were sent, small and large, however the bytes arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat({ max: 60 }), fc.integer({ min: 30_000, max: 140_000 }), fc.constant(107_000)), {
          maxLength: 6,
        }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (sizes, arrivals) => {
          const frames = sizes.map((size, index) => frameOf(patterned(size, index)));
          const reader = new FrameReader(200_000);
          expectSameFrames(readThrough(reader, Buffer.concat(frames), arrivals).frames, frames);
          expect(reader.bufferedBytes).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds every frame boundary wherever the first arrival ends', () => {
    const frames = [frameOf(patterned(3, 1)), frameOf(patterned(40_000, 2)), frameOf(patterned(0, 3))];
    frames.push(frameOf(patterned(FRAME_IN_PLACE_READ_BYTES_MIN + 10, 4)), frameOf(patterned(20, 5)));
    const stream = Buffer.concat(frames);
    const boundaries = [0];
    for (const frame of frames) boundaries.push(boundaries[boundaries.length - 1] + frame.length);
    const points = new Set<number>();
    for (const boundary of boundaries) {
      for (let point = boundary - 6; point <= boundary + 6; point++) points.add(point);
    }
    for (let point = 0; point <= stream.length; point += 257) points.add(point);
    for (const point of points) {
      if (point < 0 || point > stream.length) continue;
      const reader = new FrameReader(100_000);
      expectSameFrames(readThrough(reader, stream, [point]).frames, frames);
      expect(reader.bufferedBytes).toBe(0);
    }
  });

  it("reads a large frame's rest into the frame's own memory, one read a frame: only a read-ahead is copied", () => {
    const frames = Array.from({ length: 8 }, (_, index) => frameOf(patterned(107_000, index)));
    const reader = new FrameReader(200_000);
    const outcome = readThrough(reader, Buffer.concat(frames), []);
    expectSameFrames(outcome.frames, frames);
    // the first frame's first read fills the read buffer; every later frame's start is read ahead with the last
    expect(outcome.copiedBytes).toBeLessThanOrEqual(READ_BUFFER_BYTES + 7 * FRAME_READ_AHEAD_BYTES);
    expect(outcome.reads).toBe(frames.length + 1);
  });

  it('reads ahead into the read buffer only a little after a large frame when the next one has not arrived', () => {
    const frames = Array.from({ length: 4 }, (_, index) => frameOf(patterned(107_000, index)));
    const boundaries = frames.map((_, index) => (index + 1) * frames[0].length);
    const outcome = readThrough(new FrameReader(200_000), Buffer.concat(frames), boundaries);
    expectSameFrames(outcome.frames, frames);
    expect(outcome.sharedReads.slice(1).every((read) => read <= FRAME_READ_AHEAD_BYTES)).toBe(true);
    expect(outcome.copiedBytes).toBeLessThanOrEqual(READ_BUFFER_BYTES + 3 * FRAME_READ_AHEAD_BYTES);
  });

  it('reads small frames many to a read, into the whole read buffer', () => {
    const frames = Array.from({ length: 2_000 }, (_, index) => frameOf(patterned(100, index)));
    const outcome = readThrough(new FrameReader(1024), Buffer.concat(frames), []);
    expectSameFrames(outcome.frames, frames);
    expect(outcome.inPlaceBytes).toBe(0);
    expect(outcome.sharedReads.slice(0, -1).every((read) => read === READ_BUFFER_BYTES)).toBe(true);
  });

  it('goes back to whole read buffers once small frames follow a large one', () => {
    const frames = [frameOf(patterned(100_000, 0))];
    for (let index = 1; index <= 2_000; index++) frames.push(frameOf(patterned(100, index)));
    const outcome = readThrough(new FrameReader(200_000), Buffer.concat(frames), []);
    expectSameFrames(outcome.frames, frames);
    expect(outcome.sharedReads.filter((read) => read === READ_BUFFER_BYTES).length).toBeGreaterThan(2);
  });

  it('refuses a frame over the limit on its size alone, and never hands out more memory than the preallocation bound', () => {
    const readBuffer = Buffer.alloc(READ_BUFFER_BYTES);
    const limited = new FrameReader(100_000);
    const prefix = Buffer.alloc(4);
    prefix.writeInt32BE(100_001, 0);
    expect(limited.push(prefix)).toMatchObject({ ok: false });
    const reader = new FrameReader(4 * FRAME_PREALLOCATED_BYTES_MAX);
    prefix.writeInt32BE(4 * FRAME_PREALLOCATED_BYTES_MAX, 0);
    expect(reader.push(prefix)).toEqual({ ok: true, frames: [] });
    expect(reader.readTarget(readBuffer).length).toBe(FRAME_PREALLOCATED_BYTES_MAX - 4); // no room: not its last piece
  });

  it('gives back a frame over the preallocation bound, read in place a piece at a time, whole', () => {
    const frame = frameOf(patterned(2 * FRAME_PREALLOCATED_BYTES_MAX + 100, 9));
    const outcome = readThrough(new FrameReader(3 * FRAME_PREALLOCATED_BYTES_MAX), frame, [100, 1_500_000]);
    expect(outcome.frames).toHaveLength(1);
    expect(outcome.frames[0].equals(frame)).toBe(true);
    // its pieces are joined once complete; none of it but the first read goes through the read buffer
    expect(outcome.sharedReads.reduce((bytes, read) => bytes + read, 0)).toBeLessThanOrEqual(READ_BUFFER_BYTES);
  });
});
