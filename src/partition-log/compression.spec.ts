// The record-batch codecs: round trips, the bound read from each container format before decompressing (so that
// a zip bomb is refused without being expanded), snappy's two framings, and bad input as plain errors.
import fc from 'fast-check';
import { compressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import { nativeLibrary } from './compression-codec.js';
import { codecFor, CompressionType, DecompressionLimitError, UnsupportedCompressionError } from './compression.js';
import { lz4OutputBound } from './lz4-compression.js';
import { zstdOutputBound } from './zstd-compression.js';

const CODECS = [CompressionType.Gzip, CompressionType.Snappy, CompressionType.Lz4, CompressionType.Zstd];
const MIB = 1024 * 1024;

/** Data that compresses: runs of a few symbols, some random bytes, of up to ~300 KiB. */
const payloads = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
  fc
    .array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 40_000 })), { maxLength: 12 })
    .map((runs) => Buffer.concat(runs.map(([symbol, length]) => Buffer.alloc(length, 'abcd'[symbol])))),
);

/** Java's snappy-java framing: magic, version 1, compatible version 1, then int32-length-prefixed raw blocks. */
function xerialFrame(data: Buffer, blockBytes = 32 * 1024): Buffer {
  const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
  const parts: Buffer[] = [header];
  for (let start = 0; start < data.length; start += blockBytes) {
    const block = compressSync(data.subarray(start, start + blockBytes));
    const length = Buffer.alloc(4);
    length.writeInt32BE(block.length);
    parts.push(length, block);
  }
  return Buffer.concat(parts);
}

