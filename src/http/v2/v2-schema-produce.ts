// REST Proxy v2 produce in the schema formats, application/vnd.kafka.{avro,jsonschema,protobuf}.v2+json:
//   {key_schema?, key_schema_id?, value_schema?, value_schema_id?, records: [{key?, value?, partition?}]}
// An inline schema is looked up, or registered, under <topic>-key / <topic>-value (Confluent's TopicNameStrategy);
// an id names a registered schema (of the format's type). Keys and values are the format's JSON (Avro's JSON
// encoding, the JSON document, proto3 JSON), stored in Confluent's wire format. Confluent's refusals, for the whole
// request: the records' shape as in the json format (produce-records.schema.ts), 42201 keys without a key schema, 42202 values without a value schema, 42203 data that does not match
// its schema, 42205 an inline schema that does not parse, 42207 a schema id that names no schema of that type.
import { BrookError, errors } from '../../common/brook-error.js';
import type { ProduceInput } from '../../application/produce/produce.service.js';
import type { ResolvedSchema, SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import type { SchemaType } from '../../application/schemas/schema-types.js';
import { v2SchemaRecords } from './produce-records.schema.js';

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
  inputs: ProduceInput[];
  keySchemaId: number | null;
  valueSchemaId: number | null;
}

export async function v2SchemaInputs(
  serde: SchemaSerde,
  topic: string,
  schemaType: SchemaType,
  body: unknown,
  partition: number | undefined,
  now: number,
): Promise<V2SchemaProduce> {
  const records = v2SchemaRecords(body);
  const object = body as Record<string, unknown>;
  const present = (field: 'key' | 'value') =>
    records.some((record) => record[field] !== undefined && record[field] !== null);
  const keySchema = await schemaOf(serde, topic, schemaType, true, object.key_schema, object.key_schema_id);
  if (keySchema === null && present('key')) {
    throw new BrookError(422, 42201, 'Request includes keys but does not include key schema');
  }
  const valueSchema = await schemaOf(serde, topic, schemaType, false, object.value_schema, object.value_schema_id);
  if (valueSchema === null && present('value')) {
    throw new BrookError(422, 42202, 'Request includes values but does not include value schema');
  }
  const encode = (schema: ResolvedSchema | null, data: unknown) =>
    schema === null || data === undefined || data === null ? null : serde.encode(schema, data);
  return {
    inputs: records.map((record) => ({
      key: encode(keySchema, record.key),
      value: encode(valueSchema, record.value),
      headers: [],
      timestamp: now,
      partition: partition ?? record.partition,
    })),
    keySchemaId: keySchema?.id ?? null,
    valueSchemaId: valueSchema?.id ?? null,
  };
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
