// Every row of the Protobuf rule table (protobuf-rules.ts) by an example that produces exactly that difference (and
// the listed others). An incompatible row carries a witness: a message the old schema writes that the new schema
// reads back as something else (or not at all), checked with protobufjs's codec; the few that have none are marked
// conservative (Confluent refuses them although the bytes would read). Then scalar groups, maps, nesting, recursion.
import { describe, expect, it } from 'vitest';
import { parseSchema } from './parse-schema.js';
import type { ParsedProtobufSchema } from './parsed-schema.js';
import { protobufDifferences, protobufIncompatibilities } from './protobuf-compatibility.js';
import { PROTOBUF_RULES, type ProtobufChange } from './protobuf-rules.js';
import { NO_REFERENCES } from './schema-types.js';

const parse = (body: string, syntax = 'proto3') =>
  parseSchema(
    { schemaType: 'PROTOBUF', schema: `syntax = "${syntax}";\n${body}` },
    NO_REFERENCES,
  ) as ParsedProtobufSchema;

interface Example {
  readonly old: string;
  readonly new: string;
  readonly syntax?: 'proto2';
  readonly also?: readonly ProtobufChange[];
  /** A value of the old schema's first message that the new schema's first message does not read back as written. */
  readonly witness?: Record<string, unknown>;
  readonly conservative?: true;
}

const EXAMPLES: Record<ProtobufChange, Example> = {
  PACKAGE_CHANGED: { old: 'package a; message M {}', new: 'package b; message M {}', conservative: true },
  MESSAGE_ADDED: { old: 'message A {}', new: 'message A {} message B {}' },
  MESSAGE_REMOVED: { old: 'message A {} message B {}', new: 'message A {}', conservative: true },
  MESSAGE_MOVED: { old: 'message A {} message B {}', new: 'message B {} message A {}' },
  ENUM_ADDED: { old: 'message A {}', new: 'message A {} enum E { X = 0; }' },
  ENUM_REMOVED: { old: 'message A {} enum E { X = 0; }', new: 'message A {}' },
  ENUM_CONST_ADDED: { old: 'enum E { X = 0; }', new: 'enum E { X = 0; Y = 1; }' },
  ENUM_CONST_CHANGED: { old: 'enum E { X = 0; Y = 1; }', new: 'enum E { X = 0; Z = 1; }' },
  ENUM_CONST_REMOVED: { old: 'enum E { X = 0; Y = 1; }', new: 'enum E { X = 0; }' },
  FIELD_ADDED: { old: 'message A { string a = 1; }', new: 'message A { string a = 1; string b = 2; }' },
  FIELD_REMOVED: { old: 'message A { string a = 1; string b = 2; }', new: 'message A { string a = 1; }' },
  FIELD_NAME_CHANGED: { old: 'message A { string a = 1; }', new: 'message A { string b = 1; }' },
  FIELD_KIND_CHANGED: {
    old: 'message A { string a = 1; } message B { int64 n = 1; }',
    new: 'message A { B a = 1; } message B { int64 n = 1; }',
    witness: { a: 'xy' },
  },
  FIELD_SCALAR_KIND_CHANGED: {
    old: 'message A { int32 a = 1; }',
    new: 'message A { string a = 1; }',
    witness: { a: 5 },
  },
  FIELD_NAMED_TYPE_CHANGED: {
    old: 'message A { B x = 1; } message B { string s = 1; } message C { int32 s = 1; }',
    new: 'message A { C x = 1; } message B { string s = 1; } message C { int32 s = 1; }',
    witness: { x: { s: 'hi' } },
  },
  FIELD_NUMERIC_LABEL_CHANGED: {
    old: 'message A { repeated int32 a = 1; }',
    new: 'message A { int32 a = 1; }',
    witness: { a: [1, 2] },
  },
  FIELD_STRING_OR_BYTES_LABEL_CHANGED: {
    old: 'message A { string a = 1; }',
    new: 'message A { repeated string a = 1; }',
  },
  REQUIRED_FIELD_ADDED: {
    syntax: 'proto2',
    old: 'message A { optional string a = 1; }',
    new: 'message A { optional string a = 1; required string b = 2; }',
    witness: { a: 'x' },
  },
  REQUIRED_FIELD_REMOVED: {
    syntax: 'proto2',
    old: 'message A { optional string a = 1; required string b = 2; }',
    new: 'message A { optional string a = 1; }',
    conservative: true,
  },
  ONEOF_ADDED: { old: 'message A {}', new: 'message A { oneof o { string a = 1; } }' },
  ONEOF_REMOVED: { old: 'message A { oneof o { string a = 1; } }', new: 'message A {}' },
  ONEOF_FIELD_ADDED: {
    old: 'message A { oneof o { string a = 1; } }',
    new: 'message A { oneof o { string a = 1; string b = 2; } }',
  },
  ONEOF_FIELD_REMOVED: {
    old: 'message A { oneof o { string a = 1; string b = 2; } }',
    new: 'message A { oneof o { string a = 1; } }',
    witness: { b: 'x' },
  },
  MULTIPLE_FIELDS_MOVED_TO_ONEOF: {
    old: 'message A { string a = 1; string b = 2; }',
    new: 'message A { oneof o { string a = 1; string b = 2; } }',
    also: ['ONEOF_ADDED'],
    witness: { a: 'x', b: 'y' },
  },
  FIELD_MOVED_TO_EXISTING_ONEOF: {
    old: 'message A { string a = 1; oneof o { string b = 2; } }',
    new: 'message A { oneof o { string a = 1; string b = 2; } }',
    also: ['ONEOF_FIELD_ADDED'],
    witness: { a: 'x', b: 'y' },
  },
};

