// Snappy for record batches, with the `snappy` package (napi-rs bindings of the Rust snap crate; prebuilt binaries
// are npm optional dependencies). Kafka clients write one of two forms, and decompression takes both:
//   raw      one snappy block (what librdkafka, kafkajs-snappy and Brook write): a little-endian base-128 varint
//            of the uncompressed length, then the compressed data;
//   xerial   the framing of Java's snappy-java SnappyOutputStream (the Java client's): a 16-byte header (0x82
//            'SNAPPY' 0x00, then int32 version and int32 compatible version, big-endian), then blocks of an int32
//            big-endian compressed length and one raw snappy block, each holding up to 32 KiB of input.
// A raw block states its uncompressed length up front, so the bound is exact and read before decompressing.
import type * as Snappy from 'snappy';
import { checkedOutput, type CompressionCodec, DecompressionLimitError, nativeLibrary } from './compression-codec.js';

const snappy = nativeLibrary<typeof Snappy>('snappy', 'snappy');

const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_BYTES = 16;
const PREAMBLE_BYTES_MAX = 5;

/** The uncompressed length a raw snappy block states. */
function statedLength(block: Buffer): number {
  let length = 0;
  for (let i = 0; i < PREAMBLE_BYTES_MAX && i < block.length; i++) {
    length += (block[i] & 0x7f) * 2 ** (7 * i);
    if ((block[i] & 0x80) === 0) return length;
  }
  throw new Error('snappy block without a length preamble');
}

function isXerial(data: Buffer): boolean {
  return data.length >= XERIAL_HEADER_BYTES && data.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC);
}

function xerialBlocks(data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  let position = XERIAL_HEADER_BYTES;
  while (position < data.length) {
    if (data.length - position < 4) throw new Error('xerial snappy block length runs past the end');
    const length = data.readInt32BE(position);
    position += 4;
    if (length < 0 || length > data.length - position)
      throw new Error(`xerial snappy block of ${length} bytes past the end`);
    blocks.push(data.subarray(position, position + length));
    position += length;
  }
  return blocks;
}

function uncompressBlock(block: Buffer): Buffer {
  return snappy().uncompressSync(block, { asBuffer: true }) as Buffer;
}

export const snappyCodec: CompressionCodec = {
  name: 'snappy',
  compress: (data) => snappy().compressSync(data),
  decompress(data, maxOutputBytes) {
    if (!isXerial(data)) {
      if (statedLength(data) > maxOutputBytes) throw new DecompressionLimitError('snappy', maxOutputBytes);
      return checkedOutput('snappy', uncompressBlock(data), maxOutputBytes);
    }
    const blocks = xerialBlocks(data);
    let total = 0;
    for (const block of blocks) total += statedLength(block);
    if (total > maxOutputBytes) throw new DecompressionLimitError('snappy', maxOutputBytes);
    return checkedOutput('snappy', Buffer.concat(blocks.map(uncompressBlock), total), maxOutputBytes);
  },
};
