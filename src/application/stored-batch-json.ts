// The JSON text of one stored batch's records in Brook's record shape with `topic` (what WebSocket `records`
// frames and SSE events carry), written straight from the batch's bytes in the formats whose key and value need no
// decoding step: string (UTF-8 text) and binary (base64). The same text as recordJson a record (the property test
// in stored-batch-json.spec.ts checks it on generated batches, every codec), joined by commas, without decoding the
// batch into LogRecord objects first: a RecordCursor walks the records in place. In the string format a record whose
// key and value need no escaping (record-json.ts, isPlainJsonText) is written with no JavaScript string or object at
// all: fixed pieces, its offset and timestamp as digits, its key and value copied between quotes. W5 pushes 10,000
// such records a second; their objects and views were about a third of its young-generation allocation.
import { RecordCursor } from '../partition-log/record-batch.js';
import { headersJson, type JsonTextBuffer } from './record-json.js';

/** The formats stored batches are written in from their bytes; the others go through toApiRecord. */
export type BytesFormat = 'string' | 'binary';

export function isBytesFormat(format: string): format is BytesFormat {
  return format === 'string' || format === 'binary';
}

/** Where each record's text starts in `out` and each record's offset (`starts[count]`: one past the end + 1). */
export interface WrittenBatch {
  offsets: Float64Array;
  starts: Uint32Array;
}

const TIMESTAMP_PIECE = Buffer.from(',"timestamp":');
const KEY_PIECE = Buffer.from(',"key":');
const VALUE_PIECE = Buffer.from(',"value":');
const NO_HEADERS_END = Buffer.from(',"headers":[]}');
const NULL_TEXT = Buffer.from('null');
const COMMA_BYTES = Buffer.from(',');

/**
 * Writes the records of one stored batch (`batch`: exactly one batch) into `out` as their JSON texts joined by
 * commas, each as recordJson(record, partition, format, topic) writes it. Throws CorruptBatchError as decodeRecords.
 */
export function writeStoredBatchJson(
  out: JsonTextBuffer,
  batch: Buffer,
  topic: string,
  partition: number,
  format: BytesFormat,
): WrittenBatch {
  const cursor = new RecordCursor(batch);
  const offsets = new Float64Array(cursor.count);
  const starts = new Uint32Array(cursor.count + 1);
  const opening = `{"topic":${JSON.stringify(topic)},"partition":${partition},"offset":`;
  const openingBytes = format === 'string' ? Buffer.from(opening) : null;
  let i = 0;
  while (cursor.next()) {
    if (i > 0) out.appendBytes(COMMA_BYTES);
    starts[i] = out.byteLength;
    offsets[i] = cursor.offset;
    if (openingBytes !== null) writeStringRecord(out, cursor, openingBytes);
    else out.append(binaryRecordText(cursor, opening));
    i++;
  }
  starts[i] = out.byteLength + 1;
  return { offsets, starts };
}

function writeStringRecord(out: JsonTextBuffer, cursor: RecordCursor, opening: Buffer): void {
  out.appendBytes(opening);
  out.appendInteger(cursor.offset);
  out.appendBytes(TIMESTAMP_PIECE);
  out.appendInteger(cursor.timestamp);
  out.appendBytes(KEY_PIECE);
  writeTextField(out, cursor.body, cursor.keyStart, cursor.keyLength);
  out.appendBytes(VALUE_PIECE);
  writeTextField(out, cursor.body, cursor.valueStart, cursor.valueLength);
  if (cursor.headerCount === 0) out.appendBytes(NO_HEADERS_END);
  else out.append(headersJson(cursor.headers()));
}

/** A string-format key or value (length -1: null): its bytes when JSON needs no escape in them, else escaped. */
function writeTextField(out: JsonTextBuffer, body: Buffer, start: number, length: number): void {
  if (length === -1) out.appendBytes(NULL_TEXT);
  else if (!out.appendPlainJsonRange(body, start, length))
    out.append(JSON.stringify(body.toString('utf8', start, start + length)));
}

/** A binary-format record's text as one string: the base64 text is a new string either way (record-json.ts). */
function binaryRecordText(cursor: RecordCursor, opening: string): string {
  const { body } = cursor;
  let text = `${opening}${cursor.offset},"timestamp":${cursor.timestamp},"key":`;
  text += base64Field(body, cursor.keyStart, cursor.keyLength);
  text += ',"value":';
  text += base64Field(body, cursor.valueStart, cursor.valueLength);
  return text + (cursor.headerCount === 0 ? ',"headers":[]}' : headersJson(cursor.headers()));
}

function base64Field(body: Buffer, start: number, length: number): string {
  return length === -1 ? 'null' : `"${body.toString('base64', start, start + length)}"`;
}
