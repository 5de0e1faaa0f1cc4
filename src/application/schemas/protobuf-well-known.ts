// The proto3 JSON forms of Protobuf's well-known types: Timestamp as an RFC 3339 UTC string
// ("1972-01-01T10:00:20.021Z", an offset accepted on input), Duration as seconds with an "s" ("1.5s"), the wrappers
// as their bare value, Struct / Value / ListValue as any JSON, Empty as {}, FieldMask as a comma-separated list of
// lowerCamelCase paths, and Any as its message's JSON with an "@type" URL (a well-known message's under "value").
// Output writes fractions with 0, 3, 6 or 9 digits, as JsonFormat does.
import type protobuf from 'protobufjs';
import { protobufjs } from './schema-libraries.js';
import type { JsonValue } from './parsed-schema.js';
import { fail, Long } from './protobuf-json-support.js';

type Plain = Record<string, unknown>;

/**
 * The proto3 JSON mapping of the values and messages a well-known type holds (an Any's message, a wrapper's
 * value), given by protobuf-json.ts, which calls this file for the well-known types themselves.
 */
export interface NestedJson {
  messageFromJson(type: protobuf.Type, json: unknown, path: string): Plain;
  messageToJson(type: protobuf.Type, message: Plain): JsonValue;
  scalarFromJson(type: string, json: unknown, path: string): unknown;
  scalarToJson(type: string, value: unknown): JsonValue;
}

const WRAPPERS: Record<string, string> = {
  DoubleValue: 'double',
  FloatValue: 'float',
  Int64Value: 'int64',
  UInt64Value: 'uint64',
  Int32Value: 'int32',
  UInt32Value: 'uint32',
  BoolValue: 'bool',
  StringValue: 'string',
  BytesValue: 'bytes',
};
const SPECIAL = new Set([
  'Timestamp',
  'Duration',
  'Struct',
  'Value',
  'ListValue',
  'Empty',
  'FieldMask',
  'Any',
  ...Object.keys(WRAPPERS),
]);
/** Timestamps span years 1 to 9999; durations ±10,000 years, in seconds. */
const TIMESTAMP_SECONDS = [-62_135_596_800, 253_402_300_799] as const;
const DURATION_SECONDS_MAX = 315_576_000_000;

const wellKnownName = (type: protobuf.Type) =>
  type.fullName.startsWith('.google.protobuf.') ? type.fullName.slice('.google.protobuf.'.length) : undefined;

export function isWellKnown(type: protobuf.Type): boolean {
  const name = wellKnownName(type);
  return name !== undefined && SPECIAL.has(name);
}

const toNumber = (value: unknown) => (Long.isLong(value) ? value.toNumber() : Number(value ?? 0));

/** Nanoseconds as JsonFormat writes them: no fraction, or 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos).padStart(9, '0');
  if (nanos % 1_000_000 === 0) return `.${digits.slice(0, 3)}`;
  if (nanos % 1_000 === 0) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}

function timestampFromJson(json: unknown, path: string): Plain {
  const match =
    typeof json === 'string'
      ? /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(
          json,
        )
      : null;
  if (!match) return fail(path, `expected an RFC 3339 timestamp, found ${JSON.stringify(json)}`);
  const [, year, month, day, hour, minute, second, digits, , sign, offsetHours, offsetMinutes] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60) : 0;
  const seconds = date.getTime() / 1000 - offset;
  if (date.getUTCDate() !== Number(day) || seconds < TIMESTAMP_SECONDS[0] || seconds > TIMESTAMP_SECONDS[1]) {
    return fail(path, `${json} is not a timestamp from year 1 to 9999`);
  }
  return { seconds: Long.fromNumber(seconds), nanos: Number((digits ?? '').padEnd(9, '0')) };
}

function timestampToJson(message: Plain): string {
  const iso = new Date(toNumber(message.seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}${fraction(toNumber(message.nanos))}Z`;
}

function durationFromJson(json: unknown, path: string): Plain {
  const match = typeof json === 'string' ? /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(json) : null;
  if (!match || Number(match[2]) > DURATION_SECONDS_MAX)
    return fail(path, `expected a duration such as "1.5s", found ${JSON.stringify(json)}`);
  const sign = match[1] ? -1 : 1;
  return { seconds: Long.fromNumber(sign * Number(match[2])), nanos: sign * Number((match[3] ?? '').padEnd(9, '0')) };
}

function durationToJson(message: Plain): string {
  const seconds = toNumber(message.seconds);
  const nanos = toNumber(message.nanos);
  const negative = seconds < 0 || nanos < 0;
  return `${negative ? '-' : ''}${Math.abs(seconds)}${fraction(Math.abs(nanos))}s`;
}

function valueFromJson(json: unknown, path: string): Plain {
  if (json === null) return { nullValue: 0 };
  if (typeof json === 'number') return { numberValue: json };
  if (typeof json === 'string') return { stringValue: json };
  if (typeof json === 'boolean') return { boolValue: json };
  if (Array.isArray(json))
    return { listValue: { values: json.map((item, i) => valueFromJson(item, `${path}[${i}]`)) } };
  if (typeof json === 'object') return { structValue: structFromJson(json, path) };
  return fail(path, `expected JSON, found ${String(json)}`);
}

function structFromJson(json: unknown, path: string): Plain {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail(path, 'expected an object');
  const fields: Plain = {};
  for (const [key, value] of Object.entries(json)) fields[key] = valueFromJson(value, `${path}.${key}`);
  return { fields };
}

/** Whether a decoded (or built) message holds `field` itself: decoded messages keep defaults on their prototype. */
const has = (message: Plain, field: string) =>
  Object.prototype.hasOwnProperty.call(message, field) && message[field] != null;

