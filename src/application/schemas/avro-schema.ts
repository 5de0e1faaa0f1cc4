// Avro schemas: parsed and checked by avsc (names, defaults, duplicate definitions), with referenced schemas
// defined first in the same registry of named types so that the schema may use their names. The canonical text is
// written from the schema's JSON, not from avsc's export (which drops logical types, enum defaults and custom
// attributes): named types under their full names and never inlined twice, a primitive without attributes as its
// bare name, the keys Avro defines in one fixed order, `order: "ascending"` (the default) left out. The normalized
// text also sorts custom attributes and aliases.
import type avro from 'avsc';
import { avsc } from './schema-libraries.js';
import { errorText, invalidSchema } from './schema-errors.js';
import type { ResolvedReference } from './schema-references.js';
import { MAX_SCHEMA_NESTING_DEPTH, type SchemaInput } from './schema-types.js';
import { nestsDeeperThan, type ParsedAvroSchema } from './parsed-schema.js';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED = new Set(['record', 'error', 'enum', 'fixed']);
/** Avro's own keys, in the order canonical texts write them; every other key is a custom attribute. */
const KEY_ORDER = ['type', 'name', 'doc', 'fields', 'symbols', 'items', 'values', 'size', 'default', 'aliases'];
const FIELD_KEY_ORDER = ['name', 'type', 'doc', 'default', 'order', 'aliases'];
const OWN_KEYS = new Set([...KEY_ORDER, 'namespace']);
const FIELD_OWN_KEYS = new Set(FIELD_KEY_ORDER);

type Json = unknown;
type JsonObject = Record<string, Json>;

function parseJson(input: SchemaInput, text: string, what: string): Json {
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidSchema(input, `${what} is not JSON: ${errorText(error)}`);
  }
  if (nestsDeeperThan(json, MAX_SCHEMA_NESTING_DEPTH)) {
    throw invalidSchema(input, `${what} nests deeper than ${MAX_SCHEMA_NESTING_DEPTH} levels`);
  }
  return json;
}

