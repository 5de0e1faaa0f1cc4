// The codec table for record-batch compression. The id is the value of attribute bits 0-2 in Kafka's v2 batch.
// A codec Brook cannot run (snappy, lz4, zstd: Node 20 has no zstd) is listed so its batches are recognised and
// refused with a clear message instead of being served as garbage; adding one is one row here.
import { gunzipSync, gzipSync } from 'node:zlib';

export enum CompressionType {
  None = 0,
  Gzip = 1,
  Snappy = 2,
  Lz4 = 3,
  Zstd = 4,
}

export interface CompressionCodec {
  readonly name: string;
  compress(data: Buffer): Buffer;
  decompress(data: Buffer, maxOutputBytes: number): Buffer;
}

export class UnsupportedCompressionError extends Error {}

const unsupported = (name: string): CompressionCodec => ({
  name,
  compress: () => {
    throw new UnsupportedCompressionError(`compression ${name} is not supported by this broker`);
  },
  decompress: () => {
    throw new UnsupportedCompressionError(`compression ${name} is not supported by this broker`);
  },
});

const codecs: Record<CompressionType, CompressionCodec> = {
  [CompressionType.None]: { name: 'none', compress: (data) => data, decompress: (data) => data },
  [CompressionType.Gzip]: {
    name: 'gzip',
    compress: (data) => gzipSync(data),
    decompress: (data, maxOutputBytes) => gunzipSync(data, { maxOutputLength: maxOutputBytes }),
  },
  [CompressionType.Snappy]: unsupported('snappy'),
  [CompressionType.Lz4]: unsupported('lz4'),
  [CompressionType.Zstd]: unsupported('zstd'),
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
