// The keys and values of a produce request's records in Confluent's wire format (wire-format.ts), written one after
// another into one buffer as a batch's records section (partition-log's RecordsSectionWriter frames each record
// around them as they are written): record i's key is data[keyAt[i], keyAt[i] + keyLength[i]) (length -1: null),
// its value likewise, and data[BATCH_HEADER_BYTES, end) is the records section frameSpansBatch finishes as a batch,
// with no per-record buffers or record objects and no second copy to frame them. Each span holds exactly
// encodeRecord's bytes: Avro data goes through the same conversion (avroValueFromJson) and is then written by avsc
// straight into the buffer (Type.encode); JSON Schema and Protobuf payloads are encoded as encodeRecord does and
// copied in. Fields are encoded in record order, key before value, so the first one that does not match its schema
// is the one refused (DataConversionError, 42203), as encoding each record in turn refuses it.
//
// encodeWireFormatTextSpans takes the fields as JSON text instead (spans of a request body whose syntax the caller
// checked): an Avro field with no escape in its strings goes through the schema's text encoder
// (avro-text-encoder.ts), straight from the text to Avro binary; any other field, and one that encoder gives up on,
// is parsed alone (JSON.parse of its text) and encoded as above, so each span and each refusal is what parsing the
// whole body and encoding its values gives.
import type avro from 'avsc';
import { RecordsSectionWriter } from '../../partition-log/records-section-writer.js';
import { avroValueFromJson } from './avro-data.js';
import { avroTextEncoder, type AvroTextEncoder } from './avro-text-encoder.js';
import type { ParsedSchema } from './parsed-schema.js';
import { asDataConversionError, encodePayload } from './record-codec.js';
import { MAGIC_BYTE, WIRE_HEADER_BYTES } from './wire-format.js';

/** What a record is first expected to take when its data is not text (the section grows past it as needed). */
const RECORD_BYTES_EXPECTED = 64;
/** A record's framing and its two wire-format headers, beyond its fields' text (see encodeWireFormatTextSpans). */
const RECORD_OVERHEAD_BYTES = 20 + 2 * WIRE_HEADER_BYTES;

/** The schema a request's keys (or values) are written with. */
export interface SpanSchema {
  readonly id: number;
  readonly schema: ParsedSchema;
}

/** The records' keys and values as spans of `data`, framed as one batch's records section in [BATCH_HEADER_BYTES, end). */
export interface WireFormatSpans {
  readonly data: Buffer;
  /** The end of the records section: every span lies below it. */
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
  const writer = new SpanWriter(count * RECORD_BYTES_EXPECTED, count);
  for (let i = 0; i < count; i++) {
    writer.beginRecord(i);
    const key = keyData(i);
    if (key === undefined || key === null || keySchema === null) writer.nullSpan(i, 0);
    else writer.write(i, 0, keySchema, key);
    const value = valueData(i);
    if (value === undefined || value === null || valueSchema === null) writer.nullSpan(i, 1);
    else writer.write(i, 1, valueSchema, value);
    writer.endSpans(i);
  }
  return writer.spans();
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
  const { text, escaped, keyAt, keyEnd, valueAt, valueEnd } = fields;
  // Avro binary mostly takes about what its JSON text takes (a string's quotes become its length)
  let expected = count * RECORD_OVERHEAD_BYTES;
  for (let i = 0; i < count; i++) {
    if (keyAt[i] >= 0) expected += keyEnd[i] - keyAt[i];
    if (valueAt[i] >= 0) expected += valueEnd[i] - valueAt[i];
  }
  const writer = new SpanWriter(expected, count);
  const keyEncoder = textEncoderOf(keySchema);
  const valueEncoder = textEncoderOf(valueSchema);
  for (let i = 0; i < count; i++) {
    writer.beginRecord(i);
    if (keyAt[i] < 0 || keySchema === null) {
      writer.nullSpan(i, 0);
    } else {
      const encoder = (escaped[i] & KEY_ESCAPED) === 0 ? keyEncoder : null;
      writer.writeText(i, 0, keySchema, encoder, text, keyAt[i], keyEnd[i]);
    }
    if (valueAt[i] < 0 || valueSchema === null) {
      writer.nullSpan(i, 1);
    } else {
      const encoder = (escaped[i] & VALUE_ESCAPED) === 0 ? valueEncoder : null;
      writer.writeText(i, 1, valueSchema, encoder, text, valueAt[i], valueEnd[i]);
    }
    writer.endSpans(i);
  }
  return writer.spans();
}

