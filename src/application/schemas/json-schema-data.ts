// JSON Schema data: validated against its schema (formats included) and written as compact JSON text in UTF-8, as
// Confluent's serializers write it; read back by parsing the text (Confluent's deserializer does not validate by
// default, and neither does this). A refusal lists where and why, as a DataConversionError (42203).
import { DataConversionError } from './schema-errors.js';
import type { JsonValue, ParsedJsonSchema } from './parsed-schema.js';

/** How many validation errors a refusal lists. */
const MAX_LISTED_ERRORS = 10;

export function validateJsonSchemaData(schema: ParsedJsonSchema, data: unknown): void {
  if (schema.validate(data)) return;
  const errors = schema.validate.errors ?? [];
  const listed = errors
    .slice(0, MAX_LISTED_ERRORS)
    .map((error) => `#${error.instancePath}: ${error.message ?? error.keyword}`);
  const more = errors.length > MAX_LISTED_ERRORS ? `; and ${errors.length - MAX_LISTED_ERRORS} more` : '';
  throw new DataConversionError(`${listed.join('; ')}${more}`);
}

export function encodeJsonSchemaData(schema: ParsedJsonSchema, data: unknown): Buffer {
  if (data === undefined) throw new DataConversionError('no data');
  validateJsonSchemaData(schema, data);
  return Buffer.from(JSON.stringify(data), 'utf8');
}

/** Throws (SyntaxError) when the payload is not JSON text. */
export function decodeJsonSchemaData(payload: Buffer): JsonValue {
  return JSON.parse(payload.toString('utf8')) as JsonValue;
}
