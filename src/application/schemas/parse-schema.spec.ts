// Parsing schemas of the three types: what is refused (with Confluent's 42201 wording), how references resolve, and
// which schemas the canonical and normalized texts (and so the fingerprints) recognise as the same.
import { describe, expect, it } from 'vitest';
import { parseSchema, schemaFingerprint } from './parse-schema.js';
import { InvalidSchemaError } from './schema-errors.js';
import {
  MAX_REFERENCE_DEPTH,
  NO_REFERENCES,
  parseSchemaType,
  type SchemaInput,
  type SchemaReferenceResolver,
  type SchemaType,
  type StoredSchema,
} from './schema-types.js';

function resolverOf(entries: Record<string, StoredSchema>): SchemaReferenceResolver {
  return { resolve: (subject, version) => entries[`${subject}/${version}`] };
}

function refusal(input: SchemaInput, resolver = NO_REFERENCES): InvalidSchemaError {
  try {
    parseSchema(input, resolver);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSchemaError);
    return error as InvalidSchemaError;
  }
  throw new Error(`accepted ${input.schema}`);
}

const same = (schemaType: SchemaType, a: string, b: string, normalize: boolean) =>
  schemaFingerprint(parseSchema({ schemaType, schema: a }, NO_REFERENCES), normalize) ===
  schemaFingerprint(parseSchema({ schemaType, schema: b }, NO_REFERENCES), normalize);

describe('schema types', () => {
  it('reads the registry names and the REST Proxy JSONSCHEMA, in any case', () => {
    expect(parseSchemaType('avro')).toBe('AVRO');
    expect(parseSchemaType('JSONSCHEMA')).toBe('JSON');
    expect(parseSchemaType('json')).toBe('JSON');
    expect(parseSchemaType('Protobuf')).toBe('PROTOBUF');
    expect(parseSchemaType('BINARY')).toBeUndefined();
  });
});