/** Whether the new schema's first message reads what the old one's wrote from `value` back unchanged. */
function readsBack(oldSchema: ParsedProtobufSchema, newSchema: ParsedProtobufSchema, value: Record<string, unknown>) {
  const writer = oldSchema.messages[0].type;
  const reader = newSchema.messages[0].type;
  const bytes = writer.encode(writer.fromObject(value)).finish();
  try {
    const read = reader.toObject(reader.decode(bytes), { longs: String, enums: String, bytes: String });
    return JSON.stringify(read) === JSON.stringify(value);
  } catch {
    return false;
  }
}

describe('the Protobuf rule table, row by row', () => {
  it('has an example for every row, a witness exactly for the incompatible ones that are not conservative', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(PROTOBUF_RULES).sort());
    const unproven = Object.entries(EXAMPLES).filter(
      ([change, example]) =>
        PROTOBUF_RULES[change as ProtobufChange].compatible !==
        (example.witness === undefined && !example.conservative),
    );
    expect(unproven.map(([change]) => change)).toEqual([]);
  });

  it.each(Object.entries(EXAMPLES) as Array<[ProtobufChange, Example]>)('%s', (change, example) => {
    const writer = parse(example.old, example.syntax);
    const reader = parse(example.new, example.syntax);
    const found = protobufDifferences(reader, writer).map((difference) => difference.change);
    expect(new Set(found)).toEqual(new Set([change, ...(example.also ?? [])]));
    if (example.witness) {
      expect(readsBack(writer, writer, example.witness)).toBe(true);
      expect(readsBack(writer, reader, example.witness)).toBe(false);
    }
    const messages = protobufIncompatibilities(reader, writer).map((i) => i.describe('new', 'old'));
    expect(messages.length === 0).toBe(example.witness === undefined && !example.conservative);
    if (messages.length > 0) expect(messages.join('\n')).toContain(`{errorType:"${change}"`);
  });
});

describe('field types', () => {
  const changes = (before: string, after: string) =>
    protobufDifferences(parse(`message A { ${after} }`), parse(`message A { ${before} }`)).map((d) => d.change);

  it.each([
    ['int32', 'int64'],
    ['uint32', 'bool'],
    ['uint64', 'int32'],
    ['sint32', 'sint64'],
    ['string', 'bytes'],
    ['fixed32', 'sfixed32'],
    ['fixed64', 'sfixed64'],
  ])('%s and %s are in one scalar group', (a, b) => {
    expect(changes(`${a} f = 1;`, `${b} f = 1;`)).toEqual([]);
  });

  it.each([
    ['int32', 'sint32'],
    ['int64', 'fixed64'],
    ['float', 'double'],
    ['string', 'int32'],
    ['fixed32', 'fixed64'],
  ])('%s and %s are not', (a, b) => {
    expect(changes(`${a} f = 1;`, `${b} f = 1;`)).toEqual(['FIELD_SCALAR_KIND_CHANGED']);
  });

  it('an enum reads as an integer, and a proto3 optional field is a plain field', () => {
    const withEnum = parse('message A { E f = 1; } enum E { X = 0; }');
    expect(protobufDifferences(withEnum, parse('message A { int32 f = 1; }')).map((d) => d.change)).toEqual([
      'ENUM_ADDED',
    ]);
    expect(changes('string f = 1;', 'optional string f = 1;')).toEqual([]);
  });

  it('maps compare by key and value', () => {
    expect(changes('map<string, int32> m = 1;', 'map<string, int64> m = 1;')).toEqual([]);
    expect(changes('map<string, int32> m = 1;', 'map<int32, int32> m = 1;')).toEqual(['FIELD_SCALAR_KIND_CHANGED']);
    expect(changes('map<string, int32> m = 1;', 'repeated int32 m = 1;')).toEqual(['FIELD_KIND_CHANGED']);
  });

  it('a nested message change is found under its message, and a message used by a field is compared too', () => {
    const before = parse('message A { B b = 1; message N { int32 x = 1; } } message B { int32 y = 1; }');
    const after = parse('message A { B b = 1; message N { string x = 1; } } message B { string y = 1; }');
    const found = protobufDifferences(after, before);
    expect(found).toContainEqual({ change: 'FIELD_SCALAR_KIND_CHANGED', path: '#/A/N/1' });
    expect(found).toContainEqual({ change: 'FIELD_NAMED_TYPE_CHANGED', path: '#/A/1' });
    expect(found).toContainEqual({ change: 'FIELD_SCALAR_KIND_CHANGED', path: '#/B/1' });
  });

  it('recursive messages terminate', () => {
    const tree = (valueType: string) => parse(`message Node { ${valueType} value = 1; repeated Node children = 2; }`);
    expect(protobufDifferences(tree('string'), tree('string'))).toEqual([]);
    expect(protobufDifferences(tree('int32'), tree('string')).map((d) => d.change)).toEqual([
      'FIELD_SCALAR_KIND_CHANGED',
    ]);
  });
});

describe('the step bound', () => {
  it('stops a comparison that would take exponential time and calls the schemas incompatible', () => {
    const chain = (leafType: string) =>
      Array.from({ length: 20 }, (_, i) =>
        i === 19
          ? `message M19 { ${leafType} leaf = 1; }`
          : `message M${i} { ${[1, 2, 3, 4, 5].map((n) => `M${i + 1} f${n} = ${n};`).join(' ')} }`,
      ).join('\n');
    const messages = protobufIncompatibilities(parse(chain('string')), parse(chain('int32'))).map((i) =>
      i.describe('new', 'old'),
    );
    expect(messages).toEqual([
      '{errorType:"COMPARISON_TOO_COMPLEX", description:"the schemas are too complex to compare within 100000 steps"}',
    ]);
  });
});
