// Stored records as the JSON text of Brook's record shape, for the answers that carry many of them (the stateless
// read, WebSocket and SSE records, v2 polls). For the formats whose key and value need no decoding step (binary:
// base64; string: UTF-8 text) the text is written field by field, the same text as
// JSON.stringify(toApiRecord(...)) (record-json.spec.ts checks it on generated records) without an ApiRecord per
// record and without JSON.stringify walking it; the other formats (json, the schema formats) are toApiRecord's
// objects, stringified. An answer is then its records' texts written into one UTF-8 Buffer (JsonTextBuffer), sent
// as it is. writeRecordJson writes a string-format record's text there piece by piece, without building it as a
// string first: a key or value that is valid UTF-8 with nothing JSON escapes (no '"', '\\' or control character) is
// its own JSON text between quotes, so its bytes are copied as they are (W5 pushes 10,000 such records a second, and
// each one's text built as strings and flattened cost a scavenge every quarter second).
import { isUtf8 } from 'node:buffer';
import { batchesIn, decodeRecords, type LogRecord } from '../partition-log/record-batch.js';
import { toApiRecord, type ReadFormat } from './record-format.js';
import type { SchemaLookup } from './schemas/record-codec.js';

/** The JSON text of one stored record in Brook's record shape (with `topic` when given). */
export function recordJson(
  record: LogRecord,
  partition: number,
  format: ReadFormat,
  topic?: string,
  schemas?: SchemaLookup,
): string {
  if (format !== 'binary' && format !== 'string') {
    return JSON.stringify(toApiRecord(record, partition, format, topic, schemas));
  }
  const binary = format === 'binary';
  let text = topic === undefined ? '{"partition":' : topicOpening(topic);
  text += `${partition},"offset":${record.offset},"timestamp":${record.timestamp},"key":`;
  text += fieldJson(record.key, binary);
  text += ',"value":';
  text += fieldJson(record.value, binary);
  return text + headersJson(record.headers);
}

/** A record's text from its headers on, to its end. */
export function headersJson(headers: LogRecord['headers']): string {
  if (headers.length === 0) return ',"headers":[]}';
  let text = ',"headers":[';
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    const value = header.value === null ? 'null' : `"${header.value.toString('base64')}"`;
    text += `${i === 0 ? '' : ','}{"name":${JSON.stringify(header.key)},"value":${value}}`;
  }
  return text + ']}';
}

/**
 * Writes the JSON text of one stored record into `out`: the same text as recordJson, in the string format without
 * building that text as a JavaScript string (see the header).
 */
export function writeRecordJson(
  out: JsonTextBuffer,
  record: LogRecord,
  partition: number,
  format: ReadFormat,
  topic?: string,
  schemas?: SchemaLookup,
): void {
  // binary: the base64 text is a new string either way, and one write of the record's text costs less CPU than five
  if (format !== 'string') {
    out.append(recordJson(record, partition, format, topic, schemas));
    return;
  }
  const opening = topic === undefined ? '{"partition":' : topicOpening(topic);
  out.append(`${opening}${partition},"offset":${record.offset},"timestamp":${record.timestamp},"key":`);
  writeTextJson(out, record.key);
  out.append(',"value":');
  writeTextJson(out, record.value);
  out.append(headersJson(record.headers));
}

let lastTopic = '';
let lastTopicOpening = '{"topic":"","partition":';

/** A record's text up to its partition, with `topic`: the same topic's is reused (a poll's records come in runs). */
function topicOpening(topic: string): string {
  if (topic !== lastTopic) {
    lastTopic = topic;
    lastTopicOpening = `{"topic":${JSON.stringify(topic)},"partition":`;
  }
  return lastTopicOpening;
}

/** A key or value: base64 needs no escaping; text is escaped by JSON.stringify. */
function fieldJson(bytes: Buffer | null, binary: boolean): string {
  if (bytes === null) return 'null';
  return binary ? `"${bytes.toString('base64')}"` : JSON.stringify(bytes.toString('utf8'));
}

/** A string-format key or value, written into `out` (fieldJson's text). */
function writeTextJson(out: JsonTextBuffer, bytes: Buffer | null): void {
  if (bytes === null) out.append('null');
  else if (isPlainJsonText(bytes)) out.appendQuoted(bytes);
  else out.append(JSON.stringify(bytes.toString('utf8')));
}

