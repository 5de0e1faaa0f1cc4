// The request bodies of the registry's routes, checked as Confluent's registry checks them: a schema to register,
// look up or test ({schema, schemaType?, references?, id?, version?}; AVRO when schemaType is absent), a
// compatibility level ({compatibility} or {compatibilityLevel}, any case; normalize?) and a mode ({mode}).
import { BrookError, errors } from '../common/brook-error.js';
import { parseCompatibilityLevel } from '../application/schemas/compatibility.js';
import { INVALID_SCHEMA_CODE } from '../application/schemas/schema-errors.js';
import { registryErrors } from '../application/schemas/registry-errors.js';
import {
  REGISTRY_MODES,
  type CompatibilityConfig,
  type RegistryMode,
} from '../application/schemas/registry-records.js';
import { SCHEMA_TYPES, type SchemaInput, type SchemaReference } from '../application/schemas/schema-types.js';

/** References one schema may list (schema-core also bounds the whole graph). */
const REFERENCES_MAX = 256;
const INT_MAX = 0x7fff_ffff;

function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalidRequest('The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

const invalidSchemaRequest = (message: string) => new BrookError(422, INVALID_SCHEMA_CODE, message);

export interface SchemaBody {
  schema: SchemaInput;
  id?: number;
  version?: number;
}

export function parseSchemaBody(body: unknown): SchemaBody {
  const object = bodyObject(body);
  if (typeof object.schema !== 'string' || object.schema.trim().length === 0) {
    throw invalidSchemaRequest('Empty schema: the body needs a schema string.');
  }
  const typeName = object.schemaType ?? 'AVRO';
  if (typeof typeName !== 'string' || !(SCHEMA_TYPES as readonly string[]).includes(typeName.toUpperCase())) {
    throw invalidSchemaRequest(`Invalid schema type ${JSON.stringify(typeName)}: use AVRO, JSON or PROTOBUF.`);
  }
  const references = parseReferences(object.references);
  // Confluent's "not given": an id of -1, a version of 0 or -1
  const id = optionalPositive(object.id, 'id', [-1], (message) => invalidSchemaRequest(message));
  const version = optionalPositive(
    object.version,
    'version',
    [0, -1],
    (message) => new BrookError(422, 42202, message),
  );
  return {
    schema: { schemaType: typeName.toUpperCase() as SchemaInput['schemaType'], schema: object.schema, references },
    ...(id === undefined ? {} : { id }),
    ...(version === undefined ? {} : { version }),
  };
}

function parseReferences(raw: unknown): SchemaReference[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidSchemaRequest('references must be an array.');
  if (raw.length > REFERENCES_MAX)
    throw invalidSchemaRequest(`A schema may list at most ${REFERENCES_MAX} references.`);
  return raw.map((entry: unknown, i) => {
    const reference = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const { name, subject, version } = reference;
    if (typeof name !== 'string' || typeof subject !== 'string' || typeof version !== 'number') {
      throw invalidSchemaRequest(`references[${i}] must be {name, subject, version}.`);
    }
    return { name, subject, version };
  });
}

function optionalPositive(
  raw: unknown,
  field: string,
  absent: readonly number[],
  fail: (message: string) => BrookError,
): number | undefined {
  if (raw === undefined || raw === null || absent.includes(raw as number)) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > INT_MAX) {
    throw fail(`${field} must be an integer from 1 to ${INT_MAX}.`);
  }
  return raw;
}

export function parseConfigBody(body: unknown): CompatibilityConfig {
  const object = bodyObject(body);
  const raw = object.compatibility ?? object.compatibilityLevel;
  const level = typeof raw === 'string' ? parseCompatibilityLevel(raw) : undefined;
  if (level === undefined) throw registryErrors.invalidCompatibility();
  if (object.normalize !== undefined && object.normalize !== null && typeof object.normalize !== 'boolean') {
    throw errors.invalidRequest('normalize must be true or false.');
  }
  return typeof object.normalize === 'boolean'
    ? { compatibilityLevel: level, normalize: object.normalize }
    : { compatibilityLevel: level };
}

export function parseModeBody(body: unknown): RegistryMode {
  const raw = bodyObject(body).mode;
  const mode = typeof raw === 'string' ? raw.toUpperCase() : raw;
  if (!(REGISTRY_MODES as readonly unknown[]).includes(mode)) throw registryErrors.invalidMode();
  return mode as RegistryMode;
}
