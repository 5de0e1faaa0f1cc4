// The vocabulary of the schema layer: schema types as Confluent's Schema Registry names them, references to other
// subjects' schemas, the port through which the caller supplies referenced schemas, and the bounds that keep a
// schema's reference graph finite. Nothing here does I/O: the registry's storage implements the resolver.

/** Confluent's schema types. The REST Proxy's `JSONSCHEMA` is the registry's `JSON` (see parseSchemaType). */
export type SchemaType = 'AVRO' | 'JSON' | 'PROTOBUF';

export const SCHEMA_TYPES: readonly SchemaType[] = ['AVRO', 'JSON', 'PROTOBUF'];

/** A schema type from an API: the registry's names, the REST Proxy's JSONSCHEMA, case-insensitive; else undefined. */
export function parseSchemaType(name: string): SchemaType | undefined {
  const upper = name.toUpperCase();
  if (upper === 'JSONSCHEMA') return 'JSON';
  return (SCHEMA_TYPES as readonly string[]).includes(upper) ? (upper as SchemaType) : undefined;
}

/**
 * One entry of a schema's `references`: the name the schema uses for it (an Avro full name, a JSON Schema `$ref`
 * URL, a Protobuf import path), and the subject and version that hold it.
 */
export interface SchemaReference {
  readonly name: string;
  readonly subject: string;
  readonly version: number;
}

/** A schema as the registry stores it: what a reference resolves to. */
export interface StoredSchema {
  readonly schemaType: SchemaType;
  readonly schema: string;
  readonly references: readonly SchemaReference[];
}

/** Supplied by the caller: the schema registered under a subject and version, or undefined when there is none. */
export interface SchemaReferenceResolver {
  resolve(subject: string, version: number): StoredSchema | undefined;
}

/** A resolver for schemas without references. */
export const NO_REFERENCES: SchemaReferenceResolver = { resolve: () => undefined };

/** How deep references may chain (a schema referencing a schema referencing ...). */
export const MAX_REFERENCE_DEPTH = 32;

/** How many distinct referenced schemas one schema may pull in, over all depths. */
export const MAX_REFERENCED_SCHEMAS = 256;

/** How deeply a JSON document (an Avro or JSON Schema schema) may nest objects and arrays. */
export const MAX_SCHEMA_NESTING_DEPTH = 256;

/** The input of parseSchema: a schema as given at registration or produce time. */
export interface SchemaInput {
  readonly schemaType: SchemaType;
  readonly schema: string;
  readonly references?: readonly SchemaReference[];
}

/** Renders references the way Confluent's messages do: `[{name='a.proto', subject='a', version=1}]`. */
export function describeReferences(references: readonly SchemaReference[]): string {
  return `[${references.map((r) => `{name='${r.name}', subject='${r.subject}', version=${r.version}}`).join(', ')}]`;
}