/**
 * Whether `bytes` are valid UTF-8 text that JSON.stringify would not escape anywhere: no '"' (0x22), '\\' (0x5c) or
 * control character below 0x20 (valid UTF-8 holds no lone surrogate, the only other thing it escapes).
 */
export function isPlainJsonText(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false;
    if (byte >= 0x80) ascii = false;
  }
  return ascii || isUtf8(bytes);
}

/**
 * JSON text written into one growing UTF-8 Buffer, piece by piece: many small strings joined with `+=` make a rope
 * that Buffer.from must flatten, which cost more than writing the records' texts.
 */
export class JsonTextBuffer {
  private buffer: Buffer;
  private length = 0;
  /** A view of `buffer` for four-byte writes, made when first needed (null again when the buffer grows). */
  private bufferView: DataView | null = null;
  /**
   * The four-byte words of the memory the last plain range came from (a stored batch's values share it), kept until
   * clear() or toBuffer(): one view a batch, not one a value, and no batch's memory held once its text is taken.
   */
  private sourceWords: Int32Array | null = null;

  constructor(sizeHintBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(1024, sizeHintBytes));
  }

  append(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; only near the end is the exact length asked
    const room = this.buffer.length - this.length;
    if (text.length * 3 > room && Buffer.byteLength(text, 'utf8') > room) this.grow(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** `bytes` between double quotes, copied as they are (the caller knows them to be JSON string content). */
  appendQuoted(bytes: Uint8Array): void {
    this.reserve(bytes.length + 2);
    this.buffer[this.length++] = QUOTE;
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    this.buffer[this.length++] = QUOTE;
  }

  /** Bytes as they are (text the caller already holds as UTF-8, such as a record's fixed pieces). */
  appendBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /**
   * Bytes [start, start + length) of `source` between double quotes when they are plain JSON text
   * (isPlainJsonText), checked as they are copied, in one pass; false, with nothing written, when they are not.
   * The range's bytes up to a word boundary of its memory and after the last whole word go one at a time, the
   * words between four at a time (copyPlainJsonWords): a byte loop over the whole range was most of W5's records
   * encoding (79 against 22 us for 100 values of 512 B).
   */
  appendPlainJsonRange(source: Uint8Array, start: number, length: number): boolean {
    this.reserve(length + 2);
    const buffer = this.buffer;
    const opening = this.length;
    let at = opening;
    buffer[at++] = QUOTE;
    let high = 0;
    const end = start + length;
    // bytes one at a time up to the first word boundary of `source`'s memory, then words, then the rest
    const wordsFrom = Math.min(end, start + ((4 - ((source.byteOffset + start) & 3)) & 3));
    let i = start;
    for (; i < wordsFrom; i++) {
      const byte = source[i];
      if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false;
      high |= byte;
      buffer[at++] = byte;
    }
    const wordCount = (end - i) >> 2;
    if (wordCount > 0) {
      const words = copyPlainJsonWords(this.wordsOf(source), (source.byteOffset + i) >> 2, wordCount, this.view(), at);
      if (words === WORDS_ESCAPED) return false;
      if (words === WORDS_NOT_ASCII) high |= 0x80;
      i += wordCount * 4;
      at += wordCount * 4;
    }
    for (; i < end; i++) {
      const byte = source[i];
      if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false;
      high |= byte;
      buffer[at++] = byte;
    }
    if ((high & 0x80) !== 0 && !isUtf8(source.subarray(start, end))) return false;
    buffer[at++] = QUOTE;
    this.length = at;
    return true;
  }

  /** `value`'s decimal text, as String(value) writes it, without that string for a safe integer. */
  appendInteger(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.append(String(value));
      return;
    }
    this.reserve(INTEGER_BYTES_MAX);
    let magnitude = value;
    if (magnitude < 0) {
      this.buffer[this.length++] = MINUS;
      magnitude = -magnitude;
    }
    let digits = 1;
    for (let power = 10; power <= magnitude; power *= 10) digits++;
    let position = this.length + digits;
    do {
      this.buffer[--position] = DIGIT_ZERO + (magnitude % 10);
      magnitude = Math.floor(magnitude / 10);
    } while (magnitude > 0);
    this.length += digits;
  }

  /** Starts over (what was written is dropped), keeping the memory for the next text, with room for `bytes`. */
  clear(bytes: number): void {
    this.length = 0;
    this.sourceWords = null;
    this.reserve(bytes);
  }

  /** Bytes this holds, written or not. */
  get capacityBytes(): number {
    return this.buffer.length;
  }

  /** Bytes written so far. */
  get byteLength(): number {
    return this.length;
  }

  /**
   * Makes room for `bytes` more at once, when the writer knows roughly how much is coming: one copy of what was
   * written rather than one per doubling.
   */
  reserve(bytes: number): void {
    if (this.buffer.length - this.length < bytes) this.grow(bytes);
  }

  private grow(atLeastBytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + atLeastBytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
    this.bufferView = null;
  }

  /** The words of `source`'s memory, for copyPlainJsonWords: the last one's view again when it is the same memory. */
  private wordsOf(source: Uint8Array): Int32Array {
    const memory = source.buffer;
    if (this.sourceWords?.buffer !== memory) this.sourceWords = new Int32Array(memory, 0, memory.byteLength >> 2);
    return this.sourceWords;
  }

  /** A DataView of the buffer (made once per buffer), for copyPlainJsonWords' four-byte writes. */
  private view(): DataView {
    const buffer = this.buffer;
    return (this.bufferView ??= new DataView(buffer.buffer, buffer.byteOffset, buffer.length));
  }

  /** The text written so far (a view of the buffer). */
  toBuffer(): Buffer {
    this.sourceWords = null;
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * Copies `wordCount` four-byte words of `words` from index `first` to `target` at byte `at`, checking each for a
 * byte JSON escapes, four at a time: WORDS_ESCAPED (the copy stopped there) when a word holds a byte below 0x20, '"'
 * or '\\', else WORDS_NOT_ASCII when a byte was 0x80 or above, else WORDS_ASCII.
 * The tests are exact for any byte values (a word holds a byte below n, n <= 0x80, iff (w - n * 0x01010101) & ~w &
 * 0x80808080 is not 0; a byte equal to c is a zero byte of w ^ c * 0x01010101). The words are read in the platform's
 * byte order and written back in the same order.
 */
function copyPlainJsonWords(words: Int32Array, first: number, wordCount: number, target: DataView, at: number): number {
  let high = 0;
  for (let w = 0; w < wordCount; w++) {
    const word = words[first + w];
    const quotes = word ^ 0x22222222;
    const backslashes = word ^ 0x5c5c5c5c;
    const escaped =
      ((word - 0x20202020) & ~word) | ((quotes - 0x01010101) & ~quotes) | ((backslashes - 0x01010101) & ~backslashes);
    if ((escaped & 0x80808080) !== 0) return WORDS_ESCAPED;
    high |= word;
    target.setInt32(at + w * 4, word, LITTLE_ENDIAN);
  }
  return (high & 0x80808080) === 0 ? WORDS_ASCII : WORDS_NOT_ASCII;
}

const WORDS_ASCII = 0;
const WORDS_NOT_ASCII = 1;
const WORDS_ESCAPED = 2;

/** Whether this platform stores numbers least significant byte first (what Int32Array reads and writes). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const QUOTE = 0x22;
const MINUS = 0x2d;
const DIGIT_ZERO = 0x30;
/** A safe integer's text: a sign and 16 digits. */
const INTEGER_BYTES_MAX = 17;

/** Room for the JSON of the records in `batches`: base64 takes 4/3 of the bytes, and each record's fields more. */
export function jsonSizeHint(batches: Buffer): number {
  return 2 * batches.length + 1024;
}

/**
 * Writes the JSON texts of the records in `batches` from `fromOffset` on, at most `maxRecords`, joined by commas
 * (the inside of a JSON array), into `out`; nextOffset is the first record not taken, null when every one was.
 */
export function recordsJsonFromBatches(
  out: JsonTextBuffer,
  batches: Buffer,
  partition: number,
  format: ReadFormat,
  fromOffset: number,
  maxRecords: number,
  schemas?: SchemaLookup,
): { count: number; nextOffset: number | null } {
  let count = 0;
  for (const { header, position } of batchesIn(batches)) {
    for (const record of decodeRecords(batches.subarray(position, position + header.sizeBytes))) {
      if (record.offset < fromOffset) continue;
      if (count >= maxRecords) return { count, nextOffset: record.offset };
      if (count > 0) out.append(',');
      writeRecordJson(out, record, partition, format, undefined, schemas);
      count++;
    }
  }
  return { count, nextOffset: null };
}
