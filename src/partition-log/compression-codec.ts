// What every record-batch compression codec provides, and the errors they share. A codec's decompress is
// bounded: it refuses, before decompressing, any input whose output could exceed `maxOutputBytes` (each codec
// reads the bound from its container format without decompressing), so a small hostile batch cannot make the
// broker allocate more than the caller allows. The native libraries behind snappy, lz4 and zstd are loaded on
// first use: on a platform without their prebuilt binaries the broker still starts, and only that codec refuses
// its batches (UnsupportedCompressionError, saying why).
import { createRequire } from 'node:module';

export interface CompressionCodec {
  readonly name: string;
  compress(data: Buffer): Buffer;
  /** Throws DecompressionLimitError when the output could exceed maxOutputBytes; any other Error for bad input. */
  decompress(data: Buffer, maxOutputBytes: number): Buffer;
}

export class UnsupportedCompressionError extends Error {}

/** The compressed data may decompress to more than the caller's limit (a zip bomb, or just too much data). */
export class DecompressionLimitError extends Error {
  constructor(
    readonly codec: string,
    readonly maxOutputBytes: number,
  ) {
    super(`${codec} records decompress to more than ${maxOutputBytes} bytes`);
  }
}

/** Asserts a decompressor kept to the bound it was checked against. */
export function checkedOutput(codec: string, output: Buffer, maxOutputBytes: number): Buffer {
  if (output.length > maxOutputBytes) throw new DecompressionLimitError(codec, maxOutputBytes);
  return output;
}

const requireNative = createRequire(import.meta.url);

/** Loads the npm package `name` on first call; a package that cannot load makes every call throw why. */
export function nativeLibrary<T>(codec: string, name: string): () => T {
  let library: T | undefined;
  let failure: string | undefined;
  return () => {
    if (library !== undefined) return library;
    if (failure === undefined) {
      try {
        library = requireNative(name) as T;
        return library;
      } catch (error) {
        failure = (error as Error).message.split('\n')[0];
      }
    }
    throw new UnsupportedCompressionError(`compression ${codec} is not available on this broker (${name}: ${failure})`);
  };
}
