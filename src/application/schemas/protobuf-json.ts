// Protobuf messages in the proto3 JSON mapping, to the plain objects protobufjs encodes and from the messages it
// decodes. Field names are the lowerCamelCase JSON names (or `json_name`); the proto names are accepted too. int64
// kinds are decimal strings (or safe integers); bytes base64; enums their names (or numbers); float and double
// numbers or "NaN", "Infinity", "-Infinity"; maps objects; `null` leaves a field unset. Unknown fields, two members
// of one oneof, a missing proto2 required field or a value out of its type's range are refused with where and why
// (DataConversionError, 42203). Output omits fields at their proto3 defaults, as JsonFormat does. The well-known
// types have their own JSON forms (protobuf-well-known.ts).
import type protobuf from 'protobufjs';
import { protobufjs } from './schema-libraries.js';
import type { JsonValue } from './parsed-schema.js';
import { isSyntheticOneof } from './protobuf-text.js';
import { fail, Long, type LongValue } from './protobuf-json-support.js';
import { isWellKnown, wellKnownFromJson, wellKnownToJson, type NestedJson } from './protobuf-well-known.js';

type Plain = Record<string, unknown>;

const describe = (json: unknown) => {
  const text = JSON.stringify(json) ?? String(json);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
const isObject = (json: unknown): json is Record<string, unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json);

export function jsonName(field: protobuf.Field): string {
  const explicit = field.options?.json_name;
  if (typeof explicit === 'string') return explicit;
  return field.name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

const RANGES: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const SIXTY_FOUR_BITS = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);
const FLOAT_MAX = 3.4028234663852886e38;

function integerFromJson(type: string, json: unknown, path: string): number | LongValue {
  let value: bigint | undefined;
  if (typeof json === 'number' && Number.isInteger(json)) {
    if (SIXTY_FOUR_BITS.has(type) && !Number.isSafeInteger(json))
      fail(path, `${json} is past 2^53: write it as a string`);
    value = BigInt(json);
  } else if (typeof json === 'string' && /^-?\d+$/.test(json)) {
    value = BigInt(json);
  }
  const [min, max] = RANGES[type];
  if (value === undefined || value < min || value > max)
    return fail(path, `expected a ${type}, found ${describe(json)}`);
  return SIXTY_FOUR_BITS.has(type)
    ? Long.fromString(value.toString(), type.startsWith('u') || type === 'fixed64')
    : Number(value);
}

function floatFromJson(type: string, json: unknown, path: string): number {
  const special: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
  let value: number | undefined;
  if (typeof json === 'number') value = json;
  else if (typeof json === 'string' && json in special) value = special[json];
  else if (typeof json === 'string' && json.trim() !== '' && Number.isFinite(Number(json))) value = Number(json);
  if (value === undefined) return fail(path, `expected a ${type}, found ${describe(json)}`);
  if (type === 'float' && Number.isFinite(value) && Math.abs(value) > FLOAT_MAX)
    fail(path, `${value} is past a float's range`);
  return value;
}

export function bytesFromBase64(json: unknown, path: string): Buffer {
  if (typeof json !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(json) || json.replace(/=+$/, '').length % 4 === 1) {
    return fail(path, `expected base64 bytes, found ${describe(json)}`);
  }
  return Buffer.from(json, json.includes('-') || json.includes('_') ? 'base64url' : 'base64');
}

export function scalarFromJson(type: string, json: unknown, path: string): unknown {
  if (type in RANGES) return integerFromJson(type, json, path);
  if (type === 'float' || type === 'double') return floatFromJson(type, json, path);
  if (type === 'bool') return typeof json === 'boolean' ? json : fail(path, `expected a bool, found ${describe(json)}`);
  if (type === 'string')
    return typeof json === 'string' ? json : fail(path, `expected a string, found ${describe(json)}`);
  if (type === 'bytes') return bytesFromBase64(json, path);
  return fail(path, `unsupported scalar type ${type}`);
}

function enumFromJson(type: protobuf.Enum, json: unknown, path: string): number {
  if (typeof json === 'string' && json in type.values) return type.values[json];
  if (typeof json === 'number' && Number.isInteger(json) && json >= -(2 ** 31) && json < 2 ** 31) return json;
  return fail(path, `expected one of ${Object.keys(type.values).join(', ')}, found ${describe(json)}`);
}

function valueFromJson(field: protobuf.Field, json: unknown, path: string): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobufjs().Enum) return enumFromJson(resolved, json, path);
  if (resolved instanceof protobufjs().Type) return messageFromJson(resolved, json, path);
  return scalarFromJson(field.type, json, path);
}

function mapKeyFromJson(keyType: string, key: string, path: string): string {
  if (keyType === 'string') return key;
  if (keyType === 'bool')
    return key === 'true' || key === 'false' ? key : fail(path, `map key ${describe(key)} is not a bool`);
  return String(integerFromJson(keyType, key, path));
}

