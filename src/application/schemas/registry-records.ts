// The records of the schema registry's topic `_schemas` (one partition, compacted): every registration, deletion,
// compatibility level and mode is one record, and a broker's registry is the replay of the topic. Keys and values
// are UTF-8 JSON with their fields in a fixed order (a compacted topic keeps the last record per key *bytes*).
// The layouts follow Confluent's registry where it has one:
//
//   schema version  key   {"keytype":"SCHEMA","subject":S,"version":V,"magic":1}
//                   value {"subject":S,"version":V,"id":N,"schemaType":T,"references":[...],"schema":TEXT,
//                          "deleted":false,"fingerprint":F,"normalizedFingerprint":G}
//                   A soft delete rewrites the value with "deleted":true; a permanent delete is a tombstone (null).
//                   The two fingerprints (schema-core's, SHA-256 over type, text and references, plain and
//                   normalized) are Brook's: they let the registry recognise a schema without parsing every other.
//   compatibility   key   {"keytype":"CONFIG","subject":S|null,"magic":0}     (null subject: the global level)
//                   value {"compatibilityLevel":L} or {"compatibilityLevel":L,"normalize":B}; null deletes it
//   mode            key   {"keytype":"MODE","subject":S|null,"magic":0}
//                   value {"mode":"READWRITE"|"READONLY"|"IMPORT"}; null deletes it
//   id floor        key   {"keytype":"MAX_SCHEMA_ID","magic":0}               (Brook's own, never deleted)
//                   value {"id":N}: no schema id up to N may be handed out again. Written with every permanent
//                   delete, so that an id survives in the topic after compaction removed the last record that held it.
//
// Decoding is strict: a record that does not have this shape is a RegistryRecordFormatError (skipped on replay).
import { COMPATIBILITY_LEVELS, type CompatibilityLevel } from './compatibility.js';
import { SCHEMA_TYPES, type SchemaReference, type SchemaType } from './schema-types.js';

export const REGISTRY_MODES = ['READWRITE', 'READONLY', 'IMPORT'] as const;
export type RegistryMode = (typeof REGISTRY_MODES)[number];

/** One version of a subject, as the topic stores it. */
export interface SchemaVersionValue {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly schemaType: SchemaType;
  readonly references: readonly SchemaReference[];
  readonly schema: string;
  readonly deleted: boolean;
  readonly fingerprint: string;
  readonly normalizedFingerprint: string;
}

export interface CompatibilityConfig {
  readonly compatibilityLevel: CompatibilityLevel;
  readonly normalize?: boolean;
}

export type RegistryRecord =
  | {
      readonly kind: 'schema';
      readonly subject: string;
      readonly version: number;
      readonly value: SchemaVersionValue | null;
    }
  | { readonly kind: 'config'; readonly subject: string | null; readonly value: CompatibilityConfig | null }
  | { readonly kind: 'mode'; readonly subject: string | null; readonly value: RegistryMode | null }
  | { readonly kind: 'max-schema-id'; readonly id: number };

export class RegistryRecordFormatError extends Error {}

/** Schema ids and versions are Java ints, from 1. */
const INT_MAX = 0x7fff_ffff;

export function encodeRegistryRecord(record: RegistryRecord): { key: Buffer; value: Buffer | null } {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
  switch (record.kind) {
    case 'schema': {
      const key = json({ keytype: 'SCHEMA', subject: record.subject, version: record.version, magic: 1 });
      const v = record.value;
      if (v === null) return { key, value: null };
      return {
        key,
        value: json({
          subject: v.subject,
          version: v.version,
          id: v.id,
          schemaType: v.schemaType,
          references: v.references.map((r) => ({ name: r.name, subject: r.subject, version: r.version })),
          schema: v.schema,
          deleted: v.deleted,
          fingerprint: v.fingerprint,
          normalizedFingerprint: v.normalizedFingerprint,
        }),
      };
    }
    case 'config': {
      const key = json({ keytype: 'CONFIG', subject: record.subject, magic: 0 });
      const v = record.value;
      if (v === null) return { key, value: null };
      const value =
        v.normalize === undefined
          ? { compatibilityLevel: v.compatibilityLevel }
          : { compatibilityLevel: v.compatibilityLevel, normalize: v.normalize };
      return { key, value: json(value) };
    }
    case 'mode': {
      const key = json({ keytype: 'MODE', subject: record.subject, magic: 0 });
      return { key, value: record.value === null ? null : json({ mode: record.value }) };
    }
    case 'max-schema-id':
      return { key: json({ keytype: 'MAX_SCHEMA_ID', magic: 0 }), value: json({ id: record.id }) };
  }
}

