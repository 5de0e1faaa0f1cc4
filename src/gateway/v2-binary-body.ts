// The fast path of REST Proxy v2 binary produce (POST /topics/{t}[/partitions/{p}]): a byte-level scanner over the
// raw request body for the shape clients send, {"records":[{"value":"<base64>"},{"key":..,"partition":..,..}]},
// that validates the JSON and the base64 and decodes keys and values straight into a record batch laid out for the
// common case (every record of the request in one batch, in request order: a partition route, or keyless records
// on the sticky partition), with no JSON tree, no UTF-8 decode of the body and no per-record strings or Buffers.
// When the request's records do go to one batch, that buffer only needs its header and CRC (frameSpansBatch);
// otherwise each partition's batch is encoded from the keys' and values' spans in it (encodeSpansBatch).
//
// The scanner accepts a strict subset of what the full path (parseJson, then the v2 controller's checks) accepts
// and means the same by it: anything it does not fully understand (escapes in strings, other members, duplicate
// members, numbers that are not plain integers, invalid base64, bytes outside ASCII, an empty records array, any
// JSON error) returns null, and the caller takes the full path, which gives the same records or the same error as
// before. v2-binary-body.property.spec.ts checks this on generated bodies.
//
// Most records are read by a guess: the plain shape {"value":"<base64>"} with a value as long as the previous
// record's, its fixed bytes compared in three reads; the decode then checks every byte of the value (no quote among
// them, so the guessed closing quote is the first). A guess that does not hold reads the record the general way.

import { BATCH_HEADER_BYTES, spanRecordBodySize } from '../partition-log/record-batch.js';
import { writeVarint } from '../partition-log/varint.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const EQUALS = 0x3d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_N = 0x6e;

/** 1 for JSON's insignificant whitespace: space, tab, line feed, carriage return. */
const WHITESPACE = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[byte] = 1;

/** The 6-bit value of each character of the standard base64 alphabet, -1 for every other byte. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTET = new Int32Array(256).fill(-1);
[...ALPHABET].forEach((char, i) => {
  SEXTET[char.charCodeAt(0)] = i;
});
/**
 * The 12 bits of each pair of alphabet characters as a little-endian 16-bit read sees them (second byte << 8 | first
 * byte), -1 for every other pair; PAIR_HIGH holds the same bits shifted left by 12 (the first pair of a group).
 */
const PAIR = new Int16Array(65536).fill(-1);
const PAIR_HIGH = new Int32Array(65536).fill(-1);
for (let x = 0; x < 64; x++) {
  for (let y = 0; y < 64; y++) {
    const pair = (ALPHABET.charCodeAt(y) << 8) | ALPHABET.charCodeAt(x);
    PAIR[pair] = (x << 6) | y;
    PAIR_HIGH[pair] = ((x << 6) | y) << 12;
  }
}

const RECORDS = Buffer.from('"records"', 'latin1');
const KEY = Buffer.from('"key"', 'latin1');
const VALUE = Buffer.from('"value"', 'latin1');
const PARTITION = Buffer.from('"partition"', 'latin1');
const NULL = Buffer.from('null', 'latin1');

/**
 * The start of a record of the plain shape {"value":"<base64>"} as little-endian reads see it: 32 bits at 0 and 4,
 * 16 bits at 8 (10 bytes; the value's text starts right after).
 */
const PLAIN_VALUE = Buffer.from('{"value":"', 'latin1');
const PLAIN_VALUE_0 = PLAIN_VALUE.readUInt32LE(0);
const PLAIN_VALUE_4 = PLAIN_VALUE.readUInt32LE(4);
const PLAIN_VALUE_8 = PLAIN_VALUE.readUInt16LE(8);

/** Largest partition number the scanner reads itself (15 digits are always a safe integer). */
const PARTITION_DIGITS_MAX = 15;
/** The most bytes of a record's framing besides its key and value bytes (length, attributes, deltas, ...). */
const RECORD_FRAMING_BYTES_MAX = 5 + 1 + 1 + 5 + 5 + 5 + 1;

