// A bounds-checked cursor over one frame. Every read checks the bytes it needs against `end` before touching the
// buffer, and every length or count read from the frame is checked against the bytes remaining before anything is
// allocated for it, so a hostile frame can cost no more memory than its own size. Failures are DecodeFailure
// values naming the field (`field` is only used for that message).
//
// Encodings (Kafka's protocol guide; KIP-482 for the compact forms of flexible versions):
//   int8/16/32/64   big-endian two's complement; bool is an int8, non-zero true
//   uuid            16 bytes
//   string          int16 length (-1 null) + UTF-8 | compact: unsigned varint length + 1 (0 null) + UTF-8
//   bytes           int32 length (-1 null) + bytes | compact: unsigned varint length + 1 (0 null) + bytes
//   array           int32 count (-1 null)          | compact: unsigned varint count + 1 (0 null)
//   unsigned varint 7 bits a byte, least significant first, high bit set on all but the last (at most 5 bytes)
import { isUtf8 } from 'node:buffer';
import { DecodeFailure } from './errors.js';

const TWO_POW_32 = 4294967296;
const UVARINT_MAX_BYTES = 5;
const INT31_MAX = 0x7fffffff;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class ProtocolReader {
  constructor(
    readonly buffer: Buffer,
    public position: number,
    public end: number,
  ) {}

  remaining(): number {
    return this.end - this.position;
  }

  private need(bytes: number, field: string): void {
    if (this.end - this.position < bytes) {
      throw new DecodeFailure('truncated', `${field}: needs ${bytes} bytes, ${this.end - this.position} left`);
    }
  }

  int8(field: string): number {
    this.need(1, field);
    return this.buffer.readInt8(this.position++);
  }

  bool(field: string): boolean {
    return this.int8(field) !== 0;
  }

  int16(field: string): number {
    this.need(2, field);
    const value = this.buffer.readInt16BE(this.position);
    this.position += 2;
    return value;
  }

  int32(field: string): number {
    this.need(4, field);
    const value = this.buffer.readInt32BE(this.position);
    this.position += 4;
    return value;
  }

  int64(field: string): number {
    this.need(8, field);
    const high = this.buffer.readInt32BE(this.position);
    const low = this.buffer.readUInt32BE(this.position + 4);
    this.position += 8;
    // Exact whenever the result is within ±2^53; anything outside is refused, never rounded.
    const value = high * TWO_POW_32 + low;
    if (!Number.isSafeInteger(value)) throw new DecodeFailure('invalid-int64', `${field}: int64 outside ±(2^53 - 1)`);
    return value;
  }

  uuid(field: string): string {
    this.need(16, field);
    const b = this.buffer;
    const p = this.position;
    this.position += 16;
    return (
      HEX[b[p]] +
      HEX[b[p + 1]] +
      HEX[b[p + 2]] +
      HEX[b[p + 3]] +
      '-' +
      HEX[b[p + 4]] +
      HEX[b[p + 5]] +
      '-' +
      HEX[b[p + 6]] +
      HEX[b[p + 7]] +
      '-' +
      HEX[b[p + 8]] +
      HEX[b[p + 9]] +
      '-' +
      HEX[b[p + 10]] +
      HEX[b[p + 11]] +
      HEX[b[p + 12]] +
      HEX[b[p + 13]] +
      HEX[b[p + 14]] +
      HEX[b[p + 15]]
    );
  }

  /** An unsigned varint of at most 31 bits (every length, count and tag in the protocol). */
  uvarint(field: string): number {
    let value = 0;
    for (let i = 0; i < UVARINT_MAX_BYTES; i++) {
      if (this.position >= this.end) throw new DecodeFailure('truncated', `${field}: varint runs past the end`);
      const byte = this.buffer[this.position++];
      value += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) {
        if (value > INT31_MAX) throw new DecodeFailure('invalid-varint', `${field}: varint above 2^31 - 1`);
        return value;
      }
    }
    throw new DecodeFailure('invalid-varint', `${field}: varint longer than ${UVARINT_MAX_BYTES} bytes`);
  }

  /** A length already read: -1 is null, anything else must fit in what is left. */
  private checkedLength(length: number, nullable: boolean, field: string): number {
    if (length === -1) {
      if (!nullable) throw new DecodeFailure('invalid-null', `${field}: null is not allowed here`);
      return -1;
    }
    if (length < 0) throw new DecodeFailure('invalid-length', `${field}: negative length ${length}`);
    if (length > this.end - this.position) {
      throw new DecodeFailure('invalid-length', `${field}: length ${length} past the end (${this.remaining()} left)`);
    }
    return length;
  }

  private utf8(length: number, field: string): string {
    const start = this.position;
    const stop = start + length;
    this.position = stop;
    if (!isUtf8(this.buffer.subarray(start, stop))) throw new DecodeFailure('invalid-utf8', `${field}: not UTF-8`);
    return this.buffer.toString('utf8', start, stop);
  }

  private slice(length: number): Buffer {
    const start = this.position;
    this.position += length;
    return this.buffer.subarray(start, this.position);
  }

  string(field: string, nullable: boolean): string | null {
    const length = this.checkedLength(this.int16(field), nullable, field);
    return length === -1 ? null : this.utf8(length, field);
  }

  compactString(field: string, nullable: boolean): string | null {
    const length = this.checkedLength(this.uvarint(field) - 1, nullable, field);
    return length === -1 ? null : this.utf8(length, field);
  }

  bytes(field: string, nullable: boolean): Buffer | null {
    const length = this.checkedLength(this.int32(field), nullable, field);
    return length === -1 ? null : this.slice(length);
  }

  compactBytes(field: string, nullable: boolean): Buffer | null {
    const length = this.checkedLength(this.uvarint(field) - 1, nullable, field);
    return length === -1 ? null : this.slice(length);
  }

  /**
   * An array count: -1 (null) or a count whose elements, at `minElementBytes` each, fit in what is left, so
   * that no array is ever allocated for more elements than the frame could hold.
   */
  arrayCount(field: string, nullable: boolean, compact: boolean, minElementBytes: number): number {
    const count = compact ? this.uvarint(field) - 1 : this.int32(field);
    if (count === -1) {
      if (!nullable) throw new DecodeFailure('invalid-null', `${field}: null is not allowed here`);
      return -1;
    }
    if (count < 0) throw new DecodeFailure('invalid-count', `${field}: negative count ${count}`);
    if (count * Math.max(1, minElementBytes) > this.end - this.position) {
      throw new DecodeFailure('invalid-count', `${field}: ${count} elements cannot fit in ${this.remaining()} bytes`);
    }
    return count;
  }
}
