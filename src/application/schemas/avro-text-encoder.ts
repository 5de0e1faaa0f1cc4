// Avro binary straight from the JSON text of a value in Avro's JSON encoding (avro-data.ts has the encoding), with no
// JSON.parse and no intermediate value: a schema is compiled once into a tree of nodes, and one walk over the text
// writes the bytes. It is the produce path's fast way for the common shapes of data (records, arrays, maps, unions,
// enums, strings, numbers, booleans, nulls, bytes and fixed as ASCII text) and gives up, answering BAIL, on anything
// else: an escape in a string (the caller does not even try a text with one), a number that is not a plain integer
// where an integer is due, a record's members out of the schema's order, missing, or repeated, a map key that JSON
// objects reorder (an array index) or that repeats, non-ASCII bytes, and all data that does not match. The caller
// then encodes the value the generic way (JSON.parse, avroValueFromJson, avsc), which writes the same bytes for
// everything this encoder takes and refuses what does not match with its own error: so this encoder never refuses
// anything itself, and what it writes is byte for byte what avsc writes for the converted value
// (avro-text-encoder.property.spec.ts compares the two on random schemas and data).
//
// The text given is one valid JSON value (the caller checked its syntax), so literals are told by their first byte.
// The schema's compiled form is avro-text-nodes.ts's.
import type avro from 'avsc';
import { compileType, Kind, type TextNode } from './avro-text-nodes.js';
import { copyRun } from './byte-runs.js';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  DOT,
  isDigit,
  LOWER_E,
  LOWER_F,
  LOWER_N,
  LOWER_T,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  PLUS,
  QUOTE,
  skipJsonValue,
  skipWhitespace,
  UPPER_E,
  ZERO,
} from './json-text.js';

/** What an encode answers when it gives up (the caller encodes the value the generic way). */
export const BAIL = -1;

/** The growable buffer the encoder writes into: bytes at [0, at) are written. */
export interface ByteSink {
  data: Buffer;
  at: number;
  /** Room for `bytes` more bytes at `at`. */
  ensure(bytes: number): void;
}

const INT_MIN = -0x8000_0000;
const INT_MAX = 0x7fff_ffff;
const FLOAT_MAX = 3.4028234663852886e38;
/** Integers of up to 15 digits are read here (always safe); longer ones are left to the generic way. */
const INTEGER_DIGITS_MAX = 15;
/** Strings up to this long are found by a loop here, longer ones by indexOf. */
const SHORT_BYTES_MAX = 64;
/** The most bytes a long's varint takes. */
const VARINT_BYTES_MAX = 10;
/** A map key that JSON objects order before the others, or that sets an object's prototype. */
const REORDERED_KEY = /^(?:\d+|__proto__)$/;

const compiled = new WeakMap<avro.Type, AvroTextEncoder | null>();

/** The schema's text encoder, compiled on first use; null when the schema has a type this encoder does not know. */
export function avroTextEncoder(type: avro.Type): AvroTextEncoder | null {
  let encoder = compiled.get(type);
  if (encoder === undefined) {
    const root = compileType(type, new Map());
    encoder = root === null ? null : new AvroTextEncoder(root);
    compiled.set(type, encoder);
  }
  return encoder;
}

/** Writes Avro's zigzag varint of a safe integer (avsc's writeLong); the caller ensured VARINT_BYTES_MAX. */
function writeLong(sink: ByteSink, value: number): void {
  const data = sink.data;
  let at = sink.at;
  if (value >= -0x4000_0000 && value < 0x4000_0000) {
    let zigzag = ((value << 1) ^ (value >> 31)) >>> 0;
    while (zigzag >= 0x80) {
      data[at++] = (zigzag & 0x7f) | 0x80;
      zigzag >>>= 7;
    }
    data[at++] = zigzag;
  } else {
    let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
    while (zigzag >= 0x80) {
      data[at++] = (zigzag % 0x80) | 0x80;
      zigzag = Math.floor(zigzag / 0x80);
    }
    data[at++] = zigzag;
  }
  sink.at = at;
}