/**
 * The records of a v2 binary produce body the scanner understood. `data` holds them as the records section of one
 * batch (every record, in order, with offset delta = its index and timestamp delta 0) in [BATCH_HEADER_BYTES,
 * `end`), the header's place left free before it; record i's key is data[keyAt[i], keyAt[i] + keyLength[i]) or
 * null when keyLength[i] is -1, its value likewise. `partitions[i]` is the record's own partition field (null when
 * absent or null); `partitions` itself is null when no record names one. `keyed` is false when no record has a key.
 */
export class ScannedV2Records {
  constructor(
    readonly count: number,
    readonly data: Buffer,
    readonly end: number,
    readonly keyAt: Int32Array,
    readonly keyLength: Int32Array,
    readonly valueAt: Int32Array,
    readonly valueLength: Int32Array,
    readonly partitions: Array<number | null> | null,
    readonly keyed: boolean,
  ) {}

  key(i: number): Buffer | null {
    const length = this.keyLength[i];
    return length < 0 ? null : this.data.subarray(this.keyAt[i], this.keyAt[i] + length);
  }

  value(i: number): Buffer | null {
    const length = this.valueLength[i];
    return length < 0 ? null : this.data.subarray(this.valueAt[i], this.valueAt[i] + length);
  }
}

function skipWhitespace(body: Buffer, at: number): number {
  while (at < body.length && WHITESPACE[body[at]] === 1) at++;
  return at;
}

function startsWith(body: Buffer, at: number, token: Buffer): boolean {
  if (at + token.length > body.length) return false;
  for (let i = 0; i < token.length; i++) if (body[at + i] !== token[i]) return false;
  return true;
}

/**
 * writeVarint, with the one- and two-byte cases (|value| below 8192) small enough for the scan loop to inline, which
 * it does not do for writeVarint itself.
 */
function writeShortVarint(data: Buffer, at: number, value: number): number {
  if (value >= -64 && value < 64) {
    data[at] = (value << 1) ^ (value >> 31);
    return at + 1;
  }
  if (value >= -8192 && value < 8192) {
    const zigzag = (value << 1) ^ (value >> 31);
    data[at] = (zigzag & 0x7f) | 0x80;
    data[at + 1] = zigzag >>> 7;
    return at + 2;
  }
  return writeVarint(data, at, value);
}

/**
 * True when body[at, ...) is a record of the plain shape with a value text of exactly `chars` characters:
 * {"value":" then `chars` bytes, then "}. The bytes between are not looked at here; decodeInto checks them all
 * (a quote among them makes it fail, so when it succeeds the value's closing quote is the first one).
 */
function isPlainValueRecord(body: Buffer, source: DataView, at: number, chars: number): boolean {
  const close = at + PLAIN_VALUE.length + chars;
  return (
    close + 2 <= body.length &&
    source.getUint32(at, true) === PLAIN_VALUE_0 &&
    source.getUint32(at + 4, true) === PLAIN_VALUE_4 &&
    source.getUint16(at + 8, true) === PLAIN_VALUE_8 &&
    body[close] === QUOTE &&
    body[close + 1] === CLOSE_BRACE
  );
}

/** Records the span columns have room for at first (doubled as needed). */
const SPANS_INITIAL = 1024;

function withCapacity(column: Int32Array<ArrayBuffer>, capacity: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(capacity);
  copy.set(column);
  return copy;
}

/** Thrown inside the scanner for anything it does not take; never leaves this module. */
const NOT_UNDERSTOOD = new Error('not understood by the v2 binary scanner');

/** The decoded length of the base64 text body[from, to), when it is valid base64 (decodeInto checks that). */
function decodedLength(body: Buffer, from: number, to: number): number {
  const length = to - from;
  if (length % 4 !== 0) throw NOT_UNDERSTOOD;
  let padding = 0;
  if (length > 0 && body[to - 1] === EQUALS) padding++;
  if (length > 1 && body[to - 2] === EQUALS) padding++;
  return (length / 4) * 3 - padding;
}