export function parseAvroSchema(input: SchemaInput, references: readonly ResolvedReference[]): ParsedAvroSchema {
  const registry: Record<string, avro.Type> = {};
  const options = { registry, wrapUnions: true as const };
  for (const reference of references) {
    const json = parseJson(input, reference.stored.schema, `reference ${reference.names[0]}`);
    try {
      avsc().Type.forSchema(json as avro.Schema, options);
    } catch (error) {
      throw invalidSchema(input, `reference ${reference.names[0]}: ${errorText(error)}`);
    }
  }
  const json = parseJson(input, input.schema, 'the schema');
  let avroType: avro.Type;
  try {
    avroType = avsc().Type.forSchema(json as avro.Schema, options);
  } catch (error) {
    throw invalidSchema(input, errorText(error));
  }
  const unbounded = arrayOfNothing(avroType);
  if (unbounded) {
    throw invalidSchema(
      input,
      `an array of ${unbounded} writes no bytes per item, so its item count cannot be bounded`,
    );
  }
  const definedNames = new Set(Object.keys(registry).filter((name) => !PRIMITIVES.has(name)));
  return {
    schemaType: 'AVRO',
    schema: input.schema,
    references: input.references ?? [],
    canonical: JSON.stringify(canonicalAvro(json, definedNames, false)),
    normalized: JSON.stringify(canonicalAvro(json, definedNames, true)),
    avroType,
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- avsc's typings do not declare its types' fields. */
/** Whether every value of `type` encodes to no bytes at all (null, fixed of size 0, records of only such fields). */
function writesNothing(type: any, seen: Set<unknown> = new Set()): boolean {
  if (type.typeName === 'null') return true;
  if (type.typeName === 'fixed') return type.size === 0;
  if (type.typeName !== 'record' && type.typeName !== 'error') return false;
  if (seen.has(type)) return false;
  seen.add(type);
  return type.fields.every((field: any) => writesNothing(field.type, seen));
}

/**
 * The item type of an array whose items write no bytes, if the schema has one: decoding such an array could be
 * made to build billions of items from a few bytes of count, so the registry refuses the schema.
 */
function arrayOfNothing(root: any): string | undefined {
  const seen = new Set<unknown>();
  const stack: any[] = [root];
  while (stack.length > 0) {
    const type = stack.pop();
    if (seen.has(type)) continue;
    seen.add(type);
    if (type.typeName === 'array') {
      if (writesNothing(type.itemsType)) return JSON.stringify(type.itemsType.schema());
      stack.push(type.itemsType);
    } else if (type.typeName === 'map') stack.push(type.valuesType);
    else if (String(type.typeName).startsWith('union')) stack.push(...type.types);
    else if (type.typeName === 'record' || type.typeName === 'error')
      stack.push(...type.fields.map((f: any) => f.type));
  }
  return undefined;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function qualify(name: string, namespace: string): string {
  return name.includes('.') || namespace === '' ? name : `${namespace}.${name}`;
}

function namespaceOf(fullName: string): string {
  const dot = fullName.lastIndexOf('.');
  return dot < 0 ? '' : fullName.slice(0, dot);
}

/** The JSON form of `schema` with every name made full, keys in Avro's order, attributes sorted when `sorted`. */
export function canonicalAvro(schema: Json, definedNames: ReadonlySet<string>, sorted: boolean): Json {
  const reference = (name: string, namespace: string): string => {
    if (PRIMITIVES.has(name) || name.includes('.')) return name;
    const qualified = qualify(name, namespace);
    return definedNames.has(qualified) || !definedNames.has(name) ? qualified : name;
  };

  const withAttributes = (own: JsonObject, node: JsonObject, isField = false): JsonObject => {
    const ownKeys = isField ? FIELD_OWN_KEYS : OWN_KEYS;
    const custom = Object.keys(node).filter((key) => !ownKeys.has(key));
    if (sorted) custom.sort();
    const out: JsonObject = {};
    for (const key of isField ? FIELD_KEY_ORDER : KEY_ORDER) if (own[key] !== undefined) out[key] = own[key];
    for (const key of custom) out[key] = node[key];
    return out;
  };

  const aliases = (node: JsonObject, namespace: string, qualifyThem: boolean): Json => {
    if (!Array.isArray(node.aliases)) return undefined;
    const names = (node.aliases as string[]).map((alias) => (qualifyThem ? qualify(alias, namespace) : alias));
    return sorted ? [...names].sort() : names;
  };

  const walk = (node: Json, namespace: string): Json => {
    if (typeof node === 'string') return reference(node, namespace);
    if (Array.isArray(node)) return node.map((branch) => walk(branch, namespace));
    if (typeof node !== 'object' || node === null) return node;
    const object = node as JsonObject;
    const type = object.type;
    if (typeof type !== 'string') return walk(type, namespace);
    if (PRIMITIVES.has(type) || !['array', 'map', ...NAMED].includes(type)) {
      const resolved = reference(type, namespace);
      const hasAttributes = Object.keys(object).some((key) => key !== 'type');
      return hasAttributes ? withAttributes({ type: resolved }, object) : resolved;
    }
    if (type === 'array') return withAttributes({ type, items: walk(object.items, namespace) }, object);
    if (type === 'map') return withAttributes({ type, values: walk(object.values, namespace) }, object);
    const explicitNamespace = typeof object.namespace === 'string' ? object.namespace : namespace;
    const fullName = qualify(object.name as string, explicitNamespace);
    const inner = namespaceOf(fullName);
    const own: JsonObject = { type, name: fullName, doc: object.doc, aliases: aliases(object, inner, true) };
    if (type === 'enum') Object.assign(own, { symbols: object.symbols, default: object.default });
    if (type === 'fixed') own.size = object.size;
    if (type === 'record' || type === 'error') {
      own.fields = (object.fields as JsonObject[]).map((field) =>
        withAttributes(
          {
            name: field.name,
            type: walk(field.type, inner),
            doc: field.doc,
            default: field.default,
            aliases: aliases(field, inner, false),
            order: field.order === 'ascending' ? undefined : field.order,
          },
          field,
          true,
        ),
      );
    }
    return withAttributes(own, object);
  };

  return walk(schema, '');
}
