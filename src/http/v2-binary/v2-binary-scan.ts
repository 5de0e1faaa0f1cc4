// The byte-level reading of the v2 binary produce scanner (v2-binary-body.ts has what it accepts and why it means
// what the full path means): one pass over the body that frames every record as encodeBatch would, notes each
// key's and value's base64 text with the place of its decoded bytes, and decodes them all in one call at the end.
// The helpers the loop calls per record stay beside it, small enough to inline.

import { BATCH_HEADER_BYTES, spanRecordBodySize } from '../../partition-log/record-batch.js';
import { writeVarint } from '../../partition-log/varint.js';
import { base64DecodedLength, decodeSpans } from './base64-spans.js';
import {
  type FramePlainRecords,
  PLAIN_AFTER_RECORD,
  PLAIN_COLUMNS_FULL,
  PLAIN_DATA_FULL,
  PLAIN_STATE_AT,
  PLAIN_STATE_COUNT,
  PLAIN_STATE_FIELDS,
  PLAIN_STATE_NEEDED,
  PLAIN_STATE_WRITTEN,
} from './v2-plain-records.js';
import {
  grownData,
  LaidOutRecords,
  POSITION_MAX,
  RECORD_FRAMING_BYTES_MAX,
  withCapacity,
} from '../../application/produce/laid-out-records.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_N = 0x6e;

/** 1 for JSON's insignificant whitespace: space, tab, line feed, carriage return. */
const WHITESPACE = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[byte] = 1;

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

/** True when body[at, ...) starts as a record of the plain shape does: {"value":" */
function startsPlainValueRecord(body: Buffer, source: DataView, at: number): boolean {
  return (
    at + PLAIN_VALUE.length <= body.length &&
    source.getUint32(at, true) === PLAIN_VALUE_0 &&
    source.getUint32(at + 4, true) === PLAIN_VALUE_4 &&
    source.getUint16(at + 8, true) === PLAIN_VALUE_8
  );
}

/**
 * True when body[at, ...) is a record of the plain shape with a value text of exactly `chars` characters:
 * {"value":" then `chars` bytes, then "}. The bytes between are not looked at here; decodeSpans checks them all
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

/** Records read here before the native loop is offered one again, after it took none (see scan). */
const PLAIN_BACKOFF_RECORDS = 16;

/** Records the columns have room for at first (doubled as needed). */
const COLUMNS_INITIAL = 1024;
/** Records read by the scanner itself (not the native loop) whose base64 texts `spans` has room for at first. */
const SPANS_INITIAL_RECORDS = 64;

/** A record's base64 texts: its key and its value. */
const SPANS_PER_RECORD_MAX = 2;

/** Notes the base64 text body[from, to) to be decoded into data at `into`; returns the new span count. */
function addSpan(spans: Int32Array, count: number, from: number, to: number, into: number): number {
  spans[3 * count] = from;
  spans[3 * count + 1] = to;
  spans[3 * count + 2] = into;
  return count + 1;
}

/** Thrown inside the scanner for anything it does not take; never leaves the scanner (v2-binary-body.ts). */
export const NOT_UNDERSTOOD = new Error('not understood by the v2 binary scanner');

/** The decoded length of the base64 text body[from, to), when it is valid base64 (decodeSpans checks that). */
function decodedLength(body: Buffer, from: number, to: number): number {
  const length = base64DecodedLength(body, from, to);
  if (length < 0) throw NOT_UNDERSTOOD;
  return length;
}

/** Whether the scan may guess records of the plain shape, and whether it did. */
export interface Guessing {
  guessed: boolean;
}

