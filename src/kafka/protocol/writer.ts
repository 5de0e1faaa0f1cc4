// Builds one frame as a list of buffers, ready for socket.writev or Buffer.concat. Scalars are written into a
// scratch buffer; a byte range handed to `splice` (the record batches of Produce and Fetch) goes into the list
// as it is, never copied. When the scratch buffer is full the next one is started, so nothing written is ever
// copied either. The first 4 bytes are the frame's size prefix, filled in by `finish`.
//
// Every value is checked before it is written (integer ranges, UUID syntax, string lengths): the writer never
// produces a frame that a decoder would misread.
import { ProtocolEncodeError } from './errors.js';

const TWO_POW_32 = 4294967296;
const FIRST_SCRATCH_BYTES = 512;
const SCRATCH_BYTES_MAX = 64 * 1024;
/** Byte ranges shorter than this are copied into the scratch buffer rather than spliced. */
const SPLICE_MIN_BYTES = 256;
const INT16_STRING_BYTES_MAX = 0x7fff;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(field: string, message: string): never {
  throw new ProtocolEncodeError(`${field}: ${message}`);
}

function checkInteger(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(field, `${String(value)} is not an integer in [${min}, ${max}]`);
  }
  return value;
}

export class ProtocolWriter {
  private readonly chunks: Buffer[] = [];
  private scratch: Buffer;
  private position = 0;
  private chunkStart = 0;
  private completedBytes = 0;

  constructor(firstScratchBytes = FIRST_SCRATCH_BYTES) {
    this.scratch = Buffer.allocUnsafe(firstScratchBytes);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.completedBytes + this.position - this.chunkStart;
  }

  private closeChunk(): void {
    if (this.position > this.chunkStart) {
      this.chunks.push(this.scratch.subarray(this.chunkStart, this.position));
      this.completedBytes += this.position - this.chunkStart;
    }
    this.chunkStart = this.position;
  }

  private room(bytes: number): void {
    if (this.scratch.length - this.position >= bytes) return;
    this.closeChunk();
    const next = Math.min(SCRATCH_BYTES_MAX, this.scratch.length * 2);
    this.scratch = Buffer.allocUnsafe(Math.max(bytes, next));
    this.position = 0;
    this.chunkStart = 0;
  }

  int8(value: unknown, field: string): void {
    checkInteger(value, -0x80, 0x7f, field);
    this.room(1);
    this.scratch.writeInt8(value as number, this.position++);
  }

  bool(value: unknown, field: string): void {
    if (typeof value !== 'boolean') fail(field, `${String(value)} is not a boolean`);
    this.room(1);
    this.scratch[this.position++] = value ? 1 : 0;
  }

  int16(value: unknown, field: string): void {
    checkInteger(value, -0x8000, 0x7fff, field);
    this.room(2);
    this.scratch.writeInt16BE(value as number, this.position);
    this.position += 2;
  }

  int32(value: unknown, field: string): void {
    checkInteger(value, -0x80000000, 0x7fffffff, field);
    this.room(4);
    this.scratch.writeInt32BE(value as number, this.position);
    this.position += 4;
  }

  int64(value: unknown, field: string): void {
    const checked = checkInteger(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, field);
    this.room(8);
    const high = Math.floor(checked / TWO_POW_32);
    this.scratch.writeInt32BE(high, this.position);
    this.scratch.writeUInt32BE(checked - high * TWO_POW_32, this.position + 4);
    this.position += 8;
  }

  uvarint(value: number): void {
    this.room(5);
    let rest = value;
    while (rest >= 0x80) {
      this.scratch[this.position++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.scratch[this.position++] = rest;
  }

  uuid(value: unknown, field: string): void {
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) fail(field, `${String(value)} is not a UUID`);
    this.room(16);
    this.scratch.write(value.replaceAll('-', ''), this.position, 16, 'hex');
    this.position += 16;
  }

  private utf8Bytes(value: unknown, field: string): number {
    if (typeof value !== 'string') fail(field, `${String(value)} is not a string`);
    return Buffer.byteLength(value, 'utf8');
  }

  private utf8(value: string, byteLength: number): void {
    this.room(byteLength);
    this.position += this.scratch.write(value, this.position, byteLength, 'utf8');
  }

  string(value: unknown, nullable: boolean, field: string): void {
    if (value === null) return this.nullLength(nullable, field, () => this.int16(-1, field));
    const byteLength = this.utf8Bytes(value, field);
    if (byteLength > INT16_STRING_BYTES_MAX) fail(field, `${byteLength} bytes is longer than a string may be`);
    this.int16(byteLength, field);
    this.utf8(value as string, byteLength);
  }

  compactString(value: unknown, nullable: boolean, field: string): void {
    if (value === null) return this.nullLength(nullable, field, () => this.uvarint(0));
    const byteLength = this.utf8Bytes(value, field);
    this.uvarint(byteLength + 1);
    this.utf8(value as string, byteLength);
  }

  /** bytes or records: one buffer, or several written one after the other (record batches). */
  bytes(value: unknown, nullable: boolean, compact: boolean, field: string): void {
    if (value === null)
      return this.nullLength(nullable, field, () => (compact ? this.uvarint(0) : this.int32(-1, field)));
    if (Buffer.isBuffer(value)) {
      this.length32(value.length, compact, field);
      this.splice(value);
      return;
    }
    if (!Array.isArray(value)) fail(field, 'is not a Buffer or a list of Buffers');
    let total = 0;
    for (const part of value) {
      if (!Buffer.isBuffer(part)) fail(field, 'is not a Buffer or a list of Buffers');
      total += part.length;
    }
    this.length32(total, compact, field);
    for (const part of value as Buffer[]) this.splice(part);
  }

  private length32(length: number, compact: boolean, field: string): void {
    if (compact) this.uvarint(length + 1);
    else this.int32(length, field);
  }

  arrayCount(value: unknown, nullable: boolean, compact: boolean, field: string): number {
    if (value === null) {
      this.nullLength(nullable, field, () => (compact ? this.uvarint(0) : this.int32(-1, field)));
      return 0;
    }
    if (!Array.isArray(value)) fail(field, 'is not an array');
    if (compact) this.uvarint(value.length + 1);
    else this.int32(value.length, field);
    return value.length;
  }

  private nullLength(nullable: boolean, field: string, write: () => void): void {
    if (!nullable) fail(field, 'may not be null in this version');
    write();
  }

  /** Adds `bytes` to the frame: copied when short, else referenced as it is. */
  splice(bytes: Buffer): void {
    if (bytes.length < SPLICE_MIN_BYTES) {
      this.room(bytes.length);
      bytes.copy(this.scratch, this.position);
      this.position += bytes.length;
      return;
    }
    this.closeChunk();
    this.chunks.push(bytes);
    this.completedBytes += bytes.length;
  }

  /** The bytes written, as one list; the writer must not be used afterwards. */
  chunksWritten(): Buffer[] {
    this.closeChunk();
    return this.chunks;
  }

  /** Ends a frame begun with a 4-byte placeholder: writes its size into it and returns the frame's buffers. */
  finishFrame(): Buffer[] {
    const chunks = this.chunksWritten();
    chunks[0].writeInt32BE(this.completedBytes - 4, 0);
    return chunks;
  }
}
