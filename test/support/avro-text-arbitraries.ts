// What avro-text-encoder.property.spec.ts draws and compares: random Avro schemas and data in Avro's JSON
// encoding, the ways of writing it as text, and the outcome of an encoding (its fields' bytes, or its refusal).
import fc from 'fast-check';
import { expect } from 'vitest';
import { avroValueToJson } from '../../src/application/schemas/avro-data.js';
import { avroTextEncoder } from '../../src/application/schemas/avro-text-encoder.js';
import { skipJsonValue } from '../../src/application/schemas/json-text.js';
import { parseSchema } from '../../src/application/schemas/parse-schema.js';
import type { JsonValue, ParsedAvroSchema } from '../../src/application/schemas/parsed-schema.js';
import { NO_REFERENCES } from '../../src/application/schemas/schema-types.js';
import {
  encodeWireFormatSpans,
  encodeWireFormatTextSpans,
  KEY_ESCAPED,
  VALUE_ESCAPED,
  type SpanSchema,
  type WireFormatSpans,
} from '../../src/application/schemas/wire-format-spans.js';

/** Random Avro schemas: named types get names unique within the schema (n0, n1, ...) from a counter. */
export function schemaArbitrary(): fc.Arbitrary<unknown> {
  const primitive = fc.constantFrom('null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string');
  const { type } = fc.letrec<{ type: unknown; nonUnion: unknown }>((tie) => ({
    type: fc.oneof(
      { depthSize: 'small', maxDepth: 6, depthIdentifier: 'schema', withCrossShrink: true },
      tie('nonUnion'),
      fc.uniqueArray(tie('nonUnion'), { minLength: 1, maxLength: 4, selector: (branch) => branchKey(branch) }),
    ),
    nonUnion: fc.oneof(
      { depthSize: 'small', maxDepth: 6, depthIdentifier: 'schema', withCrossShrink: true },
      primitive,
      primitive,
      fc.record({ type: fc.constant('enum'), symbols: fc.uniqueArray(symbol, { minLength: 1, maxLength: 4 }) }),
      fc.record({ type: fc.constant('fixed'), size: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ type: fc.constant('array'), items: tie('type') }),
      fc.record({ type: fc.constant('map'), values: tie('type') }),
      fc.record({
        type: fc.constant('record'),
        fields: fc.uniqueArray(fc.record({ name: symbol, type: tie('type') }), {
          maxLength: 4,
          selector: (field) => field.name,
        }),
      }),
    ),
  }));
  return type.map((schema) => named(schema, { next: 0 }));
}

const symbol = fc.constantFrom('a', 'b', 'c', 'A_1', 'payload', 'key', 'x');

/** Union branches must differ by kind (named types by name: every named type here gets a distinct name). */
function branchKey(branch: unknown): unknown {
  if (typeof branch === 'string') return branch;
  const kind = (branch as { type: string }).type;
  return ['enum', 'fixed', 'record'].includes(kind) ? branch : kind;
}

function named(schema: unknown, counter: { next: number }): unknown {
  if (typeof schema === 'string') return schema;
  if (Array.isArray(schema)) return schema.map((branch) => named(branch, counter));
  const object = { ...(schema as Record<string, unknown>) };
  if (['enum', 'fixed', 'record'].includes(object.type as string)) object.name = `n${counter.next++}`;
  if (object.items !== undefined) object.items = named(object.items, counter);
  if (object.values !== undefined) object.values = named(object.values, counter);
  if (object.fields !== undefined) {
    object.fields = (object.fields as Array<{ name: string; type: unknown }>).map((field) => ({
      ...field,
      type: named(field.type, counter),
    }));
  }
  return object;
}

/** A recursive schema, beside the random ones. */
export const LIST = {
  type: 'record',
  name: 'Node',
  fields: [
    { name: 'value', type: 'long' },
    { name: 'label', type: ['null', 'string', { type: 'enum', name: 'Kind', symbols: ['A', 'B'] }] },
    { name: 'next', type: ['null', 'Node'] },
  ],
};

export function parsedSchema(schema: unknown): ParsedAvroSchema | null {
  try {
    return parseSchema({ schemaType: 'AVRO', schema: JSON.stringify(schema) }, NO_REFERENCES) as ParsedAvroSchema;
  } catch {
    return null; // e.g. an array of nothing, which the registry refuses
  }
}

/** A byte as a printable ASCII character that JSON writes without an escape. */
function printable(byte: number): number {
  const char = 0x20 + (byte % 0x5f);
  return char === 0x22 || char === 0x5c ? 0x41 : char;
}

/** A random value of avsc's type in Avro's JSON encoding; its bytes and fixed made printable ASCII unless `raw`. */
export function randomJson(schema: ParsedAvroSchema, raw: boolean): JsonValue {
  const value: unknown = schema.avroType.random();
  const ascii = (node: unknown): void => {
    if (Buffer.isBuffer(node)) node.forEach((byte, index) => (node[index] = printable(byte)));
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(ascii);
  };
  if (!raw) ascii(value);
  return avroValueToJson(schema.avroType, value);
}

/** A value of the schema, sometimes with one part replaced by any JSON (mostly not matching then). */
export function dataArbitrary(schema: ParsedAvroSchema): fc.Arbitrary<JsonValue> {
  const valid = fc.boolean().map((raw) => randomJson(schema, raw));
  const edgy = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
    fc.constantFrom<JsonValue>(0, -1, 2147483648, -2147483649, 2 ** 53 + 2, 1.5, 3.5e38, 'é', '', {}, []),
  );
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 3, arbitrary: fc.tuple(valid, edgy, fc.nat()).map(([value, part, at]) => replaced(value, part, at)) },
    { weight: 1, arbitrary: edgy },
  );
}