/** Proto3 JSON to the plain object protobufjs encodes as `type`; throws DataConversionError. */
export function messageFromJson(type: protobuf.Type, json: unknown, path = '$'): Plain {
  if (isWellKnown(type)) return wellKnownFromJson(type, json, path, NESTED);
  if (!isObject(json))
    return fail(path, `expected an object (a ${type.fullName.slice(1)} message), found ${describe(json)}`);
  const byName = new Map<string, protobuf.Field>();
  for (const field of type.fieldsArray) {
    byName.set(jsonName(field), field);
    byName.set(field.name, field);
  }
  const out: Plain = {};
  const oneofSet = new Map<string, string>();
  for (const [key, value] of Object.entries(json)) {
    const field = byName.get(key);
    const fieldPath = `${path}.${key}`;
    if (!field) return fail(fieldPath, `${type.fullName.slice(1)} has no field ${key}`);
    if (value === null && field.resolvedType?.fullName !== '.google.protobuf.Value') continue;
    if (field.partOf && !isSyntheticOneof(field.partOf)) {
      const other = oneofSet.get(field.partOf.name);
      if (other !== undefined && other !== field.name)
        fail(fieldPath, `${other} and ${field.name} are both set in oneof ${field.partOf.name}`);
      oneofSet.set(field.partOf.name, field.name);
    }
    if (field instanceof protobufjs().MapField) {
      if (!isObject(value)) return fail(fieldPath, `expected an object (a map), found ${describe(value)}`);
      const map: Plain = {};
      for (const [mapKey, item] of Object.entries(value)) {
        map[mapKeyFromJson(field.keyType, mapKey, `${fieldPath}.${mapKey}`)] = valueFromJson(
          field,
          item,
          `${fieldPath}.${mapKey}`,
        );
      }
      out[field.name] = map;
    } else if (field.repeated) {
      if (!Array.isArray(value)) return fail(fieldPath, `expected an array, found ${describe(value)}`);
      out[field.name] = value.map((item, index) => valueFromJson(field, item, `${fieldPath}[${index}]`));
    } else {
      out[field.name] = valueFromJson(field, value, fieldPath);
    }
  }
  for (const field of type.fieldsArray) {
    if (field.required && out[field.name] === undefined)
      fail(`${path}.${jsonName(field)}`, 'missing, and the field is required');
  }
  return out;
}

type Decoded = Record<string, unknown>;

export function scalarToJson(type: string, value: unknown): JsonValue {
  if (SIXTY_FOUR_BITS.has(type)) return String(value);
  if (type === 'float' || type === 'double')
    return Number.isFinite(value as number) ? (value as number) : String(value);
  if (type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  return value as JsonValue;
}

function valueToJson(field: protobuf.Field, value: unknown): JsonValue {
  const resolved = field.resolvedType;
  if (resolved instanceof protobufjs().Enum) return resolved.valuesById[value as number] ?? (value as number);
  if (resolved instanceof protobufjs().Type) return messageToJson(resolved, value as Decoded);
  return scalarToJson(field.type, value);
}

/** Whether a value is its type's zero: fields without presence at it are not written, as if unset. */
function isDefault(value: unknown): boolean {
  if (value === 0 || value === '' || value === false) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  if (Long.isLong(value)) return value.isZero();
  return false;
}

function mapKeyToJson(keyType: string, key: string): string {
  if (SIXTY_FOUR_BITS.has(keyType))
    return protobufjs()
      .util.longFromHash(key, keyType.startsWith('u') || keyType === 'fixed64')
      .toString();
  return key;
}

/** A decoded message of `type` to proto3 JSON. */
export function messageToJson(type: protobuf.Type, message: Decoded): JsonValue {
  if (isWellKnown(type)) return wellKnownToJson(type, message, NESTED);
  const out: Record<string, JsonValue> = {};
  const fields = [...type.fieldsArray].sort((a, b) => a.id - b.id);
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = message[field.name];
    if (value === null || value === undefined) continue;
    if (field instanceof protobufjs().MapField) {
      const entries = Object.entries(value as Decoded);
      if (entries.length === 0) continue;
      out[jsonName(field)] = Object.fromEntries(
        entries.map(([key, item]) => [mapKeyToJson(field.keyType, key), valueToJson(field, item)]),
      );
    } else if (field.repeated) {
      const items = value as unknown[];
      if (items.length === 0) continue;
      out[jsonName(field)] = items.map((item) => valueToJson(field, item));
    } else {
      if (!field.hasPresence && isDefault(value)) continue;
      out[jsonName(field)] = valueToJson(field, value);
    }
  }
  return out;
}

/** What the well-known types' JSON forms need of this file: the values and messages they hold. */
const NESTED: NestedJson = { messageFromJson, messageToJson, scalarFromJson, scalarToJson };
