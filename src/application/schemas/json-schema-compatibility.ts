// Whether a reader with one JSON Schema accepts everything a writer's JSON Schema accepted: the incompatible
// differences between them (json-schema-diff.ts), as Confluent words them.
import { ComparisonTooComplex, tooComplex, type Incompatibility } from './compatibility-types.js';
import { compareSchemas } from './json-schema-diff.js';
import { DiffContext, type JsonSchemaDifference } from './json-schema-diff-context.js';
import { jsonSchemaDraft } from './json-schema.js';
import { JsonSchemaModel } from './json-schema-model.js';
import { describeJsonSchemaChange, JSON_SCHEMA_RULES } from './json-schema-rules.js';
import type { ParsedJsonSchema } from './parsed-schema.js';

function model(schema: ParsedJsonSchema): JsonSchemaModel {
  return new JsonSchemaModel(
    schema.document,
    schema.referencedDocuments,
    jsonSchemaDraft(schema.document) ?? 'draft-07',
  );
}

/**
 * Every difference between the writer's (original) and the reader's (update) schema, compatible or not; throws
 * ComparisonTooComplex past the step bound.
 */
export function jsonSchemaDifferences(reader: ParsedJsonSchema, writer: ParsedJsonSchema): JsonSchemaDifference[] {
  const ctx = new DiffContext(compareSchemas);
  compareSchemas(ctx, model(writer).node(), model(reader).node());
  return ctx.differences;
}

export function jsonSchemaIncompatibilities(reader: ParsedJsonSchema, writer: ParsedJsonSchema): Incompatibility[] {
  let differences: JsonSchemaDifference[];
  try {
    differences = jsonSchemaDifferences(reader, writer);
  } catch (error) {
    if (error instanceof ComparisonTooComplex) return [tooComplex(error)];
    throw error;
  }
  return differences
    .filter((difference) => !JSON_SCHEMA_RULES[difference.change].compatible)
    .map((difference) => ({
      describe: (readerName, writerName) =>
        describeJsonSchemaChange(difference.change, difference.path, readerName, writerName),
    }));
}