function varintBytes(value: number): number {
  let zigzag = value * 2;
  let bytes = 1;
  while (zigzag >= 0x80) {
    zigzag = Math.floor(zigzag / 0x80);
    bytes++;
  }
  return bytes;
}

/** One schema's encoder. */
export class AvroTextEncoder {
  constructor(private readonly root: TextNode) {}

  /**
   * Writes the Avro binary of the JSON value text[at, end) (one value, whitespace around it allowed, no escapes in
   * its strings) at sink.at. Returns true when written; false when it gave up, sink.at then back where it was.
   */
  encode(text: Buffer, at: number, end: number, sink: ByteSink): boolean {
    const start = sink.at;
    const after = this.value(this.root, text, skipWhitespace(text, at), sink);
    if (after !== BAIL && skipWhitespace(text, after) === end) return true;
    sink.at = start;
    return false;
  }

  /** Writes the value at `at` (no whitespace before it); answers the text's position after it, or BAIL. */
  private value(type: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    const byte = text[at];
    switch (type.kind) {
      case Kind.Null:
        return byte === LOWER_N ? at + 4 : BAIL;
      case Kind.Boolean:
        if (byte !== LOWER_T && byte !== LOWER_F) return BAIL;
        sink.ensure(1);
        sink.data[sink.at++] = byte === LOWER_T ? 1 : 0;
        return byte === LOWER_T ? at + 4 : at + 5;
      case Kind.Int:
      case Kind.Long:
        return this.integer(type.kind, text, at, sink);
      case Kind.Float:
      case Kind.Double:
        return this.float(type.kind, text, at, sink);
      case Kind.String:
      case Kind.Bytes:
      case Kind.Fixed:
        return this.string(type, text, at, sink);
      case Kind.Enum: {
        if (byte !== QUOTE) return BAIL;
        const close = closingQuote(text, at + 1);
        const index = type.symbols!.get(text.toString('latin1', at + 1, close));
        if (index === undefined) return BAIL;
        sink.ensure(VARINT_BYTES_MAX);
        writeLong(sink, index);
        return close + 1;
      }
      case Kind.Array:
        return byte === OPEN_BRACKET ? this.array(type.element!, text, at, sink) : BAIL;
      case Kind.Map:
        return byte === OPEN_BRACE ? this.map(type.element!, text, at, sink) : BAIL;
      case Kind.Union:
        return this.union(type, text, at, sink);
      case Kind.Record:
        return byte === OPEN_BRACE ? this.record(type, text, at, sink) : BAIL;
    }
  }

  /** A plain integer (no fraction or exponent, at most INTEGER_DIGITS_MAX digits) in the type's range. */
  private integer(kind: Kind, text: Buffer, at: number, sink: ByteSink): number {
    let i = at;
    const negative = text[i] === MINUS;
    if (negative) i++;
    const digitsAt = i;
    let magnitude = 0;
    while (isDigit(text[i])) magnitude = magnitude * 10 + (text[i++] - ZERO);
    const digits = i - digitsAt;
    if (digits === 0 || digits > INTEGER_DIGITS_MAX || text[i] === DOT || text[i] === LOWER_E || text[i] === UPPER_E) {
      return BAIL;
    }
    const value = negative ? -magnitude : magnitude;
    if (kind === Kind.Int && (value < INT_MIN || value > INT_MAX)) return BAIL;
    sink.ensure(VARINT_BYTES_MAX);
    writeLong(sink, value);
    return i;
  }

