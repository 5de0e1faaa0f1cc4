// REST Proxy v2 produce in the schema formats, application/vnd.kafka.{avro,jsonschema,protobuf}.v2+json:
//   {key_schema?, key_schema_id?, value_schema?, value_schema_id?, records: [{key?, value?, partition?}]}
// An inline schema is looked up, or registered, under <topic>-key / <topic>-value (Confluent's TopicNameStrategy);
// an id names a registered schema (of the format's type). Keys and values are the format's JSON (Avro's JSON
// encoding, the JSON document, proto3 JSON), stored in Confluent's wire format. Confluent's refusals, for the whole
// request: the records' shape as in the json format (produce-records.schema.ts), 42201 keys without a key schema, 42202 values without a value schema, 42203 data that does not match
// its schema, 42205 an inline schema that does not parse, 42207 a schema id that names no schema of that type.
// The keys and values are written into one buffer as one batch's records section, framed as they are written (as
// the binary scanner lays out its records), so the request is produced and answered as a scanned binary one, with no
// per-record Buffer or object. A body the schema body scanner read (v2-schema-body.ts: its syntax and shape checked, its keys
// and values left as text) is encoded from that text, with the same records and refusals as the parsed body.
import { BrookError, errors } from '../../common/brook-error.js';
import type { ResolvedSchema, SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import type { SchemaType } from '../../application/schemas/schema-types.js';
import {
  encodeWireFormatSpans,
  encodeWireFormatTextSpans,
  type SpanSchema,
  type WireFormatSpans,
} from '../../application/schemas/wire-format-spans.js';
import { LaidOutRecords } from '../../application/produce/laid-out-records.js';
import { v2SchemaRecords, type V2Record } from './produce-records.schema.js';
import { ScannedSchemaBody } from './v2-schema-body.js';

const SCHEMA_MEDIA_TYPES: ReadonlyArray<[string, SchemaType]> = [
  ['application/vnd.kafka.avro.v2+json', 'AVRO'],
  ['application/vnd.kafka.jsonschema.v2+json', 'JSON'],
  ['application/vnd.kafka.protobuf.v2+json', 'PROTOBUF'],
];

/** The schema type of a v2 produce content type; undefined for the binary and json formats. */
export function v2SchemaType(contentType: string | undefined): SchemaType | undefined {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return SCHEMA_MEDIA_TYPES.find(([name]) => name === mediaType)?.[1];
}

export interface V2SchemaProduce {
  /** The records with their keys and values in the wire format, framed as one batch's records section. */
  records: LaidOutRecords;
  keySchemaId: number | null;
  valueSchemaId: number | null;
}

/**
 * The records of a v2 produce body in a schema format, their schemas found (or registered) first. Like the binary
 * scanner's records, they are laid out as one batch's records section, with no Buffer or object per record.
 */
export async function v2SchemaRecordsEncoded(
  serde: SchemaSerde,
  topic: string,
  schemaType: SchemaType,
  body: unknown,
): Promise<V2SchemaProduce> {
  const scanned = body instanceof ScannedSchemaBody ? body : null;
  const records = scanned === null ? v2SchemaRecords(body) : null;
  const member = (name: 'key_schema' | 'key_schema_id' | 'value_schema' | 'value_schema_id') =>
    scanned === null ? (body as Record<string, unknown>)[name] : scanned.member(name);
  const present = (field: 'key' | 'value') =>
    records === null
      ? scanned!.has(field)
      : records.some((record) => record[field] !== undefined && record[field] !== null);
  const keySchema = await schemaOf(serde, topic, schemaType, true, member('key_schema'), member('key_schema_id'));
  if (keySchema === null && present('key')) {
    throw new BrookError(422, 42201, 'Request includes keys but does not include key schema');
  }
  const valueSchema = await schemaOf(
    serde,
    topic,
    schemaType,
    false,
    member('value_schema'),
    member('value_schema_id'),
  );
  if (valueSchema === null && present('value')) {
    throw new BrookError(422, 42202, 'Request includes values but does not include value schema');
  }
  return {
    records:
      scanned === null
        ? schemaRecordsLaidOut(records!, keySchema, valueSchema)
        : scannedSchemaRecordsLaidOut(scanned, keySchema, valueSchema),
    keySchemaId: keySchema?.id ?? null,
    valueSchemaId: valueSchema?.id ?? null,
  };
}

/** schemaRecordsLaidOut for the records of a scanned body, encoded from their text: the same records. */
export function scannedSchemaRecordsLaidOut(
  body: ScannedSchemaBody,
  keySchema: SpanSchema | null,
  valueSchema: SpanSchema | null,
): LaidOutRecords {
  const spans = encodeWireFormatTextSpans(body.count, keySchema, valueSchema, body.fields);
  return laidOut(spans, body.count, (i) => body.partitions?.[i]);
}

/**
 * The records' keys and values in the wire format, framed as one batch's records section (what
 * ProduceService.produceScanned takes); a schema is null only when no record has that field. Throws 42203 for the
 * first key or value that does not match its schema.
 */
export function schemaRecordsLaidOut(
  records: readonly V2Record[],
  keySchema: SpanSchema | null,
  valueSchema: SpanSchema | null,
): LaidOutRecords {
  const count = records.length;
  const spans = encodeWireFormatSpans(
    count,
    keySchema,
    (i) => records[i].key,
    valueSchema,
    (i) => records[i].value,
  );
  return laidOut(spans, count, (i) => records[i].partition);
}

/** The spans (already framed as one batch's records section), with each record's own partition (when any has one). */
function laidOut(
  framed: WireFormatSpans,
  count: number,
  partitionOf: (index: number) => number | null | undefined,
): LaidOutRecords {
  if (count === 0) throw new RangeError('a record batch holds at least one record');
  let partitions: Array<number | null> | null = null;
  let keyed = false;
  for (let i = 0; i < count; i++) {
    const partition = partitionOf(i);
    if (partition !== undefined && partition !== null) {
      partitions ??= new Array<number | null>(count).fill(null);
      partitions[i] = partition;
    }
    if (framed.keyLength[i] >= 0) keyed = true;
  }
  return new LaidOutRecords(
    count,
    framed.data,
    framed.end,
    framed.keyAt,
    framed.keyLength,
    framed.valueAt,
    framed.valueLength,
    partitions,
    keyed,
  );
}

/** The key's or value's schema: by id when one is given (a number, or digits as Confluent's clients also send). */
async function schemaOf(
  serde: SchemaSerde,
  topic: string,
  schemaType: SchemaType,
  isKey: boolean,
  schemaText: unknown,
  schemaId: unknown,
): Promise<ResolvedSchema | null> {
  const field = isKey ? 'key' : 'value';
  if (schemaId !== undefined && schemaId !== null) {
    const id = typeof schemaId === 'string' && /^\d{1,10}$/.test(schemaId) ? Number(schemaId) : schemaId;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 0x7fff_ffff) {
      throw errors.unprocessable(`${field}_schema_id must be a schema id.`);
    }
    return serde.resolve({ topic, isKey, choice: { by: 'id', id }, strategy: 'TOPIC_NAME', schemaType });
  }
  if (schemaText === undefined || schemaText === null) return null;
  if (typeof schemaText !== 'string') throw errors.unprocessable(`${field}_schema must be a string.`);
  return serde.resolve({
    topic,
    isKey,
    choice: { by: 'inline', schemaType, schema: schemaText },
    strategy: 'TOPIC_NAME',
    schemaType,
  });
}
