// The keys and values of a produce request's records in Confluent's wire format (wire-format.ts), written one after
// another into one buffer rather than one Buffer each: record i's key is data[keyAt[i], keyAt[i] + keyLength[i])
// (length -1: null), its value likewise, so that a batch is framed around these spans (partition-log's
// frameRecordSpans) with no per-record buffers or record objects. Each span holds exactly encodeRecord's bytes:
// Avro data goes through the same conversion (avroValueFromJson) and is then written by avsc straight into the
// buffer (Type.encode); JSON Schema and Protobuf payloads are encoded as encodeRecord does and copied in.
// Fields are encoded in record order, key before value, so the first one that does not match its schema is the
// one refused (DataConversionError, 42203), as encoding each record in turn refuses it.
//
// encodeWireFormatTextSpans takes the fields as JSON text instead (spans of a request body whose syntax the caller
// checked): an Avro field with no escape in its strings goes through the schema's text encoder
// (avro-text-encoder.ts), straight from the text to Avro binary; any other field, and one that encoder gives up on,
// is parsed alone (JSON.parse of its text) and encoded as above, so each span and each refusal is what parsing the
// whole body and encoding its values gives.
//
// The buffer is this module's, reused by the next call: a caller frames the spans (copies them out) before it
// encodes another request's. It grows to what a request needs and is kept up to SCRATCH_KEPT_BYTES_MAX.
import type avro from 'avsc';
import { avroValueFromJson } from './avro-data.js';
import { avroTextEncoder, type AvroTextEncoder, type ByteSink } from './avro-text-encoder.js';
import type { ParsedSchema } from './parsed-schema.js';
import { asDataConversionError, encodePayload } from './record-codec.js';
import { MAGIC_BYTE, WIRE_HEADER_BYTES } from './wire-format.js';

/** Spans are Int32: a request's fields past 2 GiB in all are refused by the body limit long before. */
const SCRATCH_BYTES_MAX = 0x7fff_ffff;
/** A larger buffer than this, grown for one big request, is not kept for the next one. */
const SCRATCH_KEPT_BYTES_MAX = 4 * 1024 * 1024;
const SCRATCH_INITIAL_BYTES = 64 * 1024;

let scratch = Buffer.allocUnsafe(SCRATCH_INITIAL_BYTES);

/** The schema a request's keys (or values) are written with. */
export interface SpanSchema {
  readonly id: number;
  readonly schema: ParsedSchema;
}

/** The records' keys and values as spans of `data` (valid until the next encodeWireFormatSpans). */
export interface WireFormatSpans {
  readonly data: Buffer;
  /** Bytes of data in use: every span lies below it. */
  readonly end: number;
  readonly keyAt: Int32Array;
  readonly keyLength: Int32Array;
  readonly valueAt: Int32Array;
  readonly valueLength: Int32Array;
}

/** A record's key or value data; undefined or null for none. */
export type FieldData = (index: number) => unknown;

/**
 * Encodes `count` records' keys (with `keySchema`) and values (with `valueSchema`); a field whose data is null or
 * undefined is null. A schema is null only when no record has data for that field (the caller has refused the
 * request otherwise). Throws DataConversionError for the first field that does not match its schema.
 */
export function encodeWireFormatSpans(
  count: number,
  keySchema: SpanSchema | null,
  keyData: FieldData,
  valueSchema: SpanSchema | null,
  valueData: FieldData,
): WireFormatSpans {
  const writer = new SpanWriter();
  const keyAt = new Int32Array(count);
  const keyLength = new Int32Array(count);
  const valueAt = new Int32Array(count);
  const valueLength = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const key = keyData(i);
    keyAt[i] = writer.at;
    keyLength[i] = key === undefined || key === null || keySchema === null ? -1 : writer.write(keySchema, key);
    const value = valueData(i);
    valueAt[i] = writer.at;
    valueLength[i] =
      value === undefined || value === null || valueSchema === null ? -1 : writer.write(valueSchema, value);
  }
  const data = writer.data;
  if (data.length <= SCRATCH_KEPT_BYTES_MAX) scratch = data;
  return { data, end: writer.at, keyAt, keyLength, valueAt, valueLength };
}

/**
 * Record i's key as JSON text is text[keyAt[i], keyEnd[i]) (keyAt[i] -1: null), its value likewise; bit
 * KEY_ESCAPED (VALUE_ESCAPED) of escaped[i] is set when a string in the key (value) has an escape.
 */
export interface FieldTexts {
  readonly text: Buffer;
  readonly keyAt: Int32Array;
  readonly keyEnd: Int32Array;
  readonly valueAt: Int32Array;
  readonly valueEnd: Int32Array;
  readonly escaped: Uint8Array;
}