/** Scans the body, or throws NOT_UNDERSTOOD; v2-binary-body.ts decides when to guess. */
export function scan(body: Buffer, guessing: Guessing | null, framePlain: FramePlainRecords | null): LaidOutRecords {
  // Decoded bytes are at most 3/4 of the body's length, leaving a quarter for the records' framing (grown when
  // short: records of a few bytes each).
  let data = Buffer.allocUnsafe(BATCH_HEADER_BYTES + body.length);
  const source = new DataView(body.buffer, body.byteOffset, body.length);
  let written = BATCH_HEADER_BYTES;
  let capacity = COLUMNS_INITIAL;
  let keyAt = new Int32Array(capacity);
  let keyLength = new Int32Array(capacity);
  let valueAt = new Int32Array(capacity);
  let valueLength = new Int32Array(capacity);
  // The base64 texts to decode, as decodeSpans takes them: from, to, into (keys and values, non-empty ones)
  // (only records read here have spans: small at first, as runs of plain records may be framed natively)
  let spans = new Int32Array(3 * SPANS_PER_RECORD_MAX * SPANS_INITIAL_RECORDS);
  let spanCount = 0;
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
  // byte for byte); anything else is read the general way. After a guess that proves wrong the whole body is framed
  // again without guesses (scanV2BinaryBody).
  let plainChars = -1;
  const plainState = new Int32Array(PLAIN_STATE_FIELDS);
  // Records left to read here before the native loop is tried again: after it took none of a record that starts as
  // a plain one does ({"value":"..","key":..} and the like), the next few are read here, not offered to it first.
  let plainBackoff = 0;
  for (;;) {
    // room in the columns for this record, whoever frames it
    if (count === capacity) {
      capacity *= 2;
      keyAt = withCapacity(keyAt, capacity);
      keyLength = withCapacity(keyLength, capacity);
      valueAt = withCapacity(valueAt, capacity);
      valueLength = withCapacity(valueLength, capacity);
    }
    // Runs of plain records are framed natively, up to a record it leaves to the reading below (at its start), or
    // up to the separator after a record (read at the end of this loop).
    record: {
      if (framePlain !== null && plainBackoff-- <= 0 && startsPlainValueRecord(body, source, at)) {
        const countBefore = count;
        plainState[PLAIN_STATE_AT] = at;
        plainState[PLAIN_STATE_WRITTEN] = written;
        plainState[PLAIN_STATE_COUNT] = count;
        const status = framePlain(body, data, keyAt, keyLength, valueAt, valueLength, plainState);
        at = plainState[PLAIN_STATE_AT];
        written = plainState[PLAIN_STATE_WRITTEN];
        if (partitions !== null) for (let i = count; i < plainState[PLAIN_STATE_COUNT]; i++) partitions.push(null);
        count = plainState[PLAIN_STATE_COUNT];
        plainChars = -1;
        if (status === PLAIN_DATA_FULL) {
          data = grownData(data, written, written + plainState[PLAIN_STATE_NEEDED] + RECORD_FRAMING_BYTES_MAX);
          continue;
        }
        if (status === PLAIN_COLUMNS_FULL) continue; // grown at the top
        if (status === PLAIN_AFTER_RECORD) break record; // its separator is read below
        // PLAIN_OTHER: the record at `at` is read below
        if (count === countBefore) plainBackoff = PLAIN_BACKOFF_RECORDS;
      }
      // The base64 text of the key and value: body[from, to), from -1 for null
      let keyFrom = -1;
      let keyTo = -1;
      let valueFrom = -1;
      let valueTo = -1;
      let partition: number | null = null;
      const plain = guessing !== null && plainChars >= 0 && isPlainValueRecord(body, source, at, plainChars);
      if (plain) {
        guessing.guessed = true;
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
      // positions are kept in Int32Arrays: a batch past 2 GiB is left to the full path
      if (written + recordBytes + RECORD_FRAMING_BYTES_MAX > POSITION_MAX) throw NOT_UNDERSTOOD;
      if (written + recordBytes + RECORD_FRAMING_BYTES_MAX > data.length) {
        data = grownData(data, written, written + recordBytes + RECORD_FRAMING_BYTES_MAX);
      }
      written = writeShortVarint(data, written, recordBytes);
      data[written++] = 0; // attributes
      data[written++] = 0; // timestamp delta
      written = writeShortVarint(data, written, count);
      written = writeShortVarint(data, written, keyBytes);
      if (3 * (spanCount + SPANS_PER_RECORD_MAX) > spans.length) spans = withCapacity(spans, 2 * spans.length);
      keyAt[count] = keyBytes < 0 ? -1 : written;
      keyLength[count] = keyBytes;
      if (keyBytes >= 0) {
        keyed = true;
        if (keyBytes > 0) spanCount = addSpan(spans, spanCount, keyFrom, keyTo, written);
        written += keyBytes;
      }
      written = writeShortVarint(data, written, valueBytes);
      valueAt[count] = valueBytes < 0 ? -1 : written;
      valueLength[count] = valueBytes;
      if (valueBytes > 0) spanCount = addSpan(spans, spanCount, valueFrom, valueTo, written);
      if (valueBytes >= 0) written += valueBytes;
      plainChars = valueBytes < 0 ? -1 : valueTo - valueFrom;
      data[written++] = 0; // header count
      if (partition !== null) {
        if (partitions === null) partitions = new Array<number | null>(count).fill(null);
        partitions.push(partition);
      } else if (partitions !== null) {
        partitions.push(null);
      }
      count++;
    }
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
  if (!decodeSpans(body, data, spans, spanCount)) throw NOT_UNDERSTOOD;
  return new LaidOutRecords(count, data, written, keyAt, keyLength, valueAt, valueLength, partitions, keyed);
}