export function decodeRegistryRecord(key: Buffer, value: Buffer | null): RegistryRecord {
  const keyObject = object(parse(key), 'key');
  const keytype = keyObject.keytype;
  const body = value === null ? null : object(parse(value), 'value');
  switch (keytype) {
    case 'SCHEMA': {
      const subject = text(keyObject.subject, 'key.subject');
      const version = positiveInt(keyObject.version, 'key.version');
      if (body === null) return { kind: 'schema', subject, version, value: null };
      const decoded = schemaValue(body);
      if (decoded.subject !== subject || decoded.version !== version) {
        throw new RegistryRecordFormatError(
          `the value names ${decoded.subject}/${decoded.version}, the key ${subject}/${version}`,
        );
      }
      return { kind: 'schema', subject, version, value: decoded };
    }
    case 'CONFIG': {
      const subject = optionalSubject(keyObject.subject);
      if (body === null) return { kind: 'config', subject, value: null };
      const level = oneOf(body.compatibilityLevel, COMPATIBILITY_LEVELS, 'compatibilityLevel');
      if (body.normalize !== undefined && typeof body.normalize !== 'boolean') {
        throw new RegistryRecordFormatError('normalize must be a boolean');
      }
      const config: CompatibilityConfig =
        body.normalize === undefined
          ? { compatibilityLevel: level }
          : { compatibilityLevel: level, normalize: body.normalize };
      return { kind: 'config', subject, value: config };
    }
    case 'MODE': {
      const subject = optionalSubject(keyObject.subject);
      return { kind: 'mode', subject, value: body === null ? null : oneOf(body.mode, REGISTRY_MODES, 'mode') };
    }
    case 'MAX_SCHEMA_ID': {
      if (body === null) throw new RegistryRecordFormatError('a MAX_SCHEMA_ID record is never deleted');
      return { kind: 'max-schema-id', id: positiveInt(body.id, 'id') };
    }
    default:
      throw new RegistryRecordFormatError(`unknown keytype ${JSON.stringify(keytype)}`);
  }
}

function schemaValue(body: Record<string, unknown>): SchemaVersionValue {
  if (typeof body.deleted !== 'boolean') throw new RegistryRecordFormatError('deleted must be a boolean');
  if (!Array.isArray(body.references)) throw new RegistryRecordFormatError('references must be an array');
  return {
    subject: text(body.subject, 'subject'),
    version: positiveInt(body.version, 'version'),
    id: positiveInt(body.id, 'id'),
    schemaType: oneOf(body.schemaType, SCHEMA_TYPES, 'schemaType'),
    references: body.references.map((entry, i) => {
      const reference = object(entry, `references[${i}]`);
      return {
        name: text(reference.name, `references[${i}].name`),
        subject: text(reference.subject, `references[${i}].subject`),
        version: positiveInt(reference.version, `references[${i}].version`),
      };
    }),
    schema: stringField(body.schema, 'schema'),
    deleted: body.deleted,
    fingerprint: text(body.fingerprint, 'fingerprint'),
    normalizedFingerprint: text(body.normalizedFingerprint, 'normalizedFingerprint'),
  };
}

function parse(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new RegistryRecordFormatError(`not JSON: ${(error as Error).message}`);
  }
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RegistryRecordFormatError(`${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function stringField(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new RegistryRecordFormatError(`${what} must be a string`);
  return value;
}

function text(value: unknown, what: string): string {
  const string = stringField(value, what);
  if (string.length === 0) throw new RegistryRecordFormatError(`${what} must not be empty`);
  return string;
}

function optionalSubject(value: unknown): string | null {
  return value === null || value === undefined ? null : text(value, 'key.subject');
}

function positiveInt(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > INT_MAX) {
    throw new RegistryRecordFormatError(`${what} must be an integer from 1 to ${INT_MAX}`);
  }
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (!allowed.includes(value as T))
    throw new RegistryRecordFormatError(`${what} must be one of ${allowed.join(', ')}`);
  return value as T;
}
