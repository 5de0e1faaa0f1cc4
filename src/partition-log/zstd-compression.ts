// Zstandard for record batches (KIP-110; Node 20's zlib has none), with `@toondepauw/node-zstd` (napi-rs
// bindings of libzstd 1.5 through the Rust zstd crate; prebuilt binaries are npm optional dependencies). Brook
// compresses at level 3, Kafka's default.
//
// A frame (RFC 8878): magic 0xFD2FB528 (little-endian); a frame header descriptor byte (content size flag, single
// segment, checksum flag, dictionary id flag); a window descriptor unless single segment; an optional dictionary
// id and content size; then blocks, each a 3-byte little-endian header (last-block bit, type: 0 raw, 1 RLE,
// 2 compressed; size) and its content (raw: size bytes; RLE: 1 byte repeated size times; compressed: size bytes
// that decompress to at most min(window size, 128 KiB)); an optional 4-byte checksum. Skippable frames (magic
// 0x184D2A5x) may come between frames. Before decompressing, the block headers are walked to bound the output.
// Encoders fill every block but the last, so the bound is at most one block (128 KiB) above the real size: data
// is decompressed when its bound less one block is within the limit, and the output is then checked against the
// limit itself. A frame whose window (the decoder's working memory) is above ZSTD_WINDOW_BYTES_MAX is refused:
// 8 MiB covers every level up to 19 (Kafka's default is 3, a 2 MiB window); the "ultra" levels 20-22 are refused.
import type * as NodeZstd from '@toondepauw/node-zstd';
import { checkedOutput, type CompressionCodec, DecompressionLimitError, nativeLibrary } from './compression-codec.js';
import { needBytes, skippableFrameEnd } from './skippable-frames.js';

const FRAME_MAGIC = 0xfd2fb528;
const BLOCK_BYTES_MAX = 128 * 1024;
const DICTIONARY_ID_BYTES = [0, 1, 2, 4];
const CONTENT_SIZE_BYTES = [0, 2, 4, 8];
const KAFKA_DEFAULT_LEVEL = 3;
export const ZSTD_WINDOW_BYTES_MAX = 8 * 1024 * 1024;

const zstdLibrary = nativeLibrary<typeof NodeZstd>('zstd', '@toondepauw/node-zstd');
let codecs: { encoder: NodeZstd.Encoder; decoder: NodeZstd.Decoder } | undefined;

function zstd() {
  if (codecs === undefined) {
    const { Decoder, Encoder } = zstdLibrary();
    codecs = { encoder: new Encoder(KAFKA_DEFAULT_LEVEL), decoder: new Decoder() };
  }
  return codecs;
}

const need = needBytes('zstd');

function readContentSize(data: Buffer, position: number, bytes: number): number {
  switch (bytes) {
    case 1:
      return data[position];
    case 2:
      return data.readUInt16LE(position) + 256;
    case 4:
      return data.readUInt32LE(position);
    default:
      return Number(data.readBigUInt64LE(position));
  }
}

/**
 * The most bytes the zstd frames in `data` can decompress to (the walk stops once it is more than a block above
 * `stopAbove`); Infinity for a frame whose window is above ZSTD_WINDOW_BYTES_MAX.
 */
export function zstdOutputBound(data: Buffer, stopAbove: number): number {
  let bound = 0;
  let position = 0;
  while (position < data.length) {
    const skippedTo = skippableFrameEnd(data, position, need);
    if (skippedTo !== null) {
      position = skippedTo;
      continue;
    }
    const magic = data.readUInt32LE(position);
    if (magic !== FRAME_MAGIC) throw new Error('not a zstd frame');
    need(data, position, 5);
    const descriptor = data[position + 4];
    position += 5;
    const singleSegment = (descriptor & 0x20) !== 0;
    let windowBytes = 0;
    if (!singleSegment) {
      need(data, position, 1);
      const window = data[position++];
      const base = 2 ** (10 + (window >> 3));
      windowBytes = base + (base / 8) * (window & 7);
    }
    position += DICTIONARY_ID_BYTES[descriptor & 3];
    const contentSizeBytes = singleSegment && descriptor >> 6 === 0 ? 1 : CONTENT_SIZE_BYTES[descriptor >> 6];
    need(data, position, contentSizeBytes);
    if (singleSegment) windowBytes = readContentSize(data, position, contentSizeBytes);
    position += contentSizeBytes;
    if (windowBytes > ZSTD_WINDOW_BYTES_MAX && !singleSegment) return Infinity;
    const blockMaxBytes = Math.min(windowBytes, BLOCK_BYTES_MAX);
    let last = false;
    while (!last) {
      need(data, position, 3);
      const header = data[position] | (data[position + 1] << 8) | (data[position + 2] << 16);
      position += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new Error('reserved zstd block type');
      const stored = type === 1 ? 1 : size;
      need(data, position, stored);
      bound += type === 2 ? blockMaxBytes : size;
      if (bound - BLOCK_BYTES_MAX > stopAbove) return bound;
      position += stored;
    }
    if (descriptor & 0x04) {
      need(data, position, 4);
      position += 4;
    }
  }
  return bound;
}

export const zstdCodec: CompressionCodec = {
  name: 'zstd',
  compress: (data) => zstd().encoder.encodeSync(data),
  decompress(data, maxOutputBytes) {
    if (zstdOutputBound(data, maxOutputBytes) - BLOCK_BYTES_MAX > maxOutputBytes) {
      throw new DecompressionLimitError('zstd', maxOutputBytes);
    }
    return checkedOutput('zstd', zstd().decoder.decodeSync(data), maxOutputBytes);
  },
};
