// The produce frame scanner of GET /v3/ws: reads a `produce` text frame (ws-protocol.ts has the frame) from the
// bytes the socket received, with no text of the whole message, no JSON.parse of it and no object or Buffer per
// record: each record's key and value are copied from the frame straight into the records section of the batch
// being built (LaidOutRecords, which ProduceService.produceScanned appends as it is).
//
// What it reads (anything else is not refused here: it answers null and the frame goes through routeFrame as
// before, which also answers every refusal, so that a frame gives the same result and the same error either way):
//   - a frame that is valid UTF-8 as a whole, one JSON object, no member name with an escape, no member twice;
//   - members op ("produce"), id, topic, records, acks, format (absent, null or "string"), and any other member
//     but the producer fields and idempotency_key (their frames go the full way), skipped by a validating skip;
//   - records: 1 to BROOK_PRODUCE_BATCH_ENTRIES_MAX objects with key and value strings or null, partition null or
//     a plain integer of at most 15 digits, headers null or [], other members skipped. A key or value with an escape
//     is decoded by JSON.parse of its own text (so escapes and lone surrogates come out as the full path has them).
// The JSON syntax itself is checked by json-text.ts's skips (RFC 8259), the same the v2 schema body scanner uses.
import { isUtf8 } from 'node:buffer';
import {
  grownData,
  LaidOutRecords,
  POSITION_MAX,
  RECORD_FRAMING_BYTES_MAX,
  withCapacity,
} from '../application/produce/laid-out-records.js';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isDigit,
  LOWER_N,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipJsonNumber,
  skipJsonString,
  skipJsonValue,
  skipWhitespace,
  type SkipNotes,
} from '../application/schemas/json-text.js';
import { BATCH_HEADER_BYTES, spanRecordBodySize } from '../partition-log/record-batch.js';
import { writeVarint } from '../partition-log/varint.js';
import {
  acksOf,
  isFrameId,
  routeFrame,
  type FrameId,
  type RoutedMessage,
  type RouterLimits,
  type ScannedProduceFrame,
} from './ws-protocol.js';

/** The members of a produce frame the scanner knows, one bit each; IGNORED is any other member. */
const OP = 1;
const ID = 2;
const TOPIC = 4;
const RECORDS = 8;
const ACKS = 16;
const FORMAT = 32;
/** Members whose frames the scanner leaves to the full path. */
const NOT_COVERED = -1;
const IGNORED = 0;
const REQUIRED = OP | ID | TOPIC | RECORDS;

const KEY = 1;
const VALUE = 2;
const PARTITION = 4;
const HEADERS = 8;

function names(list: ReadonlyArray<[string, number]>): ReadonlyArray<[Buffer, number]> {
  return list.map(([name, member]) => [Buffer.from(name, 'latin1'), member]);
}

const FRAME_MEMBERS = names([
  ['"op"', OP],
  ['"id"', ID],
  ['"topic"', TOPIC],
  ['"records"', RECORDS],
  ['"acks"', ACKS],
  ['"format"', FORMAT],
  ['"producer_id"', NOT_COVERED],
  ['"producer_epoch"', NOT_COVERED],
  ['"sequence"', NOT_COVERED],
  ['"idempotency_key"', NOT_COVERED],
]);
const RECORD_MEMBERS = names([
  ['"value"', VALUE],
  ['"key"', KEY],
  ['"partition"', PARTITION],
  ['"headers"', HEADERS],
]);

const NULL = Buffer.from('null', 'latin1');

/** Nesting depth of an ignored member's value the skip follows; a deeper one goes the full way. */
const IGNORED_DEPTH_MAX = 64;
/** Largest partition number read here (15 digits are always a safe integer). */
const PARTITION_DIGITS_MAX = 15;
/** Records the columns have room for at first (doubled as needed, up to the frame's bound). */
const COLUMNS_INITIAL = 128;

/**
 * Routes one WebSocket message (the adapter's message parser): a text frame the scanner reads, or else the frame
 * as routeFrame routes it (a text frame as its text, a binary one refused).
 */
export function routeMessage(data: Buffer, isBinary: boolean, limits: RouterLimits, nowMs: number): RoutedMessage {
  if (isBinary) return routeFrame(data, limits, nowMs);
  const scanned = scanProduceFrame(data, limits, nowMs);
  if (scanned !== null) return { event: 'produce', data: scanned };
  return routeFrame(data.toString('utf8'), limits, nowMs);
}

/** The member `members` names text[from, to) (a name with its quotes), or IGNORED. */
function memberOf(text: Buffer, from: number, to: number, members: ReadonlyArray<[Buffer, number]>): number {
  // indexed, not `for (const [name, member] of members)`: that destructuring made an iterator and its results for
  // every member of every record (W5: about a tenth of the broker's young-generation allocation a produce frame)
  for (let m = 0; m < members.length; m++) {
    const name = members[m][0];
    if (to - from !== name.length) continue;
    let i = 0;
    while (i < name.length && text[from + i] === name[i]) i++;
    if (i === name.length) return members[m][1];
  }
  return IGNORED;
}