describe('invalid schemas', () => {
  it.each<[SchemaType, string, RegExp]>([
    ['AVRO', '{"type": "record", "name": "R"', /is not JSON/],
    ['AVRO', '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "nope"}]}', /undefined type name: nope/],
    ['AVRO', '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int", "default": "x"}]}', /invalid/],
    ['AVRO', '{"type": "enum", "name": "E", "symbols": ["A", "A"]}', /duplicate/],
    ['JSON', '[1, 2]', /must be a JSON object or a boolean/],
    ['JSON', '{"type": "strin"}', /schema is invalid/],
    ['JSON', '{"$schema": "http://example.com/my-meta", "type": "string"}', /unsupported \$schema/],
    ['JSON', '{"$ref": "missing.json"}', /can't resolve reference missing.json/],
    ['PROTOBUF', 'syntax = "proto3"; message M { int32 a = 1 }', /illegal/],
    ['PROTOBUF', 'syntax = "proto3"; message M { Unknown a = 1; }', /no such type/i],
    ['PROTOBUF', 'syntax = "proto4"; message M {}', /syntax must be/],
    ['PROTOBUF', 'syntax = "proto3"; import "other.proto"; message M {}', /imports "other.proto", which no reference/],
  ])('%s %s is refused', (schemaType, schema, details) => {
    const error = refusal({ schemaType, schema });
    expect(error.status).toBe(422);
    expect(error.errorCode).toBe(42201);
    expect(error.details).toMatch(details);
    expect(error.message).toBe(
      `Invalid schema ${schema} with refs [] of type ${schemaType}, details: ${error.details}`,
    );
    expect(error.asRestProxyError().errorCode).toBe(42205);
  });

  it('an Avro array whose items write no bytes is refused: its count could not be bounded when read', () => {
    const empty = { type: 'record', name: 'Nothing', fields: [{ name: 'n', type: 'null' }] };
    for (const items of ['null', empty, { type: 'fixed', name: 'Z', size: 0 }]) {
      const schema = JSON.stringify({
        type: 'record',
        name: 'R',
        fields: [{ name: 'a', type: { type: 'array', items } }],
      });
      expect(refusal({ schemaType: 'AVRO', schema }).details).toMatch(/writes no bytes per item/);
    }
    const fine = { type: 'array', items: { type: 'map', values: 'null' } };
    expect(parseSchema({ schemaType: 'AVRO', schema: JSON.stringify(fine) }, NO_REFERENCES).schemaType).toBe('AVRO');
  });

  it('nesting past the bound is refused before any library recursion', () => {
    const deep = '['.repeat(300) + '"int"' + ']'.repeat(300);
    expect(refusal({ schemaType: 'AVRO', schema: deep }).details).toMatch(/nests deeper than 256/);
  });
});

describe('JSON Schema drafts', () => {
  it.each([
    ['http://json-schema.org/draft-04/schema#', { type: 'number', maximum: 3, exclusiveMaximum: true }, 3],
    ['http://json-schema.org/draft-06/schema#', { type: 'number', exclusiveMaximum: 3 }, 3],
    ['http://json-schema.org/draft-07/schema#', { if: { type: 'string' }, then: { minLength: 2 } }, 'a'],
    ['https://json-schema.org/draft/2019-09/schema', { dependentRequired: { a: ['b'] } }, { a: 1 }],
    ['https://json-schema.org/draft/2020-12/schema', { prefixItems: [{ type: 'string' }], items: false }, ['a', 'b']],
  ])('%s is validated by its own rules', ($schema, keywords, refused) => {
    const parsed = parseSchema({ schemaType: 'JSON', schema: JSON.stringify({ $schema, ...keywords }) }, NO_REFERENCES);
    if (parsed.schemaType !== 'JSON') throw new Error('not JSON');
    expect(parsed.validate(refused)).toBe(false);
  });
});

describe('references', () => {
  const customer: StoredSchema = {
    schemaType: 'AVRO',
    schema: '{"type": "record", "name": "Customer", "namespace": "acme", "fields": [{"name": "id", "type": "long"}]}',
    references: [],
  };
  const order =
    '{"type": "record", "name": "Order", "namespace": "acme", "fields": [{"name": "c", "type": "Customer"}]}';

  it('an Avro schema uses the named types of the schemas it references', () => {
    const resolver = resolverOf({ 'customer/1': customer });
    const parsed = parseSchema(
      { schemaType: 'AVRO', schema: order, references: [{ name: 'acme.Customer', subject: 'customer', version: 1 }] },
      resolver,
    );
    expect(parsed.canonical).toBe(
      '{"type":"record","name":"acme.Order","fields":[{"name":"c","type":"acme.Customer"}]}',
    );
    expect(refusal({ schemaType: 'AVRO', schema: order }).details).toMatch(/undefined type name/);
  });

  it('a missing version, a cycle, another type and a chain past the bound are refused', () => {
    const reference = [{ name: 'acme.Customer', subject: 'customer', version: 2 }];
    expect(refusal({ schemaType: 'AVRO', schema: order, references: reference }).details).toMatch(
      /subject customer version 2 not found/,
    );
    const loop: StoredSchema = { ...customer, references: [{ name: 'x', subject: 'loop', version: 1 }] };
    const cyclic = resolverOf({ 'loop/1': loop });
    expect(
      refusal({ schemaType: 'AVRO', schema: order, references: [{ name: 'x', subject: 'loop', version: 1 }] }, cyclic)
        .details,
    ).toMatch(/reference cycle/);
    const json = resolverOf({ 'customer/1': { ...customer, schemaType: 'JSON' } });
    expect(
      refusal({ schemaType: 'AVRO', schema: order, references: [{ name: 'c', subject: 'customer', version: 1 }] }, json)
        .details,
    ).toMatch(/is a JSON schema, not AVRO/);
    const chain: Record<string, StoredSchema> = {};
    for (let i = 0; i <= MAX_REFERENCE_DEPTH; i++) {
      chain[`s${i}/1`] = {
        schemaType: 'JSON',
        schema: '{}',
        references: [{ name: `n${i + 1}`, subject: `s${i + 1}`, version: 1 }],
      };
    }
    const chained = {
      schemaType: 'JSON' as const,
      schema: '{}',
      references: [{ name: 'n0', subject: 's0', version: 1 }],
    };
    expect(refusal(chained, resolverOf(chain)).details).toMatch(/references nest deeper than 32/);
    expect(
      refusal({ schemaType: 'JSON', schema: '{}', references: [{ name: '', subject: 's', version: 1 }] }).details,
    ).toMatch(/non-empty name/);
  });

  it('a JSON Schema $ref names a referenced schema by its reference name', () => {
    const resolver = resolverOf({
      'customer/1': { schemaType: 'JSON', schema: '{"type": "object", "required": ["id"]}', references: [] },
    });
    const parsed = parseSchema(
      {
        schemaType: 'JSON',
        schema: '{"type": "object", "properties": {"c": {"$ref": "customer.json"}}}',
        references: [{ name: 'customer.json', subject: 'customer', version: 1 }],
      },
      resolver,
    );
    if (parsed.schemaType !== 'JSON') throw new Error('not JSON');
    expect(parsed.validate({ c: { id: 1 } })).toBe(true);
    expect(parsed.validate({ c: {} })).toBe(false);
  });

  it("a referenced Protobuf file's own imports are satisfied by its own references", () => {
    const resolver = resolverOf({
      'money/1': {
        schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; package money; message Amount { int64 cents = 1; }',
        references: [],
      },
      'line/1': {
        schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; package line; import "money.proto"; message Line { money.Amount price = 1; }',
        references: [{ name: 'money.proto', subject: 'money', version: 1 }],
      },
    });
    const parsed = parseSchema(
      {
        schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; import "line.proto"; message Order { repeated line.Line lines = 1; }',
        references: [{ name: 'line.proto', subject: 'line', version: 1 }],
      },
      resolver,
    );
    if (parsed.schemaType !== 'PROTOBUF') throw new Error('not PROTOBUF');
    expect(parsed.messages.map((m) => m.type.fullName)).toEqual(['.Order']);
    const orphan = {
      ...resolver,
      resolve: (s: string, v: number) => (s === 'line' ? { ...resolver.resolve(s, v)!, references: [] } : undefined),
    };
    expect(
      refusal(
        {
          schemaType: 'PROTOBUF',
          schema: 'syntax = "proto3"; import "line.proto"; message Order { repeated line.Line lines = 1; }',
          references: [{ name: 'line.proto', subject: 'line', version: 1 }],
        },
        orphan,
      ).details,
    ).toMatch(/reference line\.proto imports "money\.proto", which no reference provides/);
  });

  it('a Protobuf import is satisfied by the reference of that name, and well-known imports need none', () => {
    const resolver = resolverOf({
      'other/3': {
        schemaType: 'PROTOBUF',
        schema: 'syntax = "proto3"; package other; message Thing { string id = 1; }',
        references: [],
      },
    });
    const parsed = parseSchema(
      {
        schemaType: 'PROTOBUF',
        schema:
          'syntax = "proto3"; package app; import "other.proto"; import "google/protobuf/timestamp.proto";\n' +
          'message Event { other.Thing thing = 1; google.protobuf.Timestamp at = 2; }',
        references: [{ name: 'other.proto', subject: 'other', version: 3 }],
      },
      resolver,
    );
    if (parsed.schemaType !== 'PROTOBUF') throw new Error('not PROTOBUF');
    expect(parsed.messages.map((m) => m.type.fullName)).toEqual(['.app.Event']);
    expect(parsed.root.lookupType('app.Event').fields.thing.resolvedType?.fullName).toBe('.other.Thing');
  });
});

describe('canonical and normalized texts', () => {
  it('Avro: layout, key order and namespace spelling do not matter; custom attribute order only when normalized', () => {
    const a = '{"type":"record","name":"R","namespace":"ns","fields":[{"name":"a","type":{"type":"string"}}]}';
    const b =
      '{\n "namespace": "ns", "fields": [ {"type": "string", "name": "a", "order": "ascending"} ],\n "name": "R", "type": "record" }';
    const c = '{"type":"record","name":"ns.R","fields":[{"name":"a","type":"string"}]}';
    expect(same('AVRO', a, b, false)).toBe(true);
    expect(same('AVRO', a, c, false)).toBe(true);
    const x = '{"type":"record","name":"R","x":1,"y":2,"fields":[]}';
    const y = '{"type":"record","name":"R","y":2,"x":1,"fields":[]}';
    expect(same('AVRO', x, y, false)).toBe(false);
    expect(same('AVRO', x, y, true)).toBe(true);
    expect(
      same('AVRO', a, '{"type":"record","name":"R","namespace":"ns","fields":[{"name":"b","type":"string"}]}', true),
    ).toBe(false);
  });

  it('Avro keeps what avsc would drop: logical types, enum defaults, custom attributes', () => {
    const schema =
      '{"type":"record","name":"R","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-millis"}},{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"default":"A"},"x-doc":"d"}]}';
    const parsed = parseSchema({ schemaType: 'AVRO', schema }, NO_REFERENCES);
    expect(parsed.canonical).toBe(
      '{"type":"record","name":"R","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-millis"}},' +
        '{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"default":"A"},"x-doc":"d"}]}',
    );
    expect(same('AVRO', schema, schema.replace('timestamp-millis', 'timestamp-micros'), true)).toBe(false);
  });

  it('JSON Schema: layout does not matter; key order only when normalized', () => {
    const a = '{"type": "object", "properties": {"a": {"type": "string"}}}';
    const b = '{"properties":{"a":{"type":"string"}},"type":"object"}';
    expect(same('JSON', a, '{"type":"object",\n"properties":{"a":{"type":"string"}}}', false)).toBe(true);
    expect(same('JSON', a, b, false)).toBe(false);
    expect(same('JSON', a, b, true)).toBe(true);
    expect(same('JSON', a, '{"type": "object", "properties": {"a": {"type": "integer"}}}', true)).toBe(false);
  });

  it('Protobuf: comments and layout do not matter; type spelling, option and field order only when normalized', () => {
    const a =
      'syntax = "proto3";\npackage p;\n// the message\nmessage M {\n  string a = 1;\n  M.N n = 2;\n  message N { int32 x = 1; }\n}';
    const b = 'syntax="proto3"; package p; message M { string a = 1; /* n */ M.N n = 2; message N { int32 x = 1; } }';
    const c = 'syntax = "proto3"; package p; message M { N n = 2; string a = 1; message N { int32 x = 1; } }';
    expect(same('PROTOBUF', a, b, false)).toBe(true);
    expect(same('PROTOBUF', a, c, false)).toBe(false);
    expect(same('PROTOBUF', a, c, true)).toBe(true);
    const twoMessages = 'syntax = "proto3"; package p; message A {} message B {}';
    expect(same('PROTOBUF', twoMessages, 'syntax = "proto3"; package p; message B {} message A {}', true)).toBe(false);
    const parsed = parseSchema({ schemaType: 'PROTOBUF', schema: a }, NO_REFERENCES);
    expect(parsed.normalized).toBe(
      'syntax = "proto3";\npackage p;\nmessage M {\n  string a = 1;\n  .p.M.N n = 2;\n  message N {\n    int32 x = 1;\n  }\n}\n',
    );
  });

  it('the canonical Protobuf text parses back to the same canonical text', () => {
    const schema =
      'syntax = "proto2"; package p; option java_package = "x.y"; option optimize_for = SPEED;\n' +
      'message M { option deprecated = true; reserved 4, 8 to 10; reserved "gone"; extensions 100 to max;\n' +
      '  required string a = 1 [default = "q"]; repeated int32 b = 2 [packed = true]; map<string, M> m = 3;\n' +
      '  oneof choice { string c = 5; int64 d = 6; }\n  enum E { option allow_alias = true; X = 0; Y = 0 [deprecated = true]; }\n}\n' +
      'service S { rpc Call (M) returns (stream M); }';
    const first = parseSchema({ schemaType: 'PROTOBUF', schema }, NO_REFERENCES);
    const second = parseSchema({ schemaType: 'PROTOBUF', schema: first.canonical }, NO_REFERENCES);
    expect(second.canonical).toBe(first.canonical);
    expect(second.normalized).toBe(first.normalized);
  });

  it('references take part in the fingerprint, in any order once normalized', () => {
    const resolver = resolverOf({
      'a/1': { schemaType: 'JSON', schema: '{}', references: [] },
      'b/1': { schemaType: 'JSON', schema: '{}', references: [] },
    });
    const refA = { name: 'a.json', subject: 'a', version: 1 };
    const refB = { name: 'b.json', subject: 'b', version: 1 };
    const print = (references: SchemaInput['references'], normalize: boolean) =>
      schemaFingerprint(parseSchema({ schemaType: 'JSON', schema: '{}', references }, resolver), normalize);
    expect(print([refA, refB], false)).not.toBe(print([refB, refA], false));
    expect(print([refA, refB], true)).toBe(print([refB, refA], true));
    expect(print([refA], true)).not.toBe(print([], true));
    expect(print([refA], true)).toMatch(/^[0-9a-f]{64}$/);
  });
});