/**
 * Decodes the base64 text body[from, to) into `data` at `into`, checking it exactly as isBase64 does (whole groups
 * of 4 alphabet characters, the last of which may end in '=' or '=='; so no escapes, and no quote). Returns the
 * position after the bytes written, decodedLength(body, from, to) of them, or -1 when the text is not base64.
 * `source` and `target` are DataViews of `body` and `data`: every group but the last is read as one 32-bit word and
 * looked up as two character pairs, four groups (12 bytes, three 32-bit writes) at a time while they last.
 */
function decodeInto(
  body: Buffer,
  source: DataView,
  from: number,
  to: number,
  data: Buffer,
  target: DataView,
  into: number,
): number {
  let out = into;
  const lastGroup = to - 4;
  let i = from;
  for (; i + 16 <= lastGroup; i += 16) {
    const w0 = source.getUint32(i, true);
    const w1 = source.getUint32(i + 4, true);
    const w2 = source.getUint32(i + 8, true);
    const w3 = source.getUint32(i + 12, true);
    const a = PAIR_HIGH[w0 & 0xffff] | PAIR[w0 >>> 16];
    const b = PAIR_HIGH[w1 & 0xffff] | PAIR[w1 >>> 16];
    const c = PAIR_HIGH[w2 & 0xffff] | PAIR[w2 >>> 16];
    const d = PAIR_HIGH[w3 & 0xffff] | PAIR[w3 >>> 16];
    // some pair was -1: not in the alphabet (an escape, '=', non-ASCII, ...)
    if ((a | b | c | d) < 0) return -1;
    target.setUint32(out, (a << 8) | (b >>> 16));
    target.setUint32(out + 4, (b << 16) | (c >>> 8));
    target.setUint32(out + 8, (c << 24) | d);
    out += 12;
  }
  for (; i < lastGroup; i += 4) {
    const word = source.getUint32(i, true);
    const bits = PAIR_HIGH[word & 0xffff] | PAIR[word >>> 16];
    if (bits < 0) return -1;
    data[out++] = bits >>> 16;
    data[out++] = (bits >>> 8) & 0xff;
    data[out++] = bits & 0xff;
  }
  if (to > from) {
    const a = SEXTET[body[i]];
    const b = SEXTET[body[i + 1]];
    const c3 = body[i + 2];
    const d4 = body[i + 3];
    if ((a | b) < 0) return -1;
    if (d4 === EQUALS) {
      if (c3 === EQUALS) {
        data[out++] = (a << 2) | (b >>> 4);
      } else {
        const c = SEXTET[c3];
        if (c < 0) return -1;
        const bits = (a << 18) | (b << 12) | (c << 6);
        data[out++] = bits >>> 16;
        data[out++] = (bits >>> 8) & 0xff;
      }
    } else {
      const c = SEXTET[c3];
      const d = SEXTET[d4];
      if ((c | d) < 0) return -1;
      const bits = (a << 18) | (b << 12) | (c << 6) | d;
      data[out++] = bits >>> 16;
      data[out++] = (bits >>> 8) & 0xff;
      data[out++] = bits & 0xff;
    }
  }
  return out;
}

/**
 * Scans a v2 binary produce body. Returns its records, or null when the body is anything but the plain shape (the
 * caller then parses it the full way, which answers errors exactly as before).
 */
export function scanV2BinaryBody(body: Buffer): ScannedV2Records | null {
  try {
    return scan(body);
  } catch (error) {
    if (error === NOT_UNDERSTOOD) return null;
    throw error;
  }
}

