// Avro compatibility: avsc's resolver decides; the explanation walks Avro's rules. Each incompatibility type with
// Confluent's message, names without namespaces and aliases, recursive types, and (property) that the explanation
// finds something exactly when avsc refuses, on random pairs of schemas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avroIncompatibilities, avroResolutionError, explainAvroIncompatibilities } from './avro-compatibility.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedAvroSchema } from './parsed-schema.js';
import { InvalidSchemaError } from './schema-errors.js';
import { NO_REFERENCES } from './schema-types.js';

const parse = (schema: unknown) =>
  parseSchema({ schemaType: 'AVRO', schema: JSON.stringify(schema) }, NO_REFERENCES) as ParsedAvroSchema;

const messages = (reader: unknown, writer: unknown) =>
  avroIncompatibilities(parse(reader), parse(writer)).map((i) => i.describe('new', 'old'));

const record = (fields: unknown[], more: object = {}) => ({ type: 'record', name: 'R', fields, ...more });

describe('Avro incompatibilities, as Confluent words them', () => {
  it('a reader field without a default that the writer lacks', () => {
    expect(messages(record([{ name: 'a', type: 'int' }]), record([]))).toEqual([
      "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'a' at path '/fields/0' in the new schema has no default value and is missing in the old schema', additionalInfo:'a'}",
    ]);
    expect(messages(record([{ name: 'a', type: 'int', default: 0 }]), record([]))).toEqual([]);
  });

  it('a type that is neither the same nor a promotion', () => {
    expect(messages(record([{ name: 'a', type: 'int' }]), record([{ name: 'a', type: 'string' }]))).toEqual([
      "{errorType:'TYPE_MISMATCH', description:'The type (path '/fields/0/type') of a field in the new schema does not match with the old schema', additionalInfo:'reader type: int not compatible with writer type: string'}",
    ]);
    for (const [writer, reader] of [
      ['int', 'long'],
      ['int', 'double'],
      ['long', 'float'],
      ['float', 'double'],
      ['string', 'bytes'],
      ['bytes', 'string'],
    ]) {
      expect(messages(reader, writer)).toEqual([]);
    }
    expect(messages('int', 'long')).toHaveLength(1);
  });

  it('enum symbols the reader lacks, unless it has a default', () => {
    const writer = { type: 'enum', name: 'E', symbols: ['A', 'B', 'C'] };
    expect(messages({ ...writer, symbols: ['A'] }, writer)).toEqual([
      "{errorType:'MISSING_ENUM_SYMBOLS', description:'The new schema is missing enum symbols '[B, C]' at path '/symbols' in the old schema', additionalInfo:'[B, C]'}",
    ]);
    expect(messages({ ...writer, symbols: ['A'], default: 'A' }, writer)).toEqual([]);
  });

  it('fixed sizes, names and union branches', () => {
    expect(messages({ type: 'fixed', name: 'F', size: 2 }, { type: 'fixed', name: 'F', size: 3 })[0]).toContain(
      "errorType:'FIXED_SIZE_MISMATCH'",
    );
    expect(messages({ type: 'fixed', name: 'G', size: 2 }, { type: 'fixed', name: 'F', size: 2 })[0]).toContain(
      "errorType:'NAME_MISMATCH', description:'The name of the schema has changed (path '/name')'",
    );
    expect(messages(['null', 'int'], ['null', 'string'])).toEqual([
      "{errorType:'MISSING_UNION_BRANCH', description:'The new schema is missing a type inside a union field at path '/1' in the old schema', additionalInfo:'reader union lacking writer type: \"string\"'}",
    ]);
    expect(messages(['null', 'string'], 'string')).toEqual([]);
    expect(messages('string', ['null', 'string'])[0]).toContain("errorType:'TYPE_MISMATCH'");
  });

  it('names compare without namespaces, and reader aliases name writer types and fields', () => {
    expect(messages(record([], { namespace: 'one' }), record([], { namespace: 'two' }))).toEqual([]);
    const renamed = { type: 'record', name: 'S', aliases: ['R'], fields: [{ name: 'b', aliases: ['a'], type: 'int' }] };
    expect(messages(renamed, record([{ name: 'a', type: 'int' }]))).toEqual([]);
    expect(messages({ ...renamed, aliases: [] }, record([{ name: 'a', type: 'int' }]))[0]).toContain('NAME_MISMATCH');
  });

  it('recursive types terminate', () => {
    const list = (valueType: string) =>
      record([
        { name: 'value', type: valueType },
        { name: 'next', type: ['null', 'R'], default: null },
      ]);
    expect(messages(list('long'), list('int'))).toEqual([]);
    expect(messages(list('int'), list('long'))[0]).toContain("'/fields/0/type'");
  });
});

/** Small random Avro schemas: primitives, one enum, one fixed, arrays, maps, unions of primitives, records. */
const schemaArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown; field: unknown }>(
  (tie) =>
    ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('null', 'int', 'long', 'float', 'double', 'string', 'bytes'),
        fc.record({
          type: fc.constant('enum'),
          name: fc.constant('E'),
          symbols: fc.subarray(['A', 'B', 'C'], { minLength: 1 }),
        }),
        fc.record({ type: fc.constant('fixed'), name: fc.constant('F'), size: fc.integer({ min: 1, max: 2 }) }),
        fc.record({ type: fc.constant('array'), items: tie('schema') }),
        fc.record({ type: fc.constant('map'), values: tie('schema') }),
        fc.uniqueArray(fc.constantFrom('null', 'int', 'string', 'long'), { minLength: 1, maxLength: 3 }),
        fc.record({
          type: fc.constant('record'),
          name: fc.constant('R'),
          fields: fc.uniqueArray(tie('field'), { maxLength: 3, selector: (field) => (field as { name: string }).name }),
        }),
      ),
      field: fc.oneof(
        fc.record({ name: fc.constantFrom('a', 'b', 'c'), type: tie('schema') }),
        fc.record({ name: fc.constantFrom('a', 'b', 'c'), type: fc.constant('int'), default: fc.constant(0) }),
        fc.record({
          name: fc.constantFrom('a', 'b', 'c'),
          type: fc.constant(['null', 'string']),
          default: fc.constant(null),
        }),
      ),
    }) as { schema: fc.Arbitrary<unknown>; field: fc.Arbitrary<unknown> },
).schema;

const parsedOrUndefined = (schema: unknown) => {
  try {
    return parse(schema);
  } catch (error) {
    if (error instanceof InvalidSchemaError) return undefined;
    throw error;
  }
};

describe('the explanation against avsc', () => {
  it('finds an incompatibility exactly when avsc cannot resolve the writer into the reader', () => {
    let compatiblePairs = 0;
    let incompatiblePairs = 0;
    fc.assert(
      fc.property(schemaArbitrary, schemaArbitrary, fc.boolean(), (a, b, same) => {
        const reader = parsedOrUndefined(a);
        const writer = parsedOrUndefined(same ? a : b);
        if (!reader || !writer) return;
        const refused = avroResolutionError(reader.avroType, writer.avroType) !== undefined;
        if (refused) incompatiblePairs++;
        else compatiblePairs++;
        expect(explainAvroIncompatibilities(reader.avroType, writer.avroType).length > 0).toBe(refused);
      }),
      { numRuns: 500 },
    );
    expect(compatiblePairs).toBeGreaterThan(50);
    expect(incompatiblePairs).toBeGreaterThan(50);
  });
});
