// What every record-batch compression codec provides, and the errors they share. A codec's decompress is
// bounded: it refuses, before decompressing, any input whose output could exceed `maxOutputBytes` (each codec
// reads the bound from its container format without decompressing), so a small hostile batch cannot make the
// broker allocate more than the caller allows.

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