describe.each(CODECS.map((type) => [codecFor(type).name, codecFor(type)] as const))('%s', (_, codec) => {
  it('round-trips any data, and refuses when the output would be one byte over the limit', () => {
    fc.assert(
      fc.property(payloads, (data) => {
        const compressed = codec.compress(data);
        expect(codec.decompress(compressed, data.length).equals(data)).toBe(true);
        if (data.length > 0)
          expect(() => codec.decompress(compressed, data.length - 1)).toThrow(DecompressionLimitError);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a zip bomb (64 MiB of zeros) under a 1 MiB limit', () => {
    const bomb = codec.compress(Buffer.alloc(64 * MIB));
    expect(bomb.length).toBeLessThan(4 * MIB);
    expect(() => codec.decompress(bomb, MIB)).toThrow(DecompressionLimitError);
  });

  it('answers random bytes with an Error, never a crash or an output over the limit', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          expect(codec.decompress(Buffer.from(bytes), 4096).length).toBeLessThanOrEqual(4096);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('snappy framings', () => {
  const snappy = codecFor(CompressionType.Snappy);

  it('reads the xerial framing of Java clients, over several blocks', () => {
    const data = Buffer.concat(Array.from({ length: 5 }, (_, i) => Buffer.alloc(20_000, `block ${i};`)));
    const framed = xerialFrame(data);
    expect(snappy.decompress(framed, data.length).equals(data)).toBe(true);
    expect(() => snappy.decompress(framed, data.length - 1)).toThrow(DecompressionLimitError);
  });

  it('refuses a xerial block whose length runs past the end', () => {
    const framed = xerialFrame(Buffer.alloc(1000, 'x'));
    framed.writeInt32BE(10_000, 16);
    expect(() => snappy.decompress(framed, MIB)).toThrow(/past the end/);
  });

  it('writes the raw form, and refuses one whose stated length is over the limit before decompressing', () => {
    const raw = snappy.compress(Buffer.from('hello'));
    expect(raw[0]).toBe(5);
    // a stated length of 2^31 in the preamble, followed by nothing that could produce it
    const lying = Buffer.from([0x80, 0x80, 0x80, 0x80, 0x08, 0x00]);
    expect(() => snappy.decompress(lying, MIB)).toThrow(DecompressionLimitError);
  });
});

describe('output bounds read from the frame headers', () => {
  it('are never below the real output size', () => {
    fc.assert(
      fc.property(payloads, (data) => {
        const lz4 = lz4OutputBound(codecFor(CompressionType.Lz4).compress(data), Infinity);
        expect(lz4.bytes).toBeGreaterThanOrEqual(data.length);
        expect(lz4.bytes - lz4.blockBytes).toBeLessThanOrEqual(data.length);
        expect(zstdOutputBound(codecFor(CompressionType.Zstd).compress(data), Infinity)).toBeGreaterThanOrEqual(
          data.length,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('refuse before decompressing: headers that promise more than the limit fail as such, even over garbage', () => {
    // 100 compressed blocks of 1 garbage byte each: at most 100 x 64 KiB (lz4) or 100 x 128 KiB (zstd) of output;
    // decompressing them would fail as corrupt instead
    const lz4Blocks = Array.from({ length: 100 }, () => [0x01, 0x00, 0x00, 0x00, 0xff]).flat();
    const lz4 = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, ...lz4Blocks, 0, 0, 0, 0]);
    expect(() => codecFor(CompressionType.Lz4).decompress(lz4, MIB)).toThrow(DecompressionLimitError);
    expect(() => codecFor(CompressionType.Lz4).decompress(lz4, 100 * MIB)).toThrow(/./);
    expect(() => codecFor(CompressionType.Lz4).decompress(lz4, 100 * MIB)).not.toThrow(DecompressionLimitError);
    const zstdBlocks = Array.from({ length: 100 }, (_, i) => [
      ((1 << 3) | (2 << 1) | (i === 99 ? 1 : 0)) & 0xff,
      0,
      0,
      0xff,
    ]).flat();
    const zstd = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, ...zstdBlocks]);
    expect(() => codecFor(CompressionType.Zstd).decompress(zstd, MIB)).toThrow(DecompressionLimitError);
    expect(() => codecFor(CompressionType.Zstd).decompress(zstd, 100 * MIB)).toThrow(/./);
    expect(() => codecFor(CompressionType.Zstd).decompress(zstd, 100 * MIB)).not.toThrow(DecompressionLimitError);
  });

  it('count a zstd RLE block at its size, so that many of them are refused without decoding', () => {
    // a zstd frame: magic, descriptor (no content size, not single segment), window 1 MiB, then 100 RLE blocks of
    // 128 KiB each (1 byte stored each): 12.5 MiB of output from 410 bytes
    const blocks: number[] = [];
    for (let i = 0; i < 100; i++) {
      const header = ((128 * 1024) << 3) | (1 << 1) | (i === 99 ? 1 : 0);
      blocks.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x61);
    }
    const frame = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, ...blocks]);
    expect(zstdOutputBound(frame, Infinity)).toBe(100 * 128 * 1024);
    expect(() => codecFor(CompressionType.Zstd).decompress(frame, MIB)).toThrow(DecompressionLimitError);
    expect(
      codecFor(CompressionType.Zstd)
        .decompress(frame, 13 * MIB)
        .equals(Buffer.alloc(100 * 128 * 1024, 'a')),
    ).toBe(true);
  });

  it('refuse a zstd frame whose window is larger than 8 MiB, whatever the limit', () => {
    // window descriptor 0x88: 2^(10 + 17) = 128 MiB; then one empty raw block
    const frame = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x88, 0x01, 0x00, 0x00]);
    expect(() => codecFor(CompressionType.Zstd).decompress(frame, 1024 * MIB)).toThrow(DecompressionLimitError);
    frame[5] = 0x58; // 2^(10 + 11) = 2 MiB, as level 3 writes
    expect(codecFor(CompressionType.Zstd).decompress(frame, 1)).toEqual(Buffer.alloc(0));
  });

  it('write LZ4 frames of independent blocks, which every Kafka client reads', () => {
    const frame = codecFor(CompressionType.Lz4).compress(Buffer.alloc(200_000, 'kafka'));
    expect(frame.readUInt32LE(0)).toBe(0x184d2204);
    expect(frame[4] & 0x20).toBe(0x20);
  });
});

describe('native libraries', () => {
  it('are loaded on first use, and one that cannot load refuses its codec with the reason, every time', () => {
    const missing = nativeLibrary<unknown>('imaginary', 'brook-no-such-compression-package');
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(missing).toThrow(UnsupportedCompressionError);
      expect(missing).toThrow(
        /compression imaginary is not available on this broker \(brook-no-such-compression-package: Cannot find/,
      );
    }
    expect(nativeLibrary<{ compressSync: unknown }>('snappy', 'snappy')().compressSync).toBeTypeOf('function');
  });
});