function scan(body: Buffer): ScannedV2Records {
  // Decoded bytes are at most 3/4 of the body's length, leaving a quarter for the records' framing (grown when
  // short: records of a few bytes each).
  let data = Buffer.allocUnsafe(BATCH_HEADER_BYTES + body.length);
  let target = new DataView(data.buffer, data.byteOffset, data.length);
  const source = new DataView(body.buffer, body.byteOffset, body.length);
  let written = BATCH_HEADER_BYTES;
  let capacity = SPANS_INITIAL;
  let keyAt = new Int32Array(capacity);
  let keyLength = new Int32Array(capacity);
  let valueAt = new Int32Array(capacity);
  let valueLength = new Int32Array(capacity);
  let partitions: Array<number | null> | null = null;
  let keyed = false;

  let at = skipWhitespace(body, 0);
  if (body[at] !== OPEN_BRACE) throw NOT_UNDERSTOOD;
  at = skipWhitespace(body, at + 1);
  if (!startsWith(body, at, RECORDS)) throw NOT_UNDERSTOOD;
  at = skipWhitespace(body, at + RECORDS.length);
  if (body[at] !== COLON) throw NOT_UNDERSTOOD;
  at = skipWhitespace(body, at + 1);
  if (body[at] !== OPEN_BRACKET) throw NOT_UNDERSTOOD;
  at = skipWhitespace(body, at + 1);
  if (body[at] === CLOSE_BRACKET) throw NOT_UNDERSTOOD; // empty: the full path answers the error
  let count = 0;
  // The length of the previous record's value text: the guess for the next record's, -1 for none. Clients write
  // records of one shape and often one size, so most records are read as the plain shape of that length (checked
  // byte for byte); anything else, or a guess that proves wrong, is read the general way.
  let plainChars = -1;
  for (;;) {
    const recordAt = at;
    const recordWritten = written;
    // The base64 text of the key and value: body[from, to), from -1 for null
    let keyFrom = -1;
    let keyTo = -1;
    let valueFrom = -1;
    let valueTo = -1;
    let partition: number | null = null;
    const plain = plainChars >= 0 && isPlainValueRecord(body, source, at, plainChars);
    if (plain) {
      valueFrom = at + PLAIN_VALUE.length;
      valueTo = valueFrom + plainChars;
      at = valueTo + 2;
    } else {
      // One record: {} or members "key", "value", "partition", each at most once, in any order.
      if (body[at] !== OPEN_BRACE) throw NOT_UNDERSTOOD;
      at = skipWhitespace(body, at + 1);
    }
    let seen = 0;
    if (!plain && body[at] === CLOSE_BRACE) {
      at++;
    } else if (!plain) {
      for (;;) {
        let member: number;
        if (startsWith(body, at, VALUE)) {
          member = 1;
          at += VALUE.length;
        } else if (startsWith(body, at, KEY)) {
          member = 2;
          at += KEY.length;
        } else if (startsWith(body, at, PARTITION)) {
          member = 4;
          at += PARTITION.length;
        } else {
          throw NOT_UNDERSTOOD;
        }
        if ((seen & member) !== 0) throw NOT_UNDERSTOOD; // a duplicate member: JSON.parse keeps the last
        seen |= member;
        at = skipWhitespace(body, at);
        if (body[at] !== COLON) throw NOT_UNDERSTOOD;
        at = skipWhitespace(body, at + 1);
        const first = body[at];
        if (first === LOWER_N) {
          if (!startsWith(body, at, NULL)) throw NOT_UNDERSTOOD;
          at += NULL.length;
        } else if (member === 4) {
          // A plain JSON integer: -?(0|[1-9][0-9]*), no fraction or exponent; "-0" is left to the full path.
          let i = at;
          const negative = body[i] === MINUS;
          if (negative) i++;
          const digitsFrom = i;
          while (i < body.length && body[i] >= ZERO && body[i] <= NINE) i++;
          const digits = i - digitsFrom;
          if (digits === 0 || digits > PARTITION_DIGITS_MAX) throw NOT_UNDERSTOOD;
          if (body[digitsFrom] === ZERO && (digits > 1 || negative)) throw NOT_UNDERSTOOD;
          let number = 0;
          for (let j = digitsFrom; j < i; j++) number = number * 10 + (body[j] - ZERO);
          partition = negative ? -number : number;
          at = i;
        } else if (first === QUOTE) {
          const from = at + 1;
          const to = body.indexOf(QUOTE, from);
          if (to < 0) throw NOT_UNDERSTOOD;
          if (member === 1) {
            valueFrom = from;
            valueTo = to;
          } else {
            keyFrom = from;
            keyTo = to;
          }
          at = to + 1;
        } else {
          throw NOT_UNDERSTOOD;
        }
        at = skipWhitespace(body, at);
        if (body[at] === COMMA) {
          at = skipWhitespace(body, at + 1);
          continue;
        }
        if (body[at] !== CLOSE_BRACE) throw NOT_UNDERSTOOD;
        at++;
        break;
      }
    }
    // The record, framed as encodeBatch frames it at offset delta `count`, its key and value decoded in place.
    const keyBytes = keyFrom < 0 ? -1 : decodedLength(body, keyFrom, keyTo);
    const valueBytes = valueFrom < 0 ? -1 : decodedLength(body, valueFrom, valueTo);
    const recordBytes = spanRecordBodySize(count, keyBytes, valueBytes);
    if (written + recordBytes + RECORD_FRAMING_BYTES_MAX > data.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * data.length, written + recordBytes + RECORD_FRAMING_BYTES_MAX));
      data.copy(grown, 0, 0, written);
      data = grown;
      target = new DataView(data.buffer, data.byteOffset, data.length);
    }
    written = writeShortVarint(data, written, recordBytes);
    data[written++] = 0; // attributes
    data[written++] = 0; // timestamp delta
    written = writeShortVarint(data, written, count);
    written = writeShortVarint(data, written, keyBytes);
    if (count === capacity) {
      capacity *= 2;
      keyAt = withCapacity(keyAt, capacity);
      keyLength = withCapacity(keyLength, capacity);
      valueAt = withCapacity(valueAt, capacity);
      valueLength = withCapacity(valueLength, capacity);
    }
    keyAt[count] = keyBytes < 0 ? -1 : written;
    keyLength[count] = keyBytes;
    if (keyBytes >= 0) {
      keyed = true;
      written = decodeInto(body, source, keyFrom, keyTo, data, target, written);
      if (written < 0) throw NOT_UNDERSTOOD;
    }
    written = writeShortVarint(data, written, valueBytes);
    valueAt[count] = valueBytes < 0 ? -1 : written;
    valueLength[count] = valueBytes;
    if (valueBytes >= 0) {
      written = decodeInto(body, source, valueFrom, valueTo, data, target, written);
      if (written < 0 && plain) {
        // The guess was wrong (a quote or other byte inside): read this record again the general way.
        at = recordAt;
        written = recordWritten;
        plainChars = -1;
        continue;
      }
      if (written < 0) throw NOT_UNDERSTOOD;
    }
    plainChars = valueBytes < 0 ? -1 : valueTo - valueFrom;
    data[written++] = 0; // header count
    if (partition !== null) {
      if (partitions === null) partitions = new Array<number | null>(count).fill(null);
      partitions.push(partition);
    } else if (partitions !== null) {
      partitions.push(null);
    }
    count++;
    at = skipWhitespace(body, at);
    if (body[at] === COMMA) {
      at = skipWhitespace(body, at + 1);
      continue;
    }
    if (body[at] !== CLOSE_BRACKET) throw NOT_UNDERSTOOD;
    break;
  }
  at = skipWhitespace(body, at + 1);
  if (body[at] !== CLOSE_BRACE) throw NOT_UNDERSTOOD;
  at = skipWhitespace(body, at + 1);
  if (at !== body.length) throw NOT_UNDERSTOOD;
  return new ScannedV2Records(count, data, written, keyAt, keyLength, valueAt, valueLength, partitions, keyed);
}
