// A schema after parsing: the format's own model (an avsc Type, a compiled JSON Schema validator, a protobufjs
// root) beside the texts Confluent compares schemas by. `canonical` is the schema re-serialised without layout,
// comments or redundant spellings: two schemas with the same canonical text are the same schema. `normalized` also
// puts in a fixed order what carries no meaning in any order (JSON keys, custom attributes, imports, options),
// which is what `normalize=true` compares.
import type { Type as AvroType } from 'avsc';
import type { ValidateFunction } from 'ajv';
import type { ReflectionObject, Root, Type as ProtobufType } from 'protobufjs';
import type { SchemaReference, SchemaType } from './schema-types.js';

interface ParsedSchemaBase {
  readonly schemaType: SchemaType;
  /** The schema text as it was given. */
  readonly schema: string;
  readonly references: readonly SchemaReference[];
  readonly canonical: string;
  readonly normalized: string;
}

export interface ParsedAvroSchema extends ParsedSchemaBase {
  readonly schemaType: 'AVRO';
  /** Built with wrapped unions: a union value is `null` or `{"<branch name>": value}`, as in Avro's JSON encoding. */
  readonly avroType: AvroType;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ParsedJsonSchema extends ParsedSchemaBase {
  readonly schemaType: 'JSON';
  readonly document: JsonValue;
  /** Referenced schemas' documents by every name a `$ref` may use for them. */
  readonly referencedDocuments: ReadonlyMap<string, JsonValue>;
  readonly validate: ValidateFunction;
}

/** A message of the schema's own file, with the indexes that name it in Confluent's Protobuf wire format. */
export interface ProtobufMessage {
  readonly indexes: readonly number[];
  readonly type: ProtobufType;
}

export interface ParsedProtobufSchema extends ParsedSchemaBase {
  readonly schemaType: 'PROTOBUF';
  /** Every type of the schema and of its references and well-known imports, resolved. */
  readonly root: Root;
  readonly packageName: string;
  readonly syntax: 'proto2' | 'proto3';
  /** The types this schema's own file declares at its top level, in declaration order. */
  readonly fileTypes: readonly ReflectionObject[];
  /** The file's messages, depth first in declaration order (the first is the default message). */
  readonly messages: readonly ProtobufMessage[];
}

export type ParsedSchema = ParsedAvroSchema | ParsedJsonSchema | ParsedProtobufSchema;

/** Whether a JSON value nests objects and arrays deeper than `maxDepth` (checked without recursion). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
