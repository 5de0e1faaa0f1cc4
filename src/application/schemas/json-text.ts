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

/** The end of the string whose opening quote is at `at` (just past its closing quote), or -1. */
export function skipJsonString(text: Buffer, at: number, notes: SkipNotes): number {
  let i = at + 1;
  for (;;) {
    while (i < text.length && STRING_STOP[text[i]] === 0) i++;
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