export const KEY_ESCAPED = 1;
export const VALUE_ESCAPED = 2;

/** encodeWireFormatSpans for fields given as JSON text (see the header): the same spans and the same refusals. */
export function encodeWireFormatTextSpans(
  count: number,
  keySchema: SpanSchema | null,
  valueSchema: SpanSchema | null,
  fields: FieldTexts,
): WireFormatSpans {
  const writer = new SpanWriter();
  const keyLength = new Int32Array(count);
  const valueAt = new Int32Array(count);
  const valueLength = new Int32Array(count);
  const { text, escaped } = fields;
  const keyAt = new Int32Array(count);
  const keyEncoder = textEncoderOf(keySchema);
  const valueEncoder = textEncoderOf(valueSchema);
  for (let i = 0; i < count; i++) {
    const keyTextAt = fields.keyAt[i];
    keyAt[i] = writer.at;
    keyLength[i] =
      keyTextAt < 0 || keySchema === null
        ? -1
        : writer.writeText(
            keySchema,
            (escaped[i] & KEY_ESCAPED) === 0 ? keyEncoder : null,
            text,
            keyTextAt,
            fields.keyEnd[i],
          );
    const valueTextAt = fields.valueAt[i];
    valueAt[i] = writer.at;
    valueLength[i] =
      valueTextAt < 0 || valueSchema === null
        ? -1
        : writer.writeText(
            valueSchema,
            (escaped[i] & VALUE_ESCAPED) === 0 ? valueEncoder : null,
            text,
            valueTextAt,
            fields.valueEnd[i],
          );
  }
  const data = writer.data;
  if (data.length <= SCRATCH_KEPT_BYTES_MAX) scratch = data;
  return { data, end: writer.at, keyAt, keyLength, valueAt, valueLength };
}

/** Appends wire-format fields to the scratch buffer, growing it. */
class SpanWriter implements ByteSink {
  data = scratch;
  at = 0;

  /**
   * Writes one field given as JSON text (text[at, end), one value) with its schema's text encoder when it has one
   * (null for a text with escapes); returns its length.
   */
  writeText(schema: SpanSchema, encoder: AvroTextEncoder | null, text: Buffer, at: number, end: number): number {
    if (encoder !== null) {
      const start = this.at;
      this.header(schema.id);
      if (encoder.encode(text, at, end, this)) return this.at - start;
      this.at = start;
    }
    return this.write(schema, JSON.parse(text.toString('utf8', at, end)));
  }

  ensure(bytes: number): void {
    this.grow(this.at + bytes);
  }

  /** Writes one field at `at`; returns its length. */
  write({ id, schema }: SpanSchema, json: unknown): number {
    const start = this.at;
    if (schema.schemaType === 'AVRO') {
      const value = avroValue(schema.avroType, json);
      this.header(id);
      let end = this.encodeAvro(schema.avroType, value);
      if (end < 0) {
        // avsc answers how many bytes it lacked: grow by at least that much, then write it again
        this.grow(this.data.length - end);
        end = this.encodeAvro(schema.avroType, value);
      }
      this.at = end;
    } else {
      const payload = encodePayload(schema, json);
      this.header(id);
      this.grow(this.at + payload.length);
      this.at += payload.copy(this.data, this.at);
    }
    return this.at - start;
  }

  private encodeAvro(type: avro.Type, value: unknown): number {
    try {
      return type.encode(value, this.data, this.at);
    } catch (error) {
      throw asDataConversionError(error);
    }
  }

  private header(id: number): void {
    this.grow(this.at + WIRE_HEADER_BYTES);
    this.data[this.at] = MAGIC_BYTE;
    this.data.writeInt32BE(id, this.at + 1);
    this.at += WIRE_HEADER_BYTES;
  }

  /** Room for `needed` bytes in all (at least doubling), what is written so far kept. */
  private grow(needed: number): void {
    if (needed <= this.data.length) return;
    if (needed > SCRATCH_BYTES_MAX)
      throw new RangeError(`a request's keys and values exceed ${SCRATCH_BYTES_MAX} bytes`);
    const grown = Buffer.allocUnsafe(Math.min(SCRATCH_BYTES_MAX, Math.max(needed, 2 * this.data.length)));
    this.data.copy(grown, 0, 0, this.at);
    this.data = grown;
  }
}

/** The Avro text encoder of a schema (null for other types, and Avro schemas it does not take). */
function textEncoderOf(schema: SpanSchema | null): AvroTextEncoder | null {
  return schema?.schema.schemaType === 'AVRO' ? avroTextEncoder(schema.schema.avroType) : null;
}

function avroValue(type: avro.Type, json: unknown): unknown {
  try {
    return avroValueFromJson(type, json);
  } catch (error) {
    throw asDataConversionError(error);
  }
}
