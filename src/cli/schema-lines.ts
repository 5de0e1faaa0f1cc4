// The console producer's lines in a schema format (`--format avro|jsonschema|protobuf`): each key or value is a
// JSON document (Avro's JSON encoding for Avro, unions as {"string": "x"}; the document itself for JSON Schema;
// proto3 JSON for Protobuf), sent through v3 produce with the schema it is checked and encoded with: the id the
// schema file was registered under (`{schema_id, data}`), or else the subject's latest version (`{subject, data}`).
// A line that is not JSON is an error for that line only; the broker refuses data that does not fit the schema.

export type SchemaFormat = 'avro' | 'jsonschema' | 'protobuf';
export const SCHEMA_FORMATS: readonly SchemaFormat[] = ['avro', 'jsonschema', 'protobuf'];

/** The registry's schemaType of each format. */
export const REGISTRY_SCHEMA_TYPE: Readonly<Record<SchemaFormat, 'AVRO' | 'JSON' | 'PROTOBUF'>> = {
  avro: 'AVRO',
  jsonschema: 'JSON',
  protobuf: 'PROTOBUF',
};

/** Which schema a key or value is sent with. */
export type FieldSchema = { schemaId: number } | { subject: string };

export type SchemaFieldBody = { schema_id: number; data: unknown } | { subject: string; data: unknown };

export type SchemaFieldResult = { ok: true; field: SchemaFieldBody } | { ok: false; message: string };

/** The v3 key or value of one line's `text` (a JSON document) with `schema`. */
export function schemaField(text: string, schema: FieldSchema, what: 'key' | 'value'): SchemaFieldResult {
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, message: `the ${what} is not JSON (${(error as Error).message})` };
  }
  return {
    ok: true,
    field: 'schemaId' in schema ? { schema_id: schema.schemaId, data } : { subject: schema.subject, data },
  };
}

/** Confluent's default subject (TopicNameStrategy). */
export function topicSubject(topic: string, what: 'key' | 'value'): string {
  return `${topic}-${what}`;
}
