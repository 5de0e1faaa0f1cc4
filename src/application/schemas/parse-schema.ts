// The entry point of the schema layer: a schema as given (type, text, references) to its parsed form, or an
// InvalidSchemaError (42201) saying why not; and the fingerprint by which the registry recognises a schema it
// already holds ("register returns the existing id"). Pure: references come from the caller's resolver.
import { createHash } from 'node:crypto';
import { parseAvroSchema } from './avro-schema.js';
import { parseJsonSchema } from './json-schema.js';
import type { ParsedSchema } from './parsed-schema.js';
import { parseProtobufSchema } from './protobuf-schema.js';
import { errorText, invalidSchema, InvalidSchemaError } from './schema-errors.js';
import { resolveReferences } from './schema-references.js';
import type { SchemaInput, SchemaReference, SchemaReferenceResolver } from './schema-types.js';

export function parseSchema(input: SchemaInput, resolver: SchemaReferenceResolver): ParsedSchema {
  if (typeof input.schema !== 'string') throw invalidSchema({ ...input, schema: '' }, 'the schema must be a string');
  const references = resolveReferences(input, resolver);
  try {
    if (input.schemaType === 'AVRO') return parseAvroSchema(input, references);
    if (input.schemaType === 'JSON') return parseJsonSchema(input, references);
    if (input.schemaType === 'PROTOBUF') return parseProtobufSchema(input, references);
  } catch (error) {
    if (error instanceof InvalidSchemaError) throw error;
    throw invalidSchema(input, errorText(error));
  }
  throw invalidSchema(input, `unknown schema type ${String(input.schemaType)}`);
}

function compareReferences(a: SchemaReference, b: SchemaReference): number {
  const key = (r: SchemaReference) => [r.name, r.subject, String(r.version).padStart(12, '0')].join('\u0000');
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/**
 * SHA-256 (hex) of the schema type, its canonical text (normalized with `normalize`) and its references (sorted
 * and without duplicates with `normalize`, as Confluent's normalization does): equal for the schemas Confluent
 * treats as one, stable across processes and versions of this code as long as the canonical texts are.
 */
export function schemaFingerprint(schema: ParsedSchema, normalize: boolean): string {
  let references = [...schema.references];
  if (normalize) {
    references.sort(compareReferences);
    references = references.filter((r, i) => i === 0 || compareReferences(references[i - 1], r) !== 0);
  }
  const text = normalize ? schema.normalized : schema.canonical;
  const hash = createHash('sha256');
  hash.update(`${schema.schemaType}\n`);
  hash.update(`${text}\n`);
  hash.update(JSON.stringify(references.map((r) => [r.name, r.subject, r.version])));
  return hash.digest('hex');
}
