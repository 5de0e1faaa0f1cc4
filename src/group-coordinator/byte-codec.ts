// The big-endian primitives of the group coordinator's two binary formats (group-records.ts: the records of
// __consumer_offsets; consumer-protocol.ts: Kafka's consumer protocol bytes): int16, int32, int64, STRING (int16
// length + UTF-8, -1 is null and refused where a string is required) and bounded ARRAY counts. Each format passes
// its own error factory, so a malformed input throws that format's error.

/** Makes the format's error from a message ("truncated", "null string where a string is required", ...). */
export type FormatErrorFactory = (message: string) => Error;

export class ByteReader {
  private position = 0;

  constructor(
    private readonly buffer: Buffer,
    private readonly formatError: FormatErrorFactory,
  ) {}

  private need(bytes: number): void {
    if (this.position + bytes > this.buffer.length) throw this.formatError('truncated');
  }
  int16(): number {
    this.need(2);
    const value = this.buffer.readInt16BE(this.position);
    this.position += 2;
    return value;
  }
  int32(): number {
    this.need(4);
    const value = this.buffer.readInt32BE(this.position);
    this.position += 4;
    return value;
  }
  int64(): number {
    this.need(8);
    const value = Number(this.buffer.readBigInt64BE(this.position));
    this.position += 8;
    return value;
  }
  string(): string {
    const length = this.int16();
    if (length < 0) throw this.formatError('null string where a string is required');
    this.need(length);
    const value = this.buffer.toString('utf8', this.position, this.position + length);
    this.position += length;
    return value;
  }
  /** An ARRAY's int32 count, refused when negative or above `max`. */
  count(max: number): number {
    const count = this.int32();
    if (count < 0 || count > max) throw this.formatError(`bad array length ${count}`);
    return count;
  }
  rest(): Buffer {
    const value = this.buffer.subarray(this.position);
    this.position = this.buffer.length;
    return value;
  }
}

export class ByteWriter {
  private readonly parts: Buffer[] = [];

  constructor(private readonly formatError: FormatErrorFactory) {}

  int16(value: number): this {
    const buffer = Buffer.allocUnsafe(2);
    buffer.writeInt16BE(value);
    this.parts.push(buffer);
    return this;
  }
  int32(value: number): this {
    const buffer = Buffer.allocUnsafe(4);
    buffer.writeInt32BE(value);
    this.parts.push(buffer);
    return this;
  }
  int64(value: number): this {
    const buffer = Buffer.allocUnsafe(8);
    buffer.writeBigInt64BE(BigInt(value));
    this.parts.push(buffer);
    return this;
  }
  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length > 0x7fff) throw this.formatError(`string of ${bytes.length} bytes is too long`);
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  raw(bytes: Buffer): this {
    this.parts.push(bytes);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}
