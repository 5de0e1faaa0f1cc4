// JSON text read as bytes (UTF-8, already checked valid as a whole by the caller), for the readers that take a
// request's records without JSON.parse: the v2 schema produce scanner, which checks a body's syntax and finds its
// records' keys and values, and the Avro text encoder, which writes those values as Avro binary. skipJsonValue is a
// validating skip of one value by RFC 8259's grammar: it answers where the value ends, or -1 when the text is not
// JSON there, so that a reader that accepts a text knows JSON.parse accepts it too.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const MINUS = 0x2d;
export const PLUS = 0x2b;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const LOWER_E = 0x65;
export const UPPER_E = 0x45;
export const LOWER_T = 0x74;
export const LOWER_F = 0x66;
export const LOWER_N = 0x6e;
const LOWER_U = 0x75;

/** 1 for JSON's insignificant whitespace: space, tab, line feed, carriage return. */
const WHITESPACE = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[byte] = 1;

/** 1 for the bytes a string's plain run stops at: its closing quote, an escape, a control character. */
const STRING_STOP = new Uint8Array(256);
for (let byte = 0; byte < 0x20; byte++) STRING_STOP[byte] = 1;
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** 1 for the characters that may follow a backslash, besides u. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const char of '"\\/bfnrt') SIMPLE_ESCAPE[char.charCodeAt(0)] = 1;

const HEX = new Uint8Array(256);
for (const char of '0123456789abcdefABCDEF') HEX[char.charCodeAt(0)] = 1;

const TRUE = Buffer.from('true', 'latin1');
const FALSE = Buffer.from('false', 'latin1');
const NULL = Buffer.from('null', 'latin1');

export function skipWhitespace(text: Buffer, at: number): number {
  while (at < text.length && WHITESPACE[text[at]] === 1) at++;
  return at;
}

export function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

function startsWith(text: Buffer, at: number, token: Buffer): boolean {
  if (at + token.length > text.length) return false;
  for (let i = 0; i < token.length; i++) if (text[at + i] !== token[i]) return false;
  return true;
}

/** What a skip saw besides where the value ends. */
export interface SkipNotes {
  /** Set when a string of the value has an escape (so its bytes are not its characters). */
  escaped: boolean;
}

/**
 * The end of the JSON value at `at` (no whitespace before it), or -1 when the text there is not one. Arrays and
 * objects open inside `depth` enclosing ones; past `depthMax` levels the answer is -1 too.
 */
export function skipJsonValue(text: Buffer, at: number, depth: number, depthMax: number, notes: SkipNotes): number {
  const byte = text[at];
  if (byte === QUOTE) return skipJsonString(text, at, notes);
  if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
    if (depth + 1 > depthMax) return -1;
    return byte === OPEN_BRACE
      ? skipObject(text, at, depth + 1, depthMax, notes)
      : skipArray(text, at, depth + 1, depthMax, notes);
  }
  if (byte === LOWER_T) return startsWith(text, at, TRUE) ? at + 4 : -1;
  if (byte === LOWER_F) return startsWith(text, at, FALSE) ? at + 5 : -1;
  if (byte === LOWER_N) return startsWith(text, at, NULL) ? at + 4 : -1;
  return skipJsonNumber(text, at);
}

/** A string's first bytes up to this many are read one at a time; the rest of a longer one four at a time (plainRunEnd). */
const WORD_RUN_BYTES_MIN = 8;

/**
 * The text whose bytes `words` views four at a time (the last text a long string was read in; kept until the next
 * one), and that view.
 */
let wordsText: Buffer | null = null;
let words: Int32Array<ArrayBufferLike> = new Int32Array(0);

/**
 * Where the plain run of string characters at `at` (no quote, backslash or control character) stops, at most at
 * `end`, read a word of four bytes at a time: a word holds a stop byte exactly when one of the zero-byte tests below
 * finds one (for each byte b: b < 0x20, b ^ 0x22 = 0, b ^ 0x5c = 0; the tests are exact for any word, borrows
 * included, since no threshold passes 0x80). The bytes before the first aligned word and after the last are read
 * one at a time.
 */
