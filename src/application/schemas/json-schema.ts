// JSON Schema schemas, in the drafts Confluent supports (04, 06, 07, 2019-09, 2020-12; chosen by `$schema`, draft-07
// when there is none), compiled by ajv with formats checked. Referenced schemas are added to the same ajv instance
// under their reference names, so `{"$ref": "customer.json"}` finds the schema referenced as `customer.json`.
// Unknown keywords are allowed (Confluent's own `connect.*` annotations are common). The canonical text is the
// document without layout; the normalized text also sorts every object's keys, whose order JSON gives no meaning.
import type { Options } from 'ajv';
import { errorText, invalidSchema } from './schema-errors.js';
import { jsonSchemaLibrary, type JsonSchemaLibrary } from './schema-libraries.js';
import type { ResolvedReference } from './schema-references.js';
import { MAX_SCHEMA_NESTING_DEPTH, type SchemaInput } from './schema-types.js';
import { nestsDeeperThan, type JsonValue, type ParsedJsonSchema } from './parsed-schema.js';

type Ajv = InstanceType<JsonSchemaLibrary['Ajv']>;

export type JsonSchemaDraft = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

const DRAFT_MARKERS: ReadonlyArray<[string, JsonSchemaDraft]> = [
  ['draft-04', 'draft-04'],
  ['draft-06', 'draft-06'],
  ['draft-07', 'draft-07'],
  ['2019-09', '2019-09'],
  ['2020-12', '2020-12'],
];

/** The draft a document declares with `$schema`; draft-07 without one; undefined for a `$schema` not supported. */
export function jsonSchemaDraft(document: JsonValue): JsonSchemaDraft | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return 'draft-07';
  const declared = document.$schema;
  if (declared === undefined) return 'draft-07';
  if (typeof declared !== 'string') return undefined;
  return DRAFT_MARKERS.find(([marker]) => declared.includes(marker))?.[1];
}

function newAjv(draft: JsonSchemaDraft): Ajv {
  const options: Options = { strict: false, allErrors: true, validateFormats: true, logger: false };
  const { Ajv, Ajv2019, Ajv2020, AjvDraft04, addFormats, draft06MetaSchema } = jsonSchemaLibrary();
  let ajv: Ajv;
  if (draft === 'draft-04') ajv = new AjvDraft04(options);
  else if (draft === '2019-09') ajv = new Ajv2019(options);
  else if (draft === '2020-12') ajv = new Ajv2020(options);
  else ajv = new Ajv(options);
  if (draft === 'draft-06') ajv.addMetaSchema(draft06MetaSchema);
  addFormats(ajv);
  return ajv;
}

function parseDocument(input: SchemaInput, text: string, what: string): JsonValue {
  let document: JsonValue;
  try {
    document = JSON.parse(text) as JsonValue;
  } catch (error) {
    throw invalidSchema(input, `${what} is not JSON: ${errorText(error)}`);
  }
  if (typeof document !== 'boolean' && (typeof document !== 'object' || document === null || Array.isArray(document))) {
    throw invalidSchema(input, `${what} must be a JSON object or a boolean`);
  }
  if (nestsDeeperThan(document, MAX_SCHEMA_NESTING_DEPTH)) {
    throw invalidSchema(input, `${what} nests deeper than ${MAX_SCHEMA_NESTING_DEPTH} levels`);
  }
  return document;
}

export function parseJsonSchema(input: SchemaInput, references: readonly ResolvedReference[]): ParsedJsonSchema {
  const document = parseDocument(input, input.schema, 'the schema');
  const draft = jsonSchemaDraft(document);
  if (!draft)
    throw invalidSchema(input, `unsupported $schema ${JSON.stringify((document as { $schema?: unknown }).$schema)}`);
  const ajv = newAjv(draft);
  const referencedDocuments = new Map<string, JsonValue>();
  for (const reference of references) {
    const [firstName, ...otherNames] = reference.names;
    const referenced = parseDocument(input, reference.stored.schema, `reference ${firstName}`);
    try {
      ajv.addSchema(referenced as object, firstName);
      for (const name of otherNames) ajv.addSchema({ $ref: firstName }, name);
    } catch (error) {
      throw invalidSchema(input, `reference ${firstName}: ${errorText(error)}`);
    }
    for (const name of reference.names) referencedDocuments.set(name, referenced);
    const id =
      typeof referenced === 'object' && referenced !== null ? (referenced as { $id?: unknown }).$id : undefined;
    if (typeof id === 'string') referencedDocuments.set(id, referenced);
  }
  let validate: ParsedJsonSchema['validate'];
  try {
    validate = ajv.compile(document as object);
  } catch (error) {
    throw invalidSchema(input, errorText(error));
  }
  return {
    schemaType: 'JSON',
    schema: input.schema,
    references: input.references ?? [],
    canonical: JSON.stringify(document),
    normalized: JSON.stringify(sortKeys(document)),
    document,
    referencedDocuments,
    validate,
  };
}

/** The value with every object's keys in code-point order. */
export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted;
}
