// Record keys and values read back in a schema format (the read paths' `format=avro|jsonschema|protobuf`, a v2
// consumer instance's format): bytes in Confluent's wire format decoded with the schema their id names, to the JSON
// the REST Proxy answers (Avro's JSON encoding, the JSON document, proto3 JSON). A field that cannot be decoded
// gets an error of its own, and the other fields and records are answered as usual: 40403 when its schema id is
// not in the registry, 42207 when it is not in the wire format, its schema is of another type than the format,
// or its payload does not match the schema.
import type { JsonValue, ParsedSchema } from './parsed-schema.js';
import { decodeRecord, type SchemaLookup } from './record-codec.js';
import { errorText } from './schema-errors.js';
import type { SchemaType } from './schema-types.js';
import { decodeWireHeader } from './wire-format.js';

export const SCHEMA_READ_FORMATS = ['avro', 'jsonschema', 'protobuf'] as const;
export type SchemaReadFormat = (typeof SCHEMA_READ_FORMATS)[number];

/** The registry's schema type each format reads. */
export const SCHEMA_TYPE_OF_FORMAT: Readonly<Record<SchemaReadFormat, SchemaType>> = {
  avro: 'AVRO',
  jsonschema: 'JSON',
  protobuf: 'PROTOBUF',
};

export function isSchemaReadFormat(format: string): format is SchemaReadFormat {
  return (SCHEMA_READ_FORMATS as readonly string[]).includes(format);
}

export interface FieldError {
  readonly error_code: number;
  readonly message: string;
}

export type DecodedField =
  | { readonly ok: true; readonly data: JsonValue; readonly schemaId: number }
  | { readonly ok: false; readonly error: FieldError; readonly schemaId: number | null };

const DESERIALIZATION_CODE = 42207;

const failure = (schemaId: number | null, error_code: number, message: string): DecodedField => ({
  ok: false,
  schemaId,
  error: { error_code, message },
});

export function decodeField(bytes: Buffer, format: SchemaReadFormat, lookup: SchemaLookup): DecodedField {
  const header = decodeWireHeader(bytes);
  if (!header.ok) return failure(null, DESERIALIZATION_CODE, `Error deserializing the record: ${header.message}`);
  const { schemaId } = header;
  let schema: ParsedSchema | undefined;
  try {
    schema = lookup(schemaId);
  } catch (error) {
    return failure(schemaId, DESERIALIZATION_CODE, `Error deserializing the record: ${errorText(error)}`);
  }
  if (schema === undefined) return failure(schemaId, 40403, `Schema ${schemaId} not found`);
  const expected = SCHEMA_TYPE_OF_FORMAT[format];
  if (schema.schemaType !== expected) {
    return failure(
      schemaId,
      DESERIALIZATION_CODE,
      `Error deserializing the record: schema ${schemaId} is a ${schema.schemaType} schema, and the format is ${format}`,
    );
  }
  const decoded = decodeRecord(bytes, () => schema);
  if (decoded.ok) return { ok: true, data: decoded.data, schemaId };
  return failure(schemaId, DESERIALIZATION_CODE, `Error deserializing the record: ${decoded.message}`);
}

/** The schema id a field's bytes name, or undefined when they are not in the wire format. */
export function schemaIdOf(bytes: Buffer): number | undefined {
  const header = decodeWireHeader(bytes);
  return header.ok ? header.schemaId : undefined;
}
