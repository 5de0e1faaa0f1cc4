// Turning API record fields into bytes and stored records back into API JSON. One place for the data types of
// REST Proxy v3 (BINARY base64, JSON, STRING) and the read formats of Brook's record shape (binary, json, string,
// and the schema formats avro, jsonschema, protobuf: keys and values decoded with their schemas, with the schema id
// of each, `key_schema_id` and `value_schema_id`, and `key_error` / `value_error` for one that cannot be decoded).
import { errors } from '../common/brook-error.js';
import type { LogRecord, RecordHeader } from '../partition-log/record-batch.js';
import type { SchemaLookup } from './schemas/record-codec.js';
import {
  decodeField,
  isSchemaReadFormat,
  SCHEMA_READ_FORMATS,
  type FieldError,
  type SchemaReadFormat,
} from './schemas/schema-fields.js';

export type DataType = 'BINARY' | 'JSON' | 'STRING';
export type ReadFormat = 'binary' | 'json' | 'string' | SchemaReadFormat;
export const READ_FORMATS: readonly ReadFormat[] = ['binary', 'json', 'string', ...SCHEMA_READ_FORMATS];

// 1 for the characters of the standard base64 alphabet (A-Z a-z 0-9 + /), by char code.
const BASE64_ALPHABET = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  BASE64_ALPHABET[char.charCodeAt(0)] = 1;

/**
 * Whether `text` is padded standard base64: whole groups of 4 alphabet characters, the last of which may end in
 * one or two '='. Accepts exactly what /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/ does,
 * several times faster (the produce path checks every key and value).
 */
export function isBase64(text: string): boolean {
  const length = text.length;
  if (length % 4 !== 0) return false;
  let end = length;
  if (end > 0 && text.charCodeAt(end - 1) === 0x3d) end--;
  if (end > 0 && text.charCodeAt(end - 1) === 0x3d) end--;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || BASE64_ALPHABET[code] === 0) return false;
  }
  return true;
}

export function decodeBase64(text: string, field: string): Buffer {
  if (!isBase64(text)) throw errors.invalidPayload(`${field} is not valid base64.`);
  return Buffer.from(text, 'base64');
}

/** The bytes of a v3 key or value `{type, data}`; null when absent or when data is null. */
export function dataToBytes(
  data: { type?: string; data?: unknown } | null | undefined,
  field: string,
): { bytes: Buffer | null; type: DataType | null } {
  if (data === undefined || data === null) return { bytes: null, type: null };
  const type = (data.type ?? 'BINARY') as DataType;
  if (data.data === undefined || data.data === null) return { bytes: null, type };
  switch (type) {
    case 'BINARY':
      if (typeof data.data !== 'string')
        throw errors.invalidPayload(`${field}.data must be a base64 string for type BINARY.`);
      return { bytes: decodeBase64(data.data, `${field}.data`), type };
    case 'STRING':
      if (typeof data.data !== 'string') throw errors.invalidPayload(`${field}.data must be a string for type STRING.`);
      return { bytes: Buffer.from(data.data, 'utf8'), type };
    case 'JSON':
      return { bytes: Buffer.from(JSON.stringify(data.data), 'utf8'), type };
    default:
      throw errors.invalidPayload(`${field}.type must be BINARY, JSON or STRING.`);
  }
}

/**
 * The bytes of padded standard base64 text, decoded by Node in one pass; null for any text isBase64 refuses. Node's
 * decoder skips what is not base64, stops at '=', reads the URL-safe '-' and '_' and only the low byte of other
 * characters, so the text must be ASCII without '-' or '_', whole groups of 4, and decode to exactly the length its
 * groups and padding promise.
 */
export function decodeBase64Strict(text: string): Buffer | null {
  const length = text.length;
  if (length % 4 !== 0 || Buffer.byteLength(text, 'utf8') !== length) return null;
  if (text.indexOf('-') !== -1 || text.indexOf('_') !== -1) return null;
  let padding = 0;
  if (length > 0 && text.charCodeAt(length - 1) === 0x3d) padding++;
  if (length > 1 && text.charCodeAt(length - 2) === 0x3d) padding++;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === (length / 4) * 3 - padding ? bytes : null;
}

export function encodeForRead(bytes: Buffer | null, format: Exclude<ReadFormat, SchemaReadFormat>): unknown {
  if (bytes === null) return null;
  if (format === 'binary') return bytes.toString('base64');
  const text = bytes.toString('utf8');
  if (format === 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // not JSON: served as its UTF-8 text rather than failing the whole read
  }
}

export interface ApiRecord {
  topic?: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  headers: Array<{ name: string; value: string | null }>;
  key_schema_id?: number | null;
  value_schema_id?: number | null;
  key_error?: FieldError;
  value_error?: FieldError;
}

/**
 * A stored record in Brook's record shape; `schemas` looks up the schemas of a schema format (required for those).
 */
export function toApiRecord(
  record: LogRecord,
  partition: number,
  format: ReadFormat,
  topic?: string,
  schemas?: SchemaLookup,
): ApiRecord {
  if (isSchemaReadFormat(format)) {
    if (schemas === undefined) throw new Error(`format ${format} needs the registry's schemas`);
    return schemaRecord(record, partition, format, schemas, topic);
  }
  const key = encodeForRead(record.key, format);
  const value = encodeForRead(record.value, format);
  const headers = record.headers.length === 0 ? [] : record.headers.map(apiHeader);
  // Two literal shapes rather than a spread: records are built by the thousand per read, and a fixed shape keeps
  // both their construction and JSON.stringify on V8's fast path.
  if (topic === undefined) {
    return { partition, offset: record.offset, timestamp: record.timestamp, key, value, headers };
  }
  return { topic, partition, offset: record.offset, timestamp: record.timestamp, key, value, headers };
}

function schemaRecord(
  record: LogRecord,
  partition: number,
  format: SchemaReadFormat,
  schemas: SchemaLookup,
  topic: string | undefined,
): ApiRecord {
  const key = record.key === null ? null : decodeField(record.key, format, schemas);
  const value = record.value === null ? null : decodeField(record.value, format, schemas);
  return {
    ...(topic === undefined ? {} : { topic }),
    partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: key?.ok === true ? key.data : null,
    value: value?.ok === true ? value.data : null,
    headers: record.headers.length === 0 ? [] : record.headers.map(apiHeader),
    key_schema_id: key?.schemaId ?? null,
    value_schema_id: value?.schemaId ?? null,
    ...(key?.ok === false ? { key_error: key.error } : {}),
    ...(value?.ok === false ? { value_error: value.error } : {}),
  };
}

function apiHeader(header: RecordHeader): { name: string; value: string | null } {
  return { name: header.key, value: header.value === null ? null : header.value.toString('base64') };
}
