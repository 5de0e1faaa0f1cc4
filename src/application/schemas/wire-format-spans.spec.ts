// The produce path's encoder (many records' fields into one buffer) against encodeRecord, one Buffer per field:
// for random records of several schemas each span holds exactly encodeRecord's bytes, null fields are -1, the
// buffer is the records section encodeBatch frames around those fields, and data that does not match is refused
// with the same 42203 error for the same (first) field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avroValueToJson } from './avro-data.js';
import { parseSchema } from './parse-schema.js';
import type { JsonValue, ParsedAvroSchema, ParsedSchema } from './parsed-schema.js';
import { encodeRecord } from './record-codec.js';
import { NO_REFERENCES, type SchemaType } from './schema-types.js';
import { encodeWireFormatSpans, type SpanSchema, type WireFormatSpans } from './wire-format-spans.js';
import { encodeBatch, frameSpansBatch } from '../../partition-log/record-batch.js';

const parse = (schemaType: SchemaType, schema: unknown): ParsedSchema =>
  parseSchema({ schemaType, schema: typeof schema === 'string' ? schema : JSON.stringify(schema) }, NO_REFERENCES);

const AVRO_SCHEMAS: Record<string, unknown> = {
  bench: { type: 'record', name: 'Bench', fields: [{ name: 'payload', type: 'string' }] },
  user: {
    type: 'record',
    name: 'User',
    namespace: 'acme',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'age', type: ['null', 'int'], default: null },
      { name: 'score', type: 'double' },
      { name: 'visits', type: 'long' },
      { name: 'tags', type: { type: 'array', items: 'string' } },
      { name: 'avatar', type: 'bytes' },
      { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['ADMIN', 'USER'] } },
      { name: 'props', type: { type: 'map', values: ['null', 'string'] } },
      { name: 'id', type: { type: 'fixed', name: 'Id', size: 4 } },
      { name: 'ratio', type: 'float' },
      { name: 'ok', type: 'boolean' },
    ],
  },
  list: {
    type: 'record',
    name: 'Node',
    fields: [
      { name: 'value', type: 'long' },
      { name: 'next', type: ['null', 'Node'], default: null },
    ],
  },
  text: { type: 'string' },
  union: ['null', 'string', 'long', { type: 'array', items: 'int' }],
};

const avroSchemas = Object.entries(AVRO_SCHEMAS).map(([name, schema], index) => ({
  name,
  id: 100 + index,
  schema: parse('AVRO', schema) as ParsedAvroSchema,
}));

/** A random value of the schema in Avro's JSON encoding, or null (no field). */
const avroData = (schema: ParsedAvroSchema) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.integer().map(() => avroValueToJson(schema.avroType, schema.avroType.random())) },
  );

function spanBytes(spans: WireFormatSpans, at: number, length: number): Buffer | null {
  expect(at + Math.max(length, 0)).toBeLessThanOrEqual(spans.end);
  return length < 0 ? null : Buffer.from(spans.data.subarray(at, at + length));
}

/** What encoding each field in turn gives: its bytes, or the error of the first field refused. */
function expectedFields(key: SpanSchema | null, keys: unknown[], value: SpanSchema | null, values: unknown[]) {
  const encode = (schema: SpanSchema | null, data: unknown) =>
    schema === null || data === null || data === undefined ? null : encodeRecord(schema.id, schema.schema, data);
  return keys.map((k, i) => ({ key: encode(key, k), value: encode(value, values[i]) }));
}

function encodedFields(key: SpanSchema | null, keys: unknown[], value: SpanSchema | null, values: unknown[]) {
  const spans = encodeWireFormatSpans(
    keys.length,
    key,
    (i) => keys[i],
    value,
    (i) => values[i],
  );
  const fields = keys.map((_, i) => ({
    key: spanBytes(spans, spans.keyAt[i], spans.keyLength[i]),
    value: spanBytes(spans, spans.valueAt[i], spans.valueLength[i]),
  }));
  // the spans lie in the records section of one batch, framed as encodeBatch frames those fields
  const batch = frameSpansBatch(spans.data, spans.end, keys.length, 0);
  const expectedBatch = encodeBatch(fields.map(({ key, value }) => ({ key, value, timestamp: 0 })));
  expect(batch.equals(expectedBatch)).toBe(true);
  return fields;
}

