// Zig-zag variable-length integers as Kafka's record format uses them (protobuf's encoding): the sign is moved
// into the lowest bit, then 7 bits a byte, least significant group first, high bit set on every byte but the last.
// Values are JavaScript numbers and every safe integer (|value| <= 2^53 - 1) round-trips exactly, which covers
// every field Brook writes.
//
// The zig-zag form of a negative safe integer can be odd and above 2^53 (-(2^53 - 1) -> 2^54 - 3), which a double
// cannot hold, so the writer and reader never build it: they work on the magnitude m = value >= 0 ? value :
// -value - 1 (zig-zag = 2m + sign) and handle the sign bit inside the first byte.

export const VARINT_MAX_BYTES = 10;

/** The zig-zag form of `value`; exact only while the result stays a safe integer (|value| <= 2^52). */
export function zigZag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

/** Inverse of zigZag; exact only for safe `encoded`. */
export function unZigZag(encoded: number): number {
  return encoded % 2 === 0 ? encoded / 2 : -(encoded + 1) / 2;
}

/** Values whose zig-zag form fits 31 bits take the integer fast path (every length, delta and count in practice). */
const FAST_PATH_LIMIT = 0x40000000;

export function varintSize(value: number): number {
  if (value < FAST_PATH_LIMIT && value >= -FAST_PATH_LIMIT) {
    const zigzag = (value << 1) ^ (value >> 31);
    return zigzag < 0x80 ? 1 : zigzag < 0x4000 ? 2 : zigzag < 0x200000 ? 3 : zigzag < 0x10000000 ? 4 : 5;
  }
  // zig-zag = 2m + sign < 128 exactly when m < 64; each further byte holds 7 more bits of m.
  let remaining = Math.floor((value >= 0 ? value : -value - 1) / 64);
  let size = 1;
  while (remaining > 0) {
    remaining = Math.floor(remaining / 128);
    size++;
  }
  return size;
}

/** Writes `value` at `position`; returns the position after it. */
export function writeVarint(buffer: Buffer, position: number, value: number): number {
  if (value < FAST_PATH_LIMIT && value >= -FAST_PATH_LIMIT) {
    let zigzag = (value << 1) ^ (value >> 31);
    while (zigzag >= 0x80) {
      buffer[position++] = (zigzag & 0x7f) | 0x80;
      zigzag >>>= 7;
    }
    buffer[position++] = zigzag;
    return position;
  }
  const magnitude = value >= 0 ? value : -value - 1;
  // First byte: sign bit plus the low 6 bits of the magnitude.
  let byte = (magnitude % 64) * 2 + (value >= 0 ? 0 : 1);
  let remaining = Math.floor(magnitude / 64);
  while (remaining > 0) {
    buffer[position++] = byte | 0x80;
    byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
  }
  buffer[position++] = byte;
  return position;
}

export class VarintReader {
  constructor(
    readonly buffer: Buffer,
    public position: number,
    private end: number,
  ) {}

  /** Reads on from `position`, up to `end` (a cursor over one record after another). */
  moveTo(position: number, end: number): void {
    this.position = position;
    this.end = end;
  }

  readVarint(): number {
    // Accumulates the magnitude (zig-zag >> 1) so that no intermediate is an odd number above 2^53.
    let sign = 0;
    let magnitude = 0;
    let multiplier = 1 / 2;
    for (let i = 0; i < VARINT_MAX_BYTES; i++) {
      if (this.position >= this.end) throw new RangeError('varint runs past the end of the record');
      const byte = this.buffer[this.position++];
      if (i === 0) {
        sign = byte & 1;
        magnitude = (byte & 0x7e) >>> 1;
      } else {
        magnitude += (byte & 0x7f) * multiplier;
      }
      if ((byte & 0x80) === 0) return sign === 0 ? magnitude : -magnitude - 1;
      multiplier *= 128;
    }
    throw new RangeError('varint longer than 10 bytes');
  }

  readInt8(): number {
    if (this.position >= this.end) throw new RangeError('record ends early');
    return this.buffer.readInt8(this.position++);
  }

  /** Reads a varint length then steps over that many bytes, making no view of them; returns the length (-1: null). */
  skipBytes(): number {
    const length = this.readVarint();
    if (length === -1) return -1;
    if (length < 0 || this.position + length > this.end) throw new RangeError(`bad length ${length} in record`);
    this.position += length;
    return length;
  }

  /** Reads a varint length then that many bytes; -1 means null. The slice shares memory with the buffer. */
  readBytes(): Buffer | null {
    const length = this.readVarint();
    if (length === -1) return null;
    if (length < 0 || this.position + length > this.end) throw new RangeError(`bad length ${length} in record`);
    const slice = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return slice;
  }
}