/** Where the member name at `at` ends (past its quote), or -1 when there is none or it has an escape. */
function memberNameEnd(text: Buffer, at: number, notes: SkipNotes): number {
  if (text[at] !== QUOTE) return -1;
  notes.escaped = false;
  const end = skipJsonString(text, at, notes);
  return notes.escaped ? -1 : end;
}

/** Where the colon after a member name and the whitespace after it end, or -1. */
function afterColon(text: Buffer, at: number): number {
  at = skipWhitespace(text, at);
  return text[at] === COLON ? skipWhitespace(text, at + 1) : -1;
}

function isNullAt(text: Buffer, at: number): boolean {
  for (let i = 0; i < NULL.length; i++) if (text[at + i] !== NULL[i]) return false;
  return true;
}

/** The value of the small JSON text[from, to) (an id, topic, acks or format). */
function smallValue(text: Buffer, from: number, to: number): unknown {
  return JSON.parse(text.toString('utf8', from, to));
}

/** The produce frame `frame` is, when it has the shape read here; null sends it the full way. */
export function scanProduceFrame(frame: Buffer, limits: RouterLimits, nowMs: number): ScannedProduceFrame | null {
  if (!isUtf8(frame)) return null;
  const notes: SkipNotes = { escaped: false };
  let id: FrameId | null = null;
  let topic: string | null = null;
  let acks = acksOf(undefined);
  let laidOut: LaidOutRecords | null = null;
  let seen = 0;
  let at = skipWhitespace(frame, 0);
  if (frame[at] !== OPEN_BRACE) return null;
  at = skipWhitespace(frame, at + 1);
  for (;;) {
    const nameEnd = memberNameEnd(frame, at, notes);
    if (nameEnd < 0) return null;
    const member = memberOf(frame, at, nameEnd, FRAME_MEMBERS);
    if (member === NOT_COVERED || (seen & member) !== 0) return null;
    seen |= member;
    at = afterColon(frame, nameEnd);
    if (at < 0) return null;
    if (member === RECORDS) {
      const cursor = { at };
      laidOut = scanRecords(frame, cursor, limits, notes);
      if (laidOut === null) return null;
      at = cursor.at;
    } else {
      const end = skipJsonValue(frame, at, 1, IGNORED_DEPTH_MAX, notes);
      if (end < 0) return null;
      if (member !== IGNORED) {
        const value = smallValue(frame, at, end);
        if (member === OP && value !== 'produce') return null;
        if (member === ID) {
          if (!isFrameId(value)) return null;
          id = value;
        }
        if (member === TOPIC) {
          if (typeof value !== 'string' || value.length === 0) return null;
          topic = value;
        }
        if (member === ACKS) acks = acksOf(value);
        if (member === FORMAT && value !== null && value !== 'string') return null;
      }
      at = end;
    }
    at = skipWhitespace(frame, at);
    if (frame[at] === COMMA) {
      at = skipWhitespace(frame, at + 1);
      continue;
    }
    if (frame[at] !== CLOSE_BRACE) return null;
    break;
  }
  if (skipWhitespace(frame, at + 1) !== frame.length) return null;
  if ((seen & REQUIRED) !== REQUIRED || id === null || topic === null || acks === null || laidOut === null) return null;
  return { op: 'produce', id, topic, laidOut, timestampMs: nowMs, acks, producer: null, idempotency: null };
}

/** A string's text in frame[from, to) (between its quotes) and whether it has an escape; from -1: null. */
interface TextSpan {
  from: number;
  to: number;
  escaped: boolean;
}

/** The UTF-8 bytes of a string with an escape: its text decoded as JSON.parse decodes it (lone surrogates too). */
function unescaped(frame: Buffer, span: TextSpan): string {
  return JSON.parse(frame.toString('utf8', span.from - 1, span.to + 1)) as string;
}

/**
 * Reads the records array at cursor.at into one batch's records section, moving the cursor past it; null when a
 * record is not of the shape read here or the array breaks the frame's bound.
 */
