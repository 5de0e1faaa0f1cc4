// The registry's read answers in Confluent's shapes, from a replayed state (registry-state.ts). Pure. Confluent
// leaves `schemaType` out for AVRO (its default) and `references` out when there are none; this does the same.
import type { JsonValue } from './parsed-schema.js';
import { registryErrors } from './registry-errors.js';
import type { SchemaVersionValue } from './registry-records.js';
import type { RegistryState, SchemaById } from './registry-state.js';
import type { SchemaReference, SchemaType } from './schema-types.js';

/** A version as a path parameter: 1 to 2^31-1, `latest`, or -1 (latest). */
export type VersionId = number | 'latest';

const INT_MAX = 0x7fff_ffff;

export function parseVersionId(text: string): VersionId {
  if (text === 'latest') return 'latest';
  if (/^-?\d{1,10}$/.test(text)) {
    const version = Number(text);
    if (version === -1) return 'latest';
    if (version >= 1 && version <= INT_MAX) return version;
  }
  throw registryErrors.invalidVersion(text);
}

function typeAndReferences(schemaType: SchemaType, references: readonly SchemaReference[]) {
  return {
    ...(schemaType === 'AVRO' ? {} : { schemaType }),
    ...(references.length === 0
      ? {}
      : { references: references.map((r) => ({ name: r.name, subject: r.subject, version: r.version })) }),
  };
}

/** GET /subjects/{s}/versions/{v}, POST /subjects/{s}: the version with its schema. */
export function versionAnswer(value: SchemaVersionValue): JsonValue {
  return {
    subject: value.subject,
    version: value.version,
    id: value.id,
    ...typeAndReferences(value.schemaType, value.references),
    schema: value.schema,
  };
}

/** GET /schemas/ids/{id}. */
export function schemaByIdAnswer(schema: SchemaById): JsonValue {
  return { ...typeAndReferences(schema.schemaType, schema.references), schema: schema.schema };
}

/** The version a GET names, or Confluent's 40401 (no such subject) / 40402 (no such version). */
export function versionOrThrow(
  state: RegistryState,
  subject: string,
  version: VersionId,
  includeDeleted: boolean,
): SchemaVersionValue {
  const found = state.version(subject, version, includeDeleted);
  if (found !== undefined) return found;
  if (!state.hasSubject(subject, includeDeleted)) throw registryErrors.subjectNotFound(subject);
  throw registryErrors.versionNotFound(version);
}

export function schemaByIdOrThrow(state: RegistryState, id: number): SchemaById {
  const schema = state.schemaById(id);
  if (schema === undefined) throw registryErrors.schemaNotFound(id);
  return schema;
}
