// Avro data in Avro's JSON encoding, as Confluent's REST Proxy takes and gives it, to and from avsc's values (built
// with wrapped unions) and so Avro binary. The JSON encoding: null, booleans, strings and enum symbols as
// themselves; int and long as JSON integers (a long past 2^53 cannot be carried); float and double as numbers;
// bytes and fixed as strings whose code points 0-255 are the bytes; arrays and records as arrays and objects (a
// missing record field takes its default); maps as objects; a union value as null or `{"<branch>": value}` with
// the branch named by its type (`"string"`, `"array"`, a named type's full name). Logical types are their
// underlying types. Every refusal says where (`$.a.b[2]`) and why, as a DataConversionError (42203).
import type avro from 'avsc';
import { DataConversionError } from './schema-errors.js';
import type { JsonValue } from './parsed-schema.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- avsc's typings do not declare its types' fields. */
type AnyType = any;

const INT_MIN = -0x8000_0000;
const INT_MAX = 0x7fff_ffff;
const FLOAT_MAX = 3.4028234663852886e38;

const kindOf = (type: AnyType): string => (String(type.typeName).startsWith('union') ? 'union' : type.typeName);
const fail = (path: string, why: string): never => {
  throw new DataConversionError(`${path}: ${why}`);
};
const describe = (json: unknown) => {
  const text = JSON.stringify(json) ?? String(json);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
const isObject = (json: unknown): json is Record<string, unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json);

/** The name of a union branch in Avro's JSON encoding. */
export function branchName(type: AnyType): string {
  return type.name ?? kindOf(type);
}

/** Avro-JSON to the value avsc writes for `type`; throws DataConversionError. */
export function avroValueFromJson(type: AnyType, json: unknown, path = '$'): unknown {
  switch (kindOf(type)) {
    case 'null':
      return json === null ? null : fail(path, `expected null, found ${describe(json)}`);
    case 'boolean':
      return typeof json === 'boolean' ? json : fail(path, `expected a boolean, found ${describe(json)}`);
    case 'int':
      if (!Number.isInteger(json) || (json as number) < INT_MIN || (json as number) > INT_MAX) {
        fail(path, `expected an int, found ${describe(json)}`);
      }
      return json;
    case 'long':
      return Number.isSafeInteger(json) ? json : fail(path, `expected a long within ±2^53, found ${describe(json)}`);
    case 'float':
      if (typeof json !== 'number' || Math.abs(json) > FLOAT_MAX)
        fail(path, `expected a float, found ${describe(json)}`);
      return json;
    case 'double':
      return typeof json === 'number' ? json : fail(path, `expected a double, found ${describe(json)}`);
    case 'string':
      return typeof json === 'string' ? json : fail(path, `expected a string, found ${describe(json)}`);
    case 'bytes':
      return bytesFromJson(json, path);
    case 'fixed': {
      const bytes = bytesFromJson(json, path);
      return bytes.length === type.size ? bytes : fail(path, `expected ${type.size} bytes, found ${bytes.length}`);
    }
    case 'enum':
      return typeof json === 'string' && type.symbols.includes(json)
        ? json
        : fail(path, `expected one of ${type.symbols.join(', ')}, found ${describe(json)}`);
    case 'array':
      if (!Array.isArray(json)) return fail(path, `expected an array, found ${describe(json)}`);
      return json.map((item, index) => avroValueFromJson(type.itemsType, item, `${path}[${index}]`));
    case 'map': {
      if (!isObject(json)) return fail(path, `expected an object (a map), found ${describe(json)}`);
      const map: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(json))
        map[key] = avroValueFromJson(type.valuesType, value, `${path}.${key}`);
      return map;
    }
    case 'union':
      return unionFromJson(type, json, path);
    case 'record':
    case 'error': {
      if (!isObject(json)) return fail(path, `expected an object (a ${type.name} record), found ${describe(json)}`);
      const record: Record<string, unknown> = {};
      for (const field of type.fields) {
        const fieldPath = `${path}.${field.name}`;
        if (Object.prototype.hasOwnProperty.call(json, field.name)) {
          record[field.name] = avroValueFromJson(field.type, json[field.name], fieldPath);
        } else if (field.defaultValue() !== undefined) {
          record[field.name] = field.defaultValue();
        } else {
          fail(fieldPath, 'missing, and the field has no default');
        }
      }
      return record;
    }
    default:
      return fail(path, `unsupported Avro type ${type.typeName}`);
  }
}

function bytesFromJson(json: unknown, path: string): Buffer {
  if (typeof json !== 'string') return fail(path, `expected a string of bytes, found ${describe(json)}`);
  const bytes = Buffer.alloc(json.length);
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code > 0xff) fail(path, `character ${i} (U+${code.toString(16).padStart(4, '0')}) is not a byte`);
    bytes[i] = code;
  }
  return bytes;
}

function unionFromJson(type: AnyType, json: unknown, path: string): unknown {
  const branches: AnyType[] = type.types;
  if (json === null) {
    if (branches.some((branch) => kindOf(branch) === 'null')) return null;
    return fail(path, 'null is not a branch of this union');
  }
  const names = branches.map(branchName);
  if (!isObject(json) || Object.keys(json).length !== 1) {
    return fail(
      path,
      `expected a union value {"<branch>": value} with a branch among ${names.join(', ')}, found ${describe(json)}`,
    );
  }
  const [name] = Object.keys(json);
  const index = names.indexOf(name);
  if (index < 0) return fail(path, `${name} is not a branch of this union (${names.join(', ')})`);
  if (kindOf(branches[index]) === 'null') return fail(path, 'the null branch is written as null');
  return { [name]: avroValueFromJson(branches[index], json[name], `${path}.${name}`) };
}

/** avsc's value of `type` to Avro-JSON. */
export function avroValueToJson(type: AnyType, value: any): JsonValue {
  switch (kindOf(type)) {
    case 'bytes':
    case 'fixed':
      return (value as Buffer).toString('latin1');
    case 'float':
    case 'double':
      return Number.isFinite(value) ? value : String(value);
    case 'array':
      return (value as unknown[]).map((item) => avroValueToJson(type.itemsType, item));
    case 'map': {
      const map: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(value as object)) map[key] = avroValueToJson(type.valuesType, item);
      return map;
    }
    case 'union': {
      if (value === null) return null;
      const [name] = Object.keys(value);
      const branch = (type.types as AnyType[]).find((candidate) => branchName(candidate) === name);
      return { [name]: avroValueToJson(branch, value[name]) };
    }
    case 'record':
    case 'error': {
      const record: Record<string, JsonValue> = {};
      for (const field of type.fields) record[field.name] = avroValueToJson(field.type, value[field.name]);
      return record;
    }
    default:
      return value as JsonValue;
  }
}

/** Avro-JSON to Avro binary for `type`; throws DataConversionError. */
export function encodeAvro(type: avro.Type, json: unknown): Buffer {
  return type.toBuffer(avroValueFromJson(type, json));
}

/** Avro binary to Avro-JSON; throws when the bytes are not one value of `type` (truncated or with trailing bytes). */
export function decodeAvro(type: avro.Type, payload: Buffer): JsonValue {
  return avroValueToJson(type, type.fromBuffer(payload));
}
/* eslint-enable @typescript-eslint/no-explicit-any */
