// A key or value of a v3 produce request, as Confluent's REST Proxy reads it: `{type, data}` with type BINARY,
// JSON or STRING (record-format.ts), or with a schema:
//   {type: AVRO|JSONSCHEMA|PROTOBUF, schema: "...", data}   an inline schema, looked up or registered
//   {schema_id: 7, data}                                     a schema by id
//   {schema_version: 2, data} / {subject: "s", data}         a version of the subject / its latest version
// each with an optional `subject`, else the subject of `subject_name_strategy` (TOPIC_NAME, the default,
// RECORD_NAME or TOPIC_RECORD_NAME). A value with no type and none of those follows Confluent's rule: the latest
// schema of its subject when that subject exists, else BINARY as before. The delivery report gives the type and
// size, and with a schema its subject, schema_id and schema_version.
import { errors } from '../../common/brook-error.js';
import { dataToBytes, type DataType } from '../record-format.js';
import { parseSchemaType, type SchemaType } from './schema-types.js';
import { SUBJECT_NAME_STRATEGIES, subjectName, type SubjectNameStrategy } from './subject-names.js';
import type { ResolvedSchema, SchemaChoice, SchemaSerde } from './schema-serde.service.js';

export type ProducedType = DataType | 'AVRO' | 'JSONSCHEMA' | 'PROTOBUF';

export interface FieldReport {
  type: ProducedType;
  size: number;
  subject?: string;
  schema_id?: number;
  schema_version?: number;
}

export interface FieldBytes {
  bytes: Buffer | null;
  /** null: the field was absent. */
  report: FieldReport | null;
}

const PLAIN_TYPES: ReadonlySet<unknown> = new Set(['BINARY', 'JSON', 'STRING']);
type SchemaField = 'schema' | 'schema_id' | 'schema_version' | 'subject' | 'subject_name_strategy';
const REST_TYPE: Readonly<Record<SchemaType, ProducedType>> = {
  AVRO: 'AVRO',
  JSON: 'JSONSCHEMA',
  PROTOBUF: 'PROTOBUF',
};

type FieldObject = { type?: unknown; data?: unknown } & Partial<Record<SchemaField, unknown>>;

/** The bytes and report of one key or value; a Promise only when a schema must be found or registered first. */
export function v3Field(
  serde: SchemaSerde,
  topic: string,
  isKey: boolean,
  raw: unknown,
  field: string,
): FieldBytes | Promise<FieldBytes> {
  if (raw === undefined || raw === null) return { bytes: null, report: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw errors.invalidPayload(`${field} must be an object.`);
  const object = raw as FieldObject;
  if (object.type !== undefined && PLAIN_TYPES.has(object.type)) return plain(object, field);
  const schemaType = object.type === undefined ? undefined : restSchemaType(object.type, field);
  const strategy = strategyOf(object.subject_name_strategy, field);
  const subject = optionalText(object.subject, `${field}.subject`);
  const choice = choiceOf(object, schemaType, field);
  if (choice === undefined) {
    // Confluent's rule for a value without a type: the subject's latest schema when there is one, else BINARY.
    const implied = subjectName(strategy, topic, isKey, undefined);
    const latest = implied === undefined ? undefined : serde.latestCached(implied);
    if (latest === undefined) return plain(object, field);
    return encoded(serde, latest, object.data);
  }
  return serde
    .resolve({
      topic,
      isKey,
      choice,
      strategy,
      ...(subject === undefined ? {} : { subject }),
      ...(schemaType ? { schemaType } : {}),
    })
    .then((resolved) => encoded(serde, resolved, object.data));
}

function plain(object: FieldObject, field: string): FieldBytes {
  const { bytes, type } = dataToBytes(object as { type?: string; data?: unknown }, field);
  return { bytes, report: type === null ? null : { type, size: bytes?.length ?? 0 } };
}

function encoded(serde: SchemaSerde, resolved: ResolvedSchema, data: unknown): FieldBytes {
  const bytes = data === null || data === undefined ? null : serde.encode(resolved, data);
  return {
    bytes,
    report: {
      type: REST_TYPE[resolved.schema.schemaType],
      size: bytes?.length ?? 0,
      ...(resolved.subject === null ? {} : { subject: resolved.subject }),
      schema_id: resolved.id,
      ...(resolved.version === null ? {} : { schema_version: resolved.version }),
    },
  };
}

/** How the field names its schema; undefined for a field with neither a type nor a schema field. */
function choiceOf(object: FieldObject, schemaType: SchemaType | undefined, field: string): SchemaChoice | undefined {
  if (object.schema !== undefined && object.schema !== null) {
    if (typeof object.schema !== 'string') throw errors.invalidPayload(`${field}.schema must be a string.`);
    if (schemaType === undefined) {
      throw errors.invalidPayload(`${field}.schema needs a type: AVRO, JSONSCHEMA or PROTOBUF.`);
    }
    return { by: 'inline', schemaType, schema: object.schema };
  }
  const id = optionalId(object.schema_id, `${field}.schema_id`);
  if (id !== undefined) return { by: 'id', id };
  const version = optionalId(object.schema_version, `${field}.schema_version`);
  if (version !== undefined) return { by: 'version', version };
  if (schemaType !== undefined || (object.subject !== undefined && object.subject !== null)) return { by: 'latest' };
  return undefined;
}

function restSchemaType(type: unknown, field: string): SchemaType {
  const schemaType = typeof type === 'string' ? parseSchemaType(type) : undefined;
  if (schemaType === undefined) {
    throw errors.invalidPayload(`${field}.type must be BINARY, JSON, STRING, AVRO, JSONSCHEMA or PROTOBUF.`);
  }
  return schemaType;
}

function strategyOf(raw: unknown, field: string): SubjectNameStrategy {
  if (raw === undefined || raw === null) return 'TOPIC_NAME';
  if (!(SUBJECT_NAME_STRATEGIES as readonly unknown[]).includes(raw)) {
    throw errors.invalidPayload(`${field}.subject_name_strategy must be one of ${SUBJECT_NAME_STRATEGIES.join(', ')}.`);
  }
  return raw as SubjectNameStrategy;
}

function optionalText(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.length === 0) throw errors.invalidPayload(`${field} must be a non-empty string.`);
  return raw;
}

function optionalId(raw: unknown, field: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > 0x7fff_ffff) {
    throw errors.invalidPayload(`${field} must be an integer from 1 to 2^31-1.`);
  }
  return raw;
}
