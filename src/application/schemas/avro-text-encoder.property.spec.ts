// The produce path's encoding from JSON text (encodeWireFormatTextSpans: the Avro text encoder, falling back to
// JSON.parse and the generic conversion) against the generic one (encodeWireFormatSpans over the parsed values), on
// random Avro schemas (records, arrays, maps, unions, enums, fixed, every primitive, nested and recursive) and random
// data in Avro's JSON encoding, valid and not, written as text in several ways (compact, indented, record members
// shuffled or with extra members, numbers as 1.0 or 1e2, escapes, non-ASCII): the same bytes for every field, or the
// same refusal (status, code, message) for the same first field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue, ParsedAvroSchema } from './parsed-schema.js';
import {
  schemaArbitrary,
  LIST,
  parsedSchema,
  randomJson,
  dataArbitrary,
  TextStyle,
  written,
  style,
  agree,
  byTextEncoder,
} from '../../../test/support/avro-text-arbitraries.js';

describe('encodeWireFormatTextSpans', () => {
  it('writes the generic way’s bytes, or its refusal, for random schemas and data written in several ways', () => {
    let encodedByText = 0;
    let refused = 0;
    const cases = schemaArbitrary()
      .map(parsedSchema)
      .filter((schema): schema is ParsedAvroSchema => schema !== null)
      .chain((schema) =>
        fc.tuple(
          fc.constant(schema),
          fc.array(fc.tuple(fc.option(dataArbitrary(schema), { freq: 6 }), style, fc.nat()), {
            minLength: 1,
            maxLength: 6,
          }),
        ),
      );
    fc.assert(
      fc.property(cases, ([schema, records]) => {
        const spanSchema = { id: 77, schema };
        const values = records.map(([value, textStyle, seed]) =>
          value === null ? null : written(value, textStyle, seed),
        );
        const keys = values.map(() => null);
        const expected = agree(spanSchema, spanSchema, keys, values);
        if ('errorCode' in expected) refused++;
        encodedByText += byTextEncoder(spanSchema, values);
      }),
      { numRuns: Number(process.env.RUNS ?? 600) },
    );
    // the generator reaches both sides (not a property that holds by never running the fast path or its refusals)
    expect(encodedByText).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(50);
  });

  it('agrees at the edges of every kind: ranges, sizes, symbols, branches, reordered and repeated map keys', () => {
    const every = {
      id: 6,
      schema: parsedSchema({
        type: 'record',
        name: 'Every',
        fields: [
          { name: 'i', type: 'int' },
          { name: 'l', type: 'long' },
          { name: 'f', type: 'float' },
          { name: 'd', type: 'double' },
          { name: 'b', type: 'boolean' },
          { name: 'n', type: 'null' },
          { name: 's', type: 'string' },
          { name: 'y', type: 'bytes' },
          { name: 'x', type: { type: 'fixed', name: 'Four', size: 4 } },
          { name: 'e', type: { type: 'enum', name: 'Kind', symbols: ['ADMIN', 'USER'] } },
          { name: 'u', type: ['null', 'int', 'string', 'Kind'] },
          { name: 'm', type: { type: 'map', values: 'string' } },
          { name: 'a', type: { type: 'array', items: 'long' } },
        ],
      })!,
    };
    const edges: JsonValue[] = [
      2147483647,
      2147483648,
      -2147483648,
      -2147483649,
      9007199254740991,
      9007199254740992,
      -9007199254740991,
      999999999999999,
      1000000000000000,
      1.5,
      3.4028234663852886e38,
      3.5e38,
      -3.5e38,
      0,
      true,
      false,
      null,
      'é',
      '',
      'abcd',
      'ABCD',
      'abcé',
      'ADMIN',
      'OTHER',
      {},
      [],
      [1, 2],
      [1.5],
      { string: 'x' },
      { int: 1 },
      { Kind: 'USER' },
      { null: null },
      { int: 1, string: 'x' },
      { a: 'b' },
      { 1: 'x', b: 'y' },
      { a: 1 },
    ];
    const field = (name: string) =>
      fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(...edges) },
        { weight: 12, arbitrary: fc.constant(name) }, // the field's valid value, set below
      );
    const names = ['i', 'l', 'f', 'd', 'b', 'n', 's', 'y', 'x', 'e', 'u', 'm', 'a'];
    const value = fc.tuple(...names.map(field)).map((choices) => {
      const base = randomJson(every.schema, false) as Record<string, JsonValue>;
      names.forEach((name, index) => {
        const choice = choices[index];
        if (choice !== name) base[name] = choice as JsonValue;
      });
      return base as JsonValue;
    });
    let refused = 0;
    let encodedByText = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(value, style, fc.nat()), { minLength: 1, maxLength: 4 }), (records) => {
        const values = records.map(([data, textStyle, seed]) => written(data, textStyle, seed));
        if (
          'errorCode' in
          agree(
            every,
            every,
            values.map(() => null),
            values,
          )
        )
          refused++;
        encodedByText += byTextEncoder(every, values);
      }),
      { numRuns: 1500 },
    );
    expect(refused).toBeGreaterThan(300);
    expect(encodedByText).toBeGreaterThan(500);
  });

  it('takes a recursive schema and keys beside values, refusing the first field that does not match', () => {
    const list = { id: 5, schema: parsedSchema(LIST)! };
    const node = fc.letrec<{ node: JsonValue }>((tie) => ({
      node: fc.record({
        value: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant<JsonValue>(1.5), fc.constant<JsonValue>('1')),
        label: fc.oneof(
          fc.constant<JsonValue>(null),
          fc.string().map((text): JsonValue => ({ string: text })),
          fc.constantFrom<JsonValue>({ Kind: 'A' }, { Kind: 'C' }, { string: 1 }, { null: null }, {}),
        ),
        next: fc.oneof(
          { depthSize: 'small' },
          fc.constant(null),
          tie('node').map((inner) => ({ Node: inner })),
        ),
      }),
    })).node;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.option(node), fc.option(node), style, fc.nat()), { minLength: 1, maxLength: 8 }),
        (records) => {
          const text = (value: JsonValue | null, textStyle: TextStyle, seed: number) =>
            value === null ? null : written(value, textStyle, seed);
          agree(
            list,
            list,
            records.map(([key, , textStyle, seed]) => text(key, textStyle, seed)),
            records.map(([, value, textStyle, seed]) => text(value, textStyle, seed)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('grows its buffer inside a long string and a long array, and moves a block whose count needs more bytes', () => {
    const schema = { id: 9, schema: parsedSchema({ type: 'array', items: { type: 'map', values: 'string' } })! };
    const values = [
      JSON.stringify([{ a: 'é'.repeat(200_000) }]),
      JSON.stringify(Array.from({ length: 70 }, (_, i) => ({ k: 'v'.repeat(i) }))),
      JSON.stringify([Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`k${i}`, 'x']))]),
      JSON.stringify([{ s: 'y'.repeat(100) }, { s: 'y'.repeat(10) }, { s: 'y'.repeat(10_000) }]),
    ];
    const expected = agree(
      schema,
      schema,
      values.map(() => null),
      values,
    );
    expect('fields' in expected).toBe(true);
  });
});
