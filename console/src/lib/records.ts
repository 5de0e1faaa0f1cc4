// Records as the console shows them: the API's record shape read with format=binary (key and value base64,
// headers' values base64), rendered as JSON (pretty-printed), text or hex, and copied as JSON. Records read with a
// schema format (avro, jsonschema, protobuf: the broker decodes Confluent's wire format with the registry's schemas)
// carry JSON keys and values; fromDecoded keeps them as the base64 of their JSON text, with their schema ids and
// the broker's decoding errors.
export interface ConsoleRecord {
  partition: number;
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: { name: string; value: string | null }[];
  keySchemaId?: number | null;
  valueSchemaId?: number | null;
  keyError?: string | null;
  valueError?: string | null;
}

/** How the broker is asked to decode keys and values: binary (raw bytes) or a schema format. */
export type DecodeFormat = 'binary' | 'avro' | 'jsonschema' | 'protobuf';

export const DECODE_FORMATS: { value: DecodeFormat; label: string }[] = [
  { value: 'binary', label: 'Raw bytes' },
  { value: 'avro', label: 'Avro' },
  { value: 'jsonschema', label: 'JSON Schema' },
  { value: 'protobuf', label: 'Protobuf' },
];

/** A record as the API answers it with a schema format. */
export interface DecodedApiRecord {
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  headers: { name: string; value: string | null }[];
  key_schema_id?: number | null;
  value_schema_id?: number | null;
  key_error?: string | null;
  value_error?: string | null;
}

export function fromDecoded(record: DecodedApiRecord): ConsoleRecord {
  const encode = (decoded: unknown) =>
    decoded === null || decoded === undefined ? null : textToBase64(JSON.stringify(decoded));
  return {
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: encode(record.key),
    value: encode(record.value),
    headers: record.headers,
    keySchemaId: record.key_schema_id ?? null,
    valueSchemaId: record.value_schema_id ?? null,
    keyError: record.key_error ?? null,
    valueError: record.value_error ?? null,
  };
}

/** Reads an API record of `format` into the console's shape. */
export function toConsoleRecord(record: unknown, format: DecodeFormat): ConsoleRecord {
  return format === 'binary' ? (record as ConsoleRecord) : fromDecoded(record as DecodedApiRecord);
}

export type ValueView = 'json' | 'text' | 'hex';

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

export function bytesToText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

/** A key or value in the chosen view; JSON that does not parse falls back to text. null stays "null". */
export function renderBytes(base64: string | null, view: ValueView): string {
  if (base64 === null) return 'null';
  const bytes = base64ToBytes(base64);
  if (view === 'hex') return bytesToHex(bytes);
  const text = bytesToText(bytes);
  if (view === 'text') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The record as JSON with its key, value and header values as text, for the clipboard. */
export function recordAsJson(record: ConsoleRecord): string {
  const text = (base64: string | null) => (base64 === null ? null : bytesToText(base64ToBytes(base64)));
  const value = text(record.value);
  let parsedValue: unknown;
  try {
    parsedValue = value === null ? null : JSON.parse(value);
  } catch {
    parsedValue = value;
  }
  return JSON.stringify(
    {
      partition: record.partition,
      offset: record.offset,
      timestamp: new Date(record.timestamp).toISOString(),
      key: text(record.key),
      value: parsedValue,
      headers: record.headers.map((header) => ({ name: header.name, value: text(header.value) })),
    },
    null,
    2,
  );
}

/** Whether the record's key (or, for `field: 'any'`, its key, value or a header) contains `needle` as text. */
export function recordMatches(record: ConsoleRecord, needle: string, field: 'key' | 'any'): boolean {
  if (needle === '') return true;
  const text = (base64: string | null) => (base64 === null ? '' : bytesToText(base64ToBytes(base64)));
  const lower = needle.toLowerCase();
  if (text(record.key).toLowerCase().includes(lower)) return true;
  if (field === 'key') return false;
  if (text(record.value).toLowerCase().includes(lower)) return true;
  return record.headers.some((header) => `${header.name}=${text(header.value)}`.toLowerCase().includes(lower));
}

export function textToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