function plainRunEnd(text: Buffer, at: number, end: number): number {
  if (wordsText !== text) {
    // the view starts at the text's buffer's first aligned word and only words within [at, end) are read
    const first = text.byteOffset & ~3;
    words = new Int32Array(text.buffer, first, (text.byteOffset + text.length - first) >> 2);
    wordsText = text;
  }
  const offset = text.byteOffset;
  let i = at;
  while (i < end && ((offset + i) & 3) !== 0) {
    if (STRING_STOP[text[i]] === 1) return i;
    i++;
  }
  if (i >= end) return end;
  const view = words;
  let word = (offset + i - (offset & ~3)) >> 2;
  const lastWord = (offset + end - (offset & ~3)) >> 2;
  while (word < lastWord) {
    const x = view[word];
    const quote = x ^ 0x22222222;
    const backslash = x ^ 0x5c5c5c5c;
    const stops =
      (((x - 0x20202020) | 0) & ~x) |
      (((quote - 0x01010101) | 0) & ~quote) |
      (((backslash - 0x01010101) | 0) & ~backslash);
    if ((stops & 0x80808080) !== 0) break;
    word++;
  }
  i = (word << 2) + (offset & ~3) - offset;
  while (i < end && STRING_STOP[text[i]] === 0) i++;
  return i;
}

/** The end of the string whose opening quote is at `at` (just past its closing quote), or -1. */
export function skipJsonString(text: Buffer, at: number, notes: SkipNotes): number {
  let i = at + 1;
  for (;;) {
    const bytewise = Math.min(text.length, i + WORD_RUN_BYTES_MIN);
    while (i < bytewise && STRING_STOP[text[i]] === 0) i++;
    if (i === bytewise) i = plainRunEnd(text, i, text.length);
    if (i >= text.length) return -1;
    const byte = text[i];
    if (byte === QUOTE) return i + 1;
    if (byte !== BACKSLASH) return -1;
    notes.escaped = true;
    const escape = text[i + 1];
    if (escape === LOWER_U) {
      for (let h = 2; h < 6; h++) if (HEX[text[i + h]] !== 1) return -1;
      i += 6;
    } else if (SIMPLE_ESCAPE[escape] === 1) {
      i += 2;
    } else {
      return -1;
    }
  }
}

/** The end of the number at `at`: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, or -1. */
export function skipJsonNumber(text: Buffer, at: number): number {
  let i = at;
  if (text[i] === MINUS) i++;
  if (text[i] === ZERO) i++;
  else if (isDigit(text[i])) while (isDigit(text[i])) i++;
  else return -1;
  if (text[i] === DOT) {
    i++;
    if (!isDigit(text[i])) return -1;
    while (isDigit(text[i])) i++;
  }
  if (text[i] === LOWER_E || text[i] === UPPER_E) {
    i++;
    if (text[i] === PLUS || text[i] === MINUS) i++;
    if (!isDigit(text[i])) return -1;
    while (isDigit(text[i])) i++;
  }
  return i;
}

function skipObject(text: Buffer, at: number, depth: number, depthMax: number, notes: SkipNotes): number {
  let i = skipWhitespace(text, at + 1);
  if (text[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (text[i] !== QUOTE) return -1;
    i = skipJsonString(text, i, notes);
    if (i < 0) return -1;
    i = skipWhitespace(text, i);
    if (text[i] !== COLON) return -1;
    i = skipWhitespace(text, i + 1);
    i = skipJsonValue(text, i, depth, depthMax, notes);
    if (i < 0) return -1;
    i = skipWhitespace(text, i);
    if (text[i] === CLOSE_BRACE) return i + 1;
    if (text[i] !== COMMA) return -1;
    i = skipWhitespace(text, i + 1);
  }
}

function skipArray(text: Buffer, at: number, depth: number, depthMax: number, notes: SkipNotes): number {
  let i = skipWhitespace(text, at + 1);
  if (text[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    i = skipJsonValue(text, i, depth, depthMax, notes);
    if (i < 0) return -1;
    i = skipWhitespace(text, i);
    if (text[i] === CLOSE_BRACKET) return i + 1;
    if (text[i] !== COMMA) return -1;
    i = skipWhitespace(text, i + 1);
  }
}
