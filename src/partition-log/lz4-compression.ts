// LZ4 for record batches, in the LZ4 frame format as Kafka uses it since magic v1 (KIP-57), with the `lz4-napi`
// package (napi-rs bindings of the Rust lz4_flex crate; prebuilt binaries are npm optional dependencies).
// Brook writes independent 64 KiB blocks, which every Kafka client reads.
//
// A frame (LZ4 frame format 1.6): magic 0x184D2204 (little-endian), FLG (version 01, block independence, block
// checksum, content size, content checksum, dictionary id bits), BD (block maximum size: 4 = 64 KiB ... 7 =
// 4 MiB), an optional 8-byte content size and 4-byte dictionary id, a header checksum byte; then blocks of a
// little-endian uint32 size (high bit set: stored uncompressed), the data and an optional 4-byte checksum, ended
// by a zero size and an optional 4-byte content checksum. Skippable frames (magic 0x184D2A5x) may come between.
// Before decompressing, the frame headers are walked: a block yields at most the block maximum size (exactly its
// size when stored), which bounds the output without trusting the optional content size. Encoders fill every
// block but the last, so the bound is at most one block above the real size: data is decompressed when its bound
// less its largest block is within the limit, and the output is then checked against the limit itself (the memory
// used is at most the limit plus one block, 4 MiB at the very most).
import type * as Lz4 from 'lz4-napi';
import { checkedOutput, type CompressionCodec, DecompressionLimitError, nativeLibrary } from './compression-codec.js';
import { needBytes, skippableFrameEnd } from './skippable-frames.js';

const lz4 = nativeLibrary<typeof Lz4>('lz4', 'lz4-napi');

const FRAME_MAGIC = 0x184d2204;
const UNCOMPRESSED_BIT = 0x80000000;
const BLOCK_MAX_BYTES = [0, 0, 0, 0, 64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024];

export interface OutputBound {
  /** No more than this many bytes can come out. */
  readonly bytes: number;
  /** The largest block maximum of the frames: how far `bytes` may be above the real size. */
  readonly blockBytes: number;
}

const need = needBytes('LZ4');

/** The most bytes the LZ4 frames in `data` can decompress to (the walk stops once it is above `stopAbove`). */
export function lz4OutputBound(data: Buffer, stopAbove: number): OutputBound {
  let bound = 0;
  let blockBytes = 0;
  let position = 0;
  while (position < data.length) {
    const skippedTo = skippableFrameEnd(data, position, need);
    if (skippedTo !== null) {
      position = skippedTo;
      continue;
    }
    const magic = data.readUInt32LE(position);
    if (magic !== FRAME_MAGIC) throw new Error('not an LZ4 frame');
    need(data, position, 7);
    const flags = data[position + 4];
    const blockMaxBytes = BLOCK_MAX_BYTES[(data[position + 5] >> 4) & 7];
    if (flags >> 6 !== 1 || blockMaxBytes === 0) throw new Error('unsupported LZ4 frame descriptor');
    blockBytes = Math.max(blockBytes, blockMaxBytes);
    const blockChecksumBytes = flags & 0x10 ? 4 : 0;
    position += 7 + (flags & 0x08 ? 8 : 0) + (flags & 0x01 ? 4 : 0);
    while (true) {
      need(data, position, 4);
      const word = data.readUInt32LE(position);
      position += 4;
      if (word === 0) break;
      const size = (word & ~UNCOMPRESSED_BIT) >>> 0;
      need(data, position, size + blockChecksumBytes);
      bound += word & UNCOMPRESSED_BIT ? size : blockMaxBytes;
      if (bound - blockBytes > stopAbove) return { bytes: bound, blockBytes };
      position += size + blockChecksumBytes;
    }
    position += flags & 0x04 ? 4 : 0;
  }
  return { bytes: bound, blockBytes };
}

export const lz4Codec: CompressionCodec = {
  name: 'lz4',
  compress: (data) => lz4().compressFrameSync(data),
  decompress(data, maxOutputBytes) {
    const bound = lz4OutputBound(data, maxOutputBytes);
    if (bound.bytes - bound.blockBytes > maxOutputBytes) throw new DecompressionLimitError('lz4', maxOutputBytes);
    return checkedOutput('lz4', lz4().decompressFrameSync(data), maxOutputBytes);
  },
};