function valueToJson(message: Plain): JsonValue {
  if (has(message, 'structValue')) return structToJson(message.structValue as Plain);
  if (has(message, 'listValue'))
    return (((message.listValue as Plain).values as Plain[] | undefined) ?? []).map(valueToJson);
  if (has(message, 'stringValue')) return message.stringValue as string;
  if (has(message, 'numberValue')) return message.numberValue as number;
  if (has(message, 'boolValue')) return message.boolValue as boolean;
  return null;
}

function structToJson(message: Plain): JsonValue {
  const fields = (message.fields ?? {}) as Record<string, Plain>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, valueToJson(value)]));
}

const snake = (path: string) => path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const camel = (path: string) => path.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

function anyFromJson(type: protobuf.Type, json: unknown, path: string, nested: NestedJson): Plain {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return fail(path, 'expected an object with "@type"');
  const { '@type': url, ...rest } = json as Record<string, unknown>;
  if (typeof url !== 'string' || !url.includes('/'))
    return fail(`${path}.@type`, 'expected a type URL such as type.googleapis.com/pkg.Message');
  const inner = type.root.lookup(url.slice(url.lastIndexOf('/') + 1));
  if (!(inner instanceof protobufjs().Type)) return fail(`${path}.@type`, `no message ${url} in the schema`);
  const body = isWellKnown(inner) && wellKnownName(inner) !== 'Any' ? rest.value : rest;
  return { type_url: url, value: inner.encode(nested.messageFromJson(inner, body, path)).finish() };
}

function anyToJson(type: protobuf.Type, message: Plain, nested: NestedJson): JsonValue {
  const url = String(message.type_url ?? '');
  const inner = type.root.lookup(url.slice(url.lastIndexOf('/') + 1));
  if (!(inner instanceof protobufjs().Type))
    return { '@type': url, value: nested.scalarToJson('bytes', message.value ?? new Uint8Array()) };
  const json = nested.messageToJson(
    inner,
    inner.decode((message.value as Uint8Array) ?? new Uint8Array()) as unknown as Plain,
  );
  return isWellKnown(inner) ? { '@type': url, value: json } : { '@type': url, ...(json as object) };
}

export function wellKnownFromJson(type: protobuf.Type, json: unknown, path: string, nested: NestedJson): Plain {
  const name = wellKnownName(type)!;
  if (name in WRAPPERS) return { value: nested.scalarFromJson(WRAPPERS[name], json, path) };
  switch (name) {
    case 'Timestamp':
      return timestampFromJson(json, path);
    case 'Duration':
      return durationFromJson(json, path);
    case 'Struct':
      return structFromJson(json, path);
    case 'Value':
      return valueFromJson(json, path);
    case 'ListValue':
      return Array.isArray(json)
        ? { values: json.map((item, i) => valueFromJson(item, `${path}[${i}]`)) }
        : fail(path, 'expected an array');
    case 'Empty':
      return typeof json === 'object' && json !== null && !Array.isArray(json) && Object.keys(json).length === 0
        ? {}
        : fail(path, 'expected {}');
    case 'FieldMask':
      return typeof json === 'string'
        ? { paths: json === '' ? [] : json.split(',').map(snake) }
        : fail(path, 'expected a comma-separated field mask');
    default:
      return anyFromJson(type, json, path, nested);
  }
}

export function wellKnownToJson(type: protobuf.Type, message: Plain, nested: NestedJson): JsonValue {
  const name = wellKnownName(type)!;
  if (name in WRAPPERS) return nested.scalarToJson(WRAPPERS[name], message.value ?? type.fields.value.defaultValue);
  switch (name) {
    case 'Timestamp':
      return timestampToJson(message);
    case 'Duration':
      return durationToJson(message);
    case 'Struct':
      return structToJson(message);
    case 'Value':
      return valueToJson(message);
    case 'ListValue':
      return ((message.values as Plain[] | undefined) ?? []).map(valueToJson);
    case 'Empty':
      return {};
    case 'FieldMask':
      return ((message.paths as string[] | undefined) ?? []).map(camel).join(',');
    default:
      return anyToJson(type, message, nested);
  }
}