  private float(kind: Kind, text: Buffer, at: number, sink: ByteSink): number {
    const byte = text[at];
    if (byte !== MINUS && !isDigit(byte)) return BAIL;
    let i = at + 1;
    for (;;) {
      const next = text[i];
      if (isDigit(next) || next === DOT || next === LOWER_E || next === UPPER_E || next === MINUS || next === PLUS) {
        i++;
      } else {
        break;
      }
    }
    const value = Number(text.toString('latin1', at, i));
    if (kind === Kind.Float) {
      if (Math.abs(value) > FLOAT_MAX) return BAIL;
      sink.ensure(4);
      sink.data.writeFloatLE(value, sink.at);
      sink.at += 4;
    } else {
      sink.ensure(8);
      sink.data.writeDoubleLE(value, sink.at);
      sink.at += 8;
    }
    return i;
  }

  /** A string's UTF-8 bytes as they are (plainString); bytes and fixed only when every character is ASCII (one byte each). */
  private string(type: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    if (text[at] !== QUOTE) return BAIL;
    if (type.kind === Kind.String) return this.plainString(text, at, sink);
    const close = closingQuote(text, at + 1);
    const length = close - at - 1;
    for (let i = at + 1; i < close; i++) if (text[i] >= 0x80) return BAIL;
    if (type.kind === Kind.Fixed && length !== type.size) return BAIL;
    sink.ensure(VARINT_BYTES_MAX + length);
    if (type.kind !== Kind.Fixed) writeLong(sink, length);
    copyBytes(text, at + 1, close, sink);
    return close + 1;
  }

  /** A string's UTF-8 bytes as they are: its end found by indexOf, its bytes copied by copyBytes. */
  private plainString(text: Buffer, at: number, sink: ByteSink): number {
    const close = text.indexOf(QUOTE, at + 1);
    const length = close - at - 1;
    sink.ensure(VARINT_BYTES_MAX + length);
    writeLong(sink, length);
    copyBytes(text, at + 1, close, sink);
    return close + 1;
  }

  /**
   * Items written after the count's place, one byte reserved for it (a count below 64); a longer count moves them.
   * Then the end of blocks, 0. An empty array is the 0 alone, as avsc writes it.
   */
  private array(items: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    let i = skipWhitespace(text, at + 1);
    sink.ensure(1);
    if (text[i] === CLOSE_BRACKET) {
      sink.data[sink.at++] = 0;
      return i + 1;
    }
    const countAt = sink.at++;
    let count = 0;
    for (;;) {
      i = this.value(items, text, i, sink);
      if (i === BAIL) return BAIL;
      count++;
      i = skipWhitespace(text, i);
      if (text[i] === CLOSE_BRACKET) break;
      if (text[i] !== COMMA) return BAIL;
      i = skipWhitespace(text, i + 1);
    }
    this.blockCount(sink, countAt, count);
    return i + 1;
  }

  /** A map as its entries in the text's order (the order JSON.parse keeps), then 0; see array. */
  private map(values: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    let i = skipWhitespace(text, at + 1);
    sink.ensure(1);
    if (text[i] === CLOSE_BRACE) {
      sink.data[sink.at++] = 0;
      return i + 1;
    }
    const countAt = sink.at++;
    let count = 0;
    let keys: Set<string> | null = null;
    let firstKey = '';
    for (;;) {
      const close = closingQuote(text, i + 1);
      const key = text.toString('utf8', i + 1, close);
      if (REORDERED_KEY.test(key)) return BAIL;
      if (count === 0) {
        firstKey = key;
      } else {
        keys ??= new Set([firstKey]);
        if (keys.has(key)) return BAIL;
        keys.add(key);
      }
      const keyBytes = close - i - 1;
      sink.ensure(VARINT_BYTES_MAX + keyBytes);
      writeLong(sink, keyBytes);
      copyBytes(text, i + 1, close, sink);
      i = skipWhitespace(text, skipWhitespace(text, close + 1) + 1);
      i = this.value(values, text, i, sink);
      if (i === BAIL) return BAIL;
      count++;
      i = skipWhitespace(text, i);
      if (text[i] === CLOSE_BRACE) break;
      if (text[i] !== COMMA) return BAIL;
      i = skipWhitespace(text, i + 1);
    }
    this.blockCount(sink, countAt, count);
    return i + 1;
  }