/** `value` with its `at`-th part (in a walk of its tree, modulo their count) replaced by `part`. */
function replaced(value: JsonValue, part: JsonValue, at: number): JsonValue {
  const parts: Array<{ parent: Record<string, JsonValue> | JsonValue[]; key: string | number }> = [];
  const walk = (node: JsonValue) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        parts.push({ parent: node, key: index });
        walk(item);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        parts.push({ parent: node, key });
        walk(item);
      }
    }
  };
  walk(value);
  if (parts.length === 0) return part;
  const { parent, key } = parts[at % parts.length];
  (parent as Record<string | number, JsonValue>)[key] = part;
  return value;
}

export type TextStyle = 'compact' | 'indented' | 'shuffled' | 'extra' | 'numbers' | 'escaped';

/** The JSON text of `value` in one of several styles that all parse back to the same value (or the one named). */
export function written(value: JsonValue, style: TextStyle, seed: number): string {
  let random = seed;
  const next = () => (random = (random * 1103515245 + 12345) % 2147483648);
  const write = (node: JsonValue): string => {
    if (Array.isArray(node)) return `[${node.map(write).join(',')}]`;
    if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node);
      if (style === 'shuffled') entries.sort(() => (next() % 3) - 1);
      const members = entries.map(([key, item]) => `${JSON.stringify(key)}:${write(item)}`);
      if (style === 'extra' && next() % 2 === 0) members.splice(next() % (members.length + 1), 0, '"zz":[1,{"q":"r"}]');
      return `{${members.join(',')}}`;
    }
    if (typeof node === 'number' && style === 'numbers' && Number.isInteger(node) && Math.abs(node) < 1e15) {
      return next() % 2 === 0 ? `${node}.0` : `${node}e0`;
    }
    if (typeof node === 'string' && style === 'escaped' && node.length > 0) {
      return `"\\u${node.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(node.slice(1)).slice(1)}`;
    }
    return JSON.stringify(node);
  };
  return style === 'indented' ? JSON.stringify(value, null, 2) : write(value);
}

export const style = fc.constantFrom<TextStyle>(
  'compact',
  'compact',
  'indented',
  'shuffled',
  'extra',
  'numbers',
  'escaped',
);

type Outcome = { fields: Array<Buffer | null> } | { status: number; errorCode: number; message: string };

function outcome(encode: () => WireFormatSpans, count: number): Outcome {
  try {
    const spans = encode();
    const fields: Array<Buffer | null> = [];
    for (let i = 0; i < count; i++) {
      for (const [at, length] of [
        [spans.keyAt[i], spans.keyLength[i]],
        [spans.valueAt[i], spans.valueLength[i]],
      ]) {
        fields.push(length < 0 ? null : Buffer.from(spans.data.subarray(at, at + length)));
      }
    }
    return { fields };
  } catch (error) {
    const { status, errorCode, message } = error as { status: number; errorCode: number; message: string };
    return { status, errorCode, message };
  }
}

/** The texts laid out in one body, as the scanner notes them: each text's place, and whether it has escapes. */
function fieldTexts(keys: Array<string | null>, values: Array<string | null>) {
  const count = keys.length;
  const fields = {
    keyAt: new Int32Array(count).fill(-1),
    keyEnd: new Int32Array(count),
    valueAt: new Int32Array(count).fill(-1),
    valueEnd: new Int32Array(count),
    escaped: new Uint8Array(count),
  };
  let body = '[';
  const place = (text: string | null, i: number, at: Int32Array, end: Int32Array, bit: number) => {
    if (text === null) return;
    body += ' ';
    at[i] = Buffer.byteLength(body);
    body += text;
    end[i] = Buffer.byteLength(body);
    body += ' ,';
    const notes = { escaped: false };
    expect(skipJsonValue(Buffer.from(text), 0, 0, 1000, notes)).toBe(Buffer.byteLength(text));
    if (notes.escaped) fields.escaped[i] |= bit;
  };
  for (let i = 0; i < count; i++) {
    place(keys[i], i, fields.keyAt, fields.keyEnd, KEY_ESCAPED);
    place(values[i], i, fields.valueAt, fields.valueEnd, VALUE_ESCAPED);
  }
  return { ...fields, text: Buffer.from(`${body}0]`) };
}

export function agree(
  keySchema: SpanSchema,
  valueSchema: SpanSchema,
  keys: Array<string | null>,
  values: Array<string | null>,
) {
  const count = keys.length;
  const parsed = (texts: Array<string | null>) => texts.map((text) => (text === null ? null : JSON.parse(text)));
  const expected = outcome(
    () =>
      encodeWireFormatSpans(
        count,
        keySchema,
        (i) => parsed(keys)[i],
        valueSchema,
        (i) => parsed(values)[i],
      ),
    count,
  );
  const texts = fieldTexts(keys, values);
  const actual = outcome(() => encodeWireFormatTextSpans(count, keySchema, valueSchema, texts), count);
  expect(actual).toEqual(expected);
  return expected;
}

/** How many of the values the text encoder writes itself (rather than leaving them to the generic way). */
export function byTextEncoder(schema: SpanSchema, values: Array<string | null>): number {
  const encoder = avroTextEncoder((schema.schema as ParsedAvroSchema).avroType);
  const sink = {
    data: Buffer.alloc(1024),
    at: 0,
    ensure(bytes: number) {
      if (this.at + bytes > this.data.length) this.data = Buffer.concat([this.data, Buffer.alloc(this.at + bytes)]);
    },
  };
  return values.filter((text) => {
    if (text === null || encoder === null || text.includes('\\')) return false;
    sink.at = 0;
    return encoder.encode(Buffer.from(text), 0, Buffer.byteLength(text), sink);
  }).length;
}
