// The codec table for record-batch compression. The id is the value of attribute bits 0-2 in Kafka's v2 batch.
// Every codec a Kafka client may use is here: gzip (Node's zlib), snappy (raw and xerial-framed), lz4 (the LZ4
// frame format) and zstd, the last three from kept npm packages with prebuilt native binaries (see their files).
// Decompression is always bounded by the caller's limit (decodeRecords passes BATCH_BYTES_MAX unless told
// otherwise): a batch that could decompress to more is refused before it is decompressed.
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  checkedOutput,
  type CompressionCodec,
  DecompressionLimitError,
  UnsupportedCompressionError,
} from './compression-codec.js';
import { lz4Codec } from './lz4-compression.js';
import { snappyCodec } from './snappy-compression.js';
import { zstdCodec } from './zstd-compression.js';

export { type CompressionCodec, DecompressionLimitError, UnsupportedCompressionError } from './compression-codec.js';

export enum CompressionType {
  None = 0,
  Gzip = 1,
  Snappy = 2,
  Lz4 = 3,
  Zstd = 4,
}

const gzipCodec: CompressionCodec = {
  name: 'gzip',
  compress: (data) => gzipSync(data),
  decompress(data, maxOutputBytes) {
    try {
      return checkedOutput('gzip', gunzipSync(data, { maxOutputLength: Math.max(1, maxOutputBytes) }), maxOutputBytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new DecompressionLimitError('gzip', maxOutputBytes);
      }
      throw error;
    }
  },
};

const codecs: Record<CompressionType, CompressionCodec> = {
  [CompressionType.None]: { name: 'none', compress: (data) => data, decompress: (data) => data },
  [CompressionType.Gzip]: gzipCodec,
  [CompressionType.Snappy]: snappyCodec,
  [CompressionType.Lz4]: lz4Codec,
  [CompressionType.Zstd]: zstdCodec,
};

export function codecFor(type: number): CompressionCodec {
  const codec = codecs[type as CompressionType];
  if (codec === undefined) throw new UnsupportedCompressionError(`unknown compression type ${type}`);
  return codec;
}

export function compressionTypeByName(name: string): CompressionType | undefined {
  const entry = Object.entries(codecs).find(([, codec]) => codec.name === name);
  return entry === undefined ? undefined : (Number(entry[0]) as CompressionType);
}