  /** Writes a block's count at countAt (one byte reserved there), moving the block when it needs more, then 0. */
  private blockCount(sink: ByteSink, countAt: number, count: number): void {
    const countBytes = varintBytes(count);
    sink.ensure(countBytes);
    if (countBytes > 1) {
      sink.data.copyWithin(countAt + countBytes, countAt + 1, sink.at);
      sink.at += countBytes - 1;
    }
    const blockEnd = sink.at;
    sink.at = countAt;
    writeLong(sink, count);
    sink.at = blockEnd;
    sink.ensure(1);
    sink.data[sink.at++] = 0;
  }

  /** null, or {"<branch>": value} with exactly one member naming a branch that is not null. */
  private union(type: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    const byte = text[at];
    if (byte === LOWER_N) {
      if (type.nullIndex < 0) return BAIL;
      sink.ensure(VARINT_BYTES_MAX);
      writeLong(sink, type.nullIndex);
      return at + 4;
    }
    if (byte !== OPEN_BRACE) return BAIL;
    const nameAt = skipWhitespace(text, at + 1);
    if (text[nameAt] !== QUOTE) return BAIL;
    const close = closingQuote(text, nameAt + 1);
    const branch = type.branches!.get(text.toString('latin1', nameAt + 1, close));
    if (branch === undefined) return BAIL;
    sink.ensure(VARINT_BYTES_MAX);
    writeLong(sink, branch.index);
    let i = skipWhitespace(text, skipWhitespace(text, close + 1) + 1);
    i = this.value(branch.node, text, i, sink);
    if (i === BAIL) return BAIL;
    i = skipWhitespace(text, i);
    return text[i] === CLOSE_BRACE ? i + 1 : BAIL;
  }

  /**
   * The fields in the schema's order, each written as its member comes: members must come in that order (members
   * that name no field are skipped, as the generic way ignores them), each once, none missing.
   */
  private record(type: TextNode, text: Buffer, at: number, sink: ByteSink): number {
    const fields = type.fields!;
    let next = 0;
    let i = skipWhitespace(text, at + 1);
    if (text[i] === CLOSE_BRACE) return fields.length === 0 ? i + 1 : BAIL;
    for (;;) {
      const close = closingQuote(text, i + 1);
      const valueAt = skipWhitespace(text, skipWhitespace(text, close + 1) + 1);
      if (next < fields.length && sameName(text, i + 1, close, fields[next].name)) {
        i = this.value(fields[next].node, text, valueAt, sink);
        if (i === BAIL) return BAIL;
        next++;
      } else {
        // a field out of order or repeated is left to the generic way; another member is skipped
        if (type.fieldNames!.has(text.toString('latin1', i + 1, close))) return BAIL;
        i = skipJsonValue(text, valueAt, 0, Number.MAX_SAFE_INTEGER, { escaped: false });
      }
      i = skipWhitespace(text, i);
      if (text[i] === CLOSE_BRACE) break;
      if (text[i] !== COMMA) return BAIL;
      i = skipWhitespace(text, i + 1);
    }
    return next === fields.length ? i + 1 : BAIL;
  }
}

/**
 * The closing quote of a string (with no escapes) whose characters start at `at`. Strings in records are mostly
 * short: a loop here costs less than indexOf's call into the runtime.
 */
function closingQuote(text: Buffer, at: number): number {
  const scanned = Math.min(text.length, at + SHORT_BYTES_MAX);
  for (let i = at; i < scanned; i++) if (text[i] === QUOTE) return i;
  return text.indexOf(QUOTE, scanned);
}

/** text[at, end) appended to the sink (room ensured). */
function copyBytes(text: Buffer, at: number, end: number, sink: ByteSink): void {
  sink.at = copyRun(text, at, end, sink.data, sink.at);
}

function sameName(text: Buffer, at: number, end: number, name: Buffer): boolean {
  if (end - at !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (text[at + i] !== name[i]) return false;
  return true;
}