function scanRecords(
  frame: Buffer,
  cursor: { at: number },
  limits: RouterLimits,
  notes: SkipNotes,
): LaidOutRecords | null {
  let at = cursor.at;
  if (frame[at] !== OPEN_BRACKET) return null;
  at = skipWhitespace(frame, at + 1);
  if (frame[at] === CLOSE_BRACKET) return null;
  // unescaped keys and values take their length in the frame: the frame's length leaves room for all but the
  // framing of records of a few bytes each (grown when short)
  let data = Buffer.allocUnsafe(BATCH_HEADER_BYTES + frame.length);
  let written = BATCH_HEADER_BYTES;
  let capacity = Math.min(COLUMNS_INITIAL, limits.produceRecordsMax);
  let keyAt = new Int32Array(capacity);
  let keyLength = new Int32Array(capacity);
  let valueAt = new Int32Array(capacity);
  let valueLength = new Int32Array(capacity);
  let partitions: Array<number | null> | null = null;
  let keyed = false;
  let count = 0;
  const key: TextSpan = { from: -1, to: -1, escaped: false };
  const value: TextSpan = { from: -1, to: -1, escaped: false };
  for (;;) {
    if (count === limits.produceRecordsMax) return null;
    if (count === capacity) {
      capacity = Math.min(2 * capacity, limits.produceRecordsMax);
      keyAt = withCapacity(keyAt, capacity);
      keyLength = withCapacity(keyLength, capacity);
      valueAt = withCapacity(valueAt, capacity);
      valueLength = withCapacity(valueLength, capacity);
    }
    if (frame[at] !== OPEN_BRACE) return null;
    at = skipWhitespace(frame, at + 1);
    key.from = -1;
    value.from = -1;
    let partition: number | null = null;
    let seen = 0;
    if (frame[at] === CLOSE_BRACE) {
      at++;
    } else {
      for (;;) {
        const nameEnd = memberNameEnd(frame, at, notes);
        if (nameEnd < 0) return null;
        const member = memberOf(frame, at, nameEnd, RECORD_MEMBERS);
        if ((seen & member) !== 0) return null;
        seen |= member;
        at = afterColon(frame, nameEnd);
        if (at < 0) return null;
        if (member === IGNORED) {
          at = skipJsonValue(frame, at, 3, IGNORED_DEPTH_MAX, notes);
          if (at < 0) return null;
        } else if (frame[at] === LOWER_N) {
          if (!isNullAt(frame, at)) return null;
          at += NULL.length;
        } else if (member === KEY || member === VALUE) {
          if (frame[at] !== QUOTE) return null;
          notes.escaped = false;
          const end = skipJsonString(frame, at, notes);
          if (end < 0) return null;
          const span = member === KEY ? key : value;
          span.from = at + 1;
          span.to = end - 1;
          span.escaped = notes.escaped;
          at = end;
        } else if (member === PARTITION) {
          const end = skipJsonNumber(frame, at);
          if (end < 0 || end - at > PARTITION_DIGITS_MAX) return null;
          let number = 0;
          for (let i = at; i < end; i++) {
            if (!isDigit(frame[i])) return null; // a sign, fraction or exponent: the full path decides
            number = number * 10 + (frame[i] - 0x30);
          }
          partition = number;
          at = end;
        } else {
          // headers: [] only
          if (frame[at] !== OPEN_BRACKET) return null;
          at = skipWhitespace(frame, at + 1);
          if (frame[at] !== CLOSE_BRACKET) return null;
          at++;
        }
        at = skipWhitespace(frame, at);
        if (frame[at] === COMMA) {
          at = skipWhitespace(frame, at + 1);
          continue;
        }
        if (frame[at] !== CLOSE_BRACE) return null;
        at++;
        break;
      }
    }
    // The record, framed as encodeBatch frames it at offset delta `count`.
    const keyText = key.from >= 0 && key.escaped ? unescaped(frame, key) : null;
    const valueText = value.from >= 0 && value.escaped ? unescaped(frame, value) : null;
    const keyBytes = key.from < 0 ? -1 : keyText !== null ? Buffer.byteLength(keyText) : key.to - key.from;
    const valueBytes = value.from < 0 ? -1 : valueText !== null ? Buffer.byteLength(valueText) : value.to - value.from;
    const recordBytes = spanRecordBodySize(count, keyBytes, valueBytes);
    const needed = written + recordBytes + RECORD_FRAMING_BYTES_MAX;
    if (needed > POSITION_MAX) return null;
    if (needed > data.length) data = grownData(data, written, needed);
    written = writeVarint(data, written, recordBytes);
    data[written++] = 0; // attributes
    data[written++] = 0; // timestamp delta
    written = writeVarint(data, written, count);
    written = writeVarint(data, written, keyBytes);
    keyAt[count] = keyBytes < 0 ? -1 : written;
    keyLength[count] = keyBytes;
    if (keyBytes >= 0) {
      keyed = true;
      written = keyText !== null ? written + data.write(keyText, written, 'utf8') : copySpan(frame, key, data, written);
    }
    written = writeVarint(data, written, valueBytes);
    valueAt[count] = valueBytes < 0 ? -1 : written;
    valueLength[count] = valueBytes;
    if (valueBytes >= 0) {
      written =
        valueText !== null ? written + data.write(valueText, written, 'utf8') : copySpan(frame, value, data, written);
    }
    data[written++] = 0; // header count
    if (partition !== null && partitions === null) partitions = new Array<number | null>(count).fill(null);
    if (partitions !== null) partitions.push(partition);
    count++;
    at = skipWhitespace(frame, at);
    if (frame[at] === COMMA) {
      at = skipWhitespace(frame, at + 1);
      continue;
    }
    if (frame[at] !== CLOSE_BRACKET) return null;
    break;
  }
  cursor.at = at + 1;
  return new LaidOutRecords(count, data, written, keyAt, keyLength, valueAt, valueLength, partitions, keyed);
}

function copySpan(frame: Buffer, span: TextSpan, data: Buffer, at: number): number {
  return at + frame.copy(data, at, span.from, span.to);
}