describe('encodeWireFormatSpans', () => {
  it("holds encodeRecord's bytes for random Avro records of several schemas, keys and values", () => {
    const pair = fc.tuple(fc.constantFrom(...avroSchemas), fc.constantFrom(...avroSchemas));
    fc.assert(
      fc.property(
        pair.chain(([key, value]) =>
          fc.tuple(
            fc.constant(key),
            fc.constant(value),
            fc.array(fc.tuple(avroData(key.schema), avroData(value.schema)), { minLength: 1, maxLength: 40 }),
          ),
        ),
        ([key, value, records]) => {
          const keys = records.map(([k]) => k);
          const values = records.map(([, v]) => v);
          expect(encodedFields(key, keys, value, values)).toEqual(expectedFields(key, keys, value, values));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('grows past its buffer, inside one Avro value and across many', () => {
    const [bench] = avroSchemas;
    const big = [{ payload: 'é'.repeat(300_000) }, { payload: 'x' }, { payload: 'y'.repeat(70_000) }];
    const many = Array.from({ length: 3000 }, (_, i) => ({ payload: 'z'.repeat(i % 200) }));
    for (const values of [big, many]) {
      const keys = values.map(() => null);
      const encoded = encodedFields(null, keys, bench, values);
      const expected = expectedFields(null, keys, bench, values);
      // (Buffer#equals: a deep comparison of 300 KB byte by byte takes seconds)
      expect(encoded.map(({ key, value }, i) => key === null && value!.equals(expected[i].value!))).not.toContain(
        false,
      );
    }
  });

  it("holds encodeRecord's bytes for JSON Schema and Protobuf records", () => {
    const json = { id: 7, schema: parse('JSON', { type: 'object', properties: { n: { type: 'integer' } } }) };
    const protobuf = {
      id: 8,
      schema: parse('PROTOBUF', 'syntax = "proto3";\nmessage M { int64 n = 1; string s = 2; }'),
    };
    fc.assert(
      fc.property(
        fc.array(fc.record({ n: fc.integer(), s: fc.string() }), { minLength: 1, maxLength: 20 }),
        (records) => {
          const keys = records.map(({ n }) => ({ n }));
          const values = records.map(({ n, s }) => ({ n: String(n), s }));
          expect(encodedFields(json, keys, protobuf, values)).toEqual(expectedFields(json, keys, protobuf, values));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses the first field that does not match, with the error encodeRecord gives it', () => {
    const user = avroSchemas.find(({ name }) => name === 'user')!;
    const list = avroSchemas.find(({ name }) => name === 'list')!;
    const bad: JsonValue[] = [
      { value: 'x' },
      { value: 1, next: { Node: { value: 2.5 } } },
      { value: 1, next: 3 },
      'text',
      5,
    ];
    fc.assert(
      fc.property(
        fc.array(avroData(user.schema), { minLength: 1, maxLength: 10 }),
        fc.array(avroData(list.schema), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(...bad),
        fc.constantFrom(...bad),
        fc.nat(),
        fc.nat(),
        (values, keysGiven, wrongKey, wrongValue, keyAt, valueAt) => {
          // one key and one value that do not match (a list node key, a user value): the first in order is refused
          const keys = values.map((_, i) => keysGiven[i % keysGiven.length]);
          keys[keyAt % keys.length] = wrongKey;
          values[valueAt % values.length] = wrongValue;
          let expected: unknown;
          try {
            expectedFields(list, keys, user, values);
          } catch (error) {
            expected = error;
          }
          expect(expected).toBeDefined();
          expect(() => encodedFields(list, keys, user, values)).toThrow(expected as Error);
          expect(() => encodedFields(list, keys, user, values)).toThrow(
            expect.objectContaining({ status: 422, errorCode: 42203 }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