/** Writes wire-format fields into a records section, noting each field's span (slot 0: keys, 1: values). */
class SpanWriter extends RecordsSectionWriter {
  private readonly spanAt: [Int32Array, Int32Array];
  private readonly spanLength: [Int32Array, Int32Array];

  constructor(expectedBytes: number, count: number) {
    super(expectedBytes);
    this.spanAt = [new Int32Array(count), new Int32Array(count)];
    this.spanLength = [new Int32Array(count), new Int32Array(count)];
  }

  spans(): WireFormatSpans {
    const [keyAt, valueAt] = this.spanAt;
    const [keyLength, valueLength] = this.spanLength;
    return { data: this.data, end: this.at, keyAt, keyLength, valueAt, valueLength };
  }

  /** Record `record`'s key (slot 0) or value (slot 1) is null. */
  nullSpan(record: number, slot: 0 | 1): void {
    this.nullField();
    this.spanAt[slot][record] = this.at;
    this.spanLength[slot][record] = -1;
  }

  /** Ends record `record`: its spans follow the record's bytes if its framing moved them. */
  endSpans(record: number): void {
    const moved = this.endRecord();
    if (moved !== 0) {
      this.spanAt[0][record] += moved;
      this.spanAt[1][record] += moved;
    }
  }

  /**
   * Writes one field given as JSON text (text[at, end), one value) with its schema's text encoder when it has one
   * (null for a text with escapes).
   */
  writeText(
    record: number,
    slot: 0 | 1,
    schema: SpanSchema,
    encoder: AvroTextEncoder | null,
    text: Buffer,
    at: number,
    end: number,
  ): void {
    if (encoder !== null) {
      const start = this.beginField(slot);
      this.header(schema.id);
      if (encoder.encode(text, at, end, this)) {
        this.ended(record, slot, start);
        return;
      }
      // the generic way below writes the field again from its length's place
      this.abandonField();
    }
    this.write(record, slot, schema, JSON.parse(text.toString('utf8', at, end)));
  }

  /** Writes one field. */
  write(record: number, slot: 0 | 1, { id, schema }: SpanSchema, json: unknown): void {
    if (schema.schemaType === 'AVRO') {
      const value = avroValue(schema.avroType, json);
      const start = this.beginField(slot);
      this.header(id);
      let end = this.encodeAvro(schema.avroType, value);
      if (end < 0) {
        // avsc answers how many bytes it lacked: grow by at least that much, then write it again
        this.ensure(this.data.length - this.at - end);
        end = this.encodeAvro(schema.avroType, value);
      }
      this.at = end;
      this.ended(record, slot, start);
    } else {
      const payload = encodePayload(schema, json);
      const start = this.beginField(slot);
      this.header(id);
      this.ensure(payload.length);
      this.at += payload.copy(this.data, this.at);
      this.ended(record, slot, start);
    }
  }

  private ended(record: number, slot: 0 | 1, start: number): void {
    const at = this.endField(start);
    this.spanAt[slot][record] = at;
    this.spanLength[slot][record] = this.at - at;
  }

  private encodeAvro(type: avro.Type, value: unknown): number {
    try {
      return type.encode(value, this.data, this.at);
    } catch (error) {
      throw asDataConversionError(error);
    }
  }

  private header(id: number): void {
    this.ensure(WIRE_HEADER_BYTES);
    this.data[this.at] = MAGIC_BYTE;
    this.data.writeInt32BE(id, this.at + 1);
    this.at += WIRE_HEADER_BYTES;
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
