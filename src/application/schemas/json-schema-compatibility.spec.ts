// Every row of the JSON Schema rule table (json-schema-rules.ts) by an example that produces exactly that difference
// (and the listed others): the comparison finds it, and whether the new schema can read the old one's data follows
// the table. Then Confluent's documented content-model examples, drafts, references and recursion.
import { describe, expect, it } from 'vitest';
import { jsonSchemaDifferences, jsonSchemaIncompatibilities } from './json-schema-compatibility.js';
import { JSON_SCHEMA_RULES, type JsonSchemaChange } from './json-schema-rules.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedJsonSchema } from './parsed-schema.js';
import { NO_REFERENCES, type SchemaReferenceResolver } from './schema-types.js';

const parse = (schema: object | boolean, resolver: SchemaReferenceResolver = NO_REFERENCES, references = []) =>
  parseSchema({ schemaType: 'JSON', schema: JSON.stringify(schema), references }, resolver) as ParsedJsonSchema;

interface Example {
  /** The old schema (the writer's). */
  readonly old: object | boolean;
  /** The new schema (the reader's). */
  readonly new: object | boolean;
  /** The other differences the example also has. */
  readonly also?: readonly JsonSchemaChange[];
  /** Data the old schema accepts and the new one refuses: what makes an incompatible row incompatible. */
  readonly witness?: unknown;
  /** An incompatible row without a witness: Confluent's conservative verdict on schemas that accept the same. */
  readonly conservative?: true;
}

const str = { type: 'string' };
const int = { type: 'integer' };
const obj = (more: object = {}) => ({ type: 'object', ...more });
const arr = (more: object = {}) => ({ type: 'array', ...more });
const closed = (more: object = {}) => obj({ additionalProperties: false, ...more });
const strings = (more: object = {}) => obj({ additionalProperties: str, ...more });
const tuple = (items: unknown[], more: object = {}) => arr({ items, ...more });

const EXAMPLES: Record<JsonSchemaChange, Example> = {
  ID_CHANGED: { old: { $id: 'http://example.com/a', ...str }, new: { $id: 'http://example.com/b', ...str } },
  DESCRIPTION_CHANGED: { old: { ...str, description: 'a' }, new: { ...str, description: 'b' } },
  TITLE_CHANGED: { old: { ...str, title: 'a' }, new: { ...str, title: 'b' } },
  DEFAULT_CHANGED: { old: { ...str, default: 'a' }, new: { ...str, default: 'b' } },
  SCHEMA_ADDED: { old: arr(), new: arr({ items: str }), witness: [1] },
  SCHEMA_REMOVED: { old: arr({ items: str }), new: arr() },
  TYPE_EXTENDED: { old: int, new: { type: 'number' } },
  TYPE_NARROWED: { old: { type: 'number' }, new: int, witness: 1.5 },
  TYPE_CHANGED: { old: str, new: int, witness: 'a' },

  MAX_LENGTH_ADDED: { old: str, new: { ...str, maxLength: 5 }, witness: 'abcdef' },
  MAX_LENGTH_REMOVED: { old: { ...str, maxLength: 5 }, new: str },
  MAX_LENGTH_INCREASED: { old: { ...str, maxLength: 5 }, new: { ...str, maxLength: 6 } },
  MAX_LENGTH_DECREASED: { old: { ...str, maxLength: 6 }, new: { ...str, maxLength: 5 }, witness: 'abcdef' },
  MIN_LENGTH_ADDED: { old: str, new: { ...str, minLength: 5 }, witness: '' },
  MIN_LENGTH_REMOVED: { old: { ...str, minLength: 5 }, new: str },
  MIN_LENGTH_INCREASED: { old: { ...str, minLength: 5 }, new: { ...str, minLength: 6 }, witness: 'abcde' },
  MIN_LENGTH_DECREASED: { old: { ...str, minLength: 6 }, new: { ...str, minLength: 5 } },
  PATTERN_ADDED: { old: str, new: { ...str, pattern: '^a' }, witness: 'b' },
  PATTERN_REMOVED: { old: { ...str, pattern: '^a' }, new: str },
  PATTERN_CHANGED: { old: { ...str, pattern: '^a' }, new: { ...str, pattern: '^b' }, witness: 'a' },

  MAXIMUM_ADDED: { old: int, new: { ...int, maximum: 5 }, witness: 6 },
  MAXIMUM_REMOVED: { old: { ...int, maximum: 5 }, new: int },
  MAXIMUM_INCREASED: { old: { ...int, maximum: 5 }, new: { ...int, maximum: 6 } },
  MAXIMUM_DECREASED: { old: { ...int, maximum: 6 }, new: { ...int, maximum: 5 }, witness: 6 },
  MINIMUM_ADDED: { old: int, new: { ...int, minimum: 5 }, witness: 4 },
  MINIMUM_REMOVED: { old: { ...int, minimum: 5 }, new: int },
  MINIMUM_INCREASED: { old: { ...int, minimum: 5 }, new: { ...int, minimum: 6 }, witness: 5 },
  MINIMUM_DECREASED: { old: { ...int, minimum: 6 }, new: { ...int, minimum: 5 } },
  EXCLUSIVE_MAXIMUM_ADDED: { old: int, new: { ...int, exclusiveMaximum: 5 }, witness: 5 },
  EXCLUSIVE_MAXIMUM_REMOVED: { old: { ...int, exclusiveMaximum: 5 }, new: int },
  EXCLUSIVE_MAXIMUM_INCREASED: { old: { ...int, exclusiveMaximum: 5 }, new: { ...int, exclusiveMaximum: 6 } },
  EXCLUSIVE_MAXIMUM_DECREASED: {
    old: { ...int, exclusiveMaximum: 6 },
    new: { ...int, exclusiveMaximum: 5 },
    witness: 5,
  },
  EXCLUSIVE_MINIMUM_ADDED: { old: int, new: { ...int, exclusiveMinimum: 5 }, witness: 5 },
  EXCLUSIVE_MINIMUM_REMOVED: { old: { ...int, exclusiveMinimum: 5 }, new: int },
  EXCLUSIVE_MINIMUM_INCREASED: {
    old: { ...int, exclusiveMinimum: 5 },
    new: { ...int, exclusiveMinimum: 6 },
    witness: 6,
  },
  EXCLUSIVE_MINIMUM_DECREASED: { old: { ...int, exclusiveMinimum: 6 }, new: { ...int, exclusiveMinimum: 5 } },
  MULTIPLE_OF_ADDED: { old: int, new: { ...int, multipleOf: 2 }, witness: 3 },
  MULTIPLE_OF_REMOVED: { old: { ...int, multipleOf: 2 }, new: int },
  MULTIPLE_OF_EXPANDED: { old: { ...int, multipleOf: 2 }, new: { ...int, multipleOf: 4 }, witness: 2 },
  MULTIPLE_OF_REDUCED: { old: { ...int, multipleOf: 4 }, new: { ...int, multipleOf: 2 } },
  MULTIPLE_OF_CHANGED: { old: { ...int, multipleOf: 2 }, new: { ...int, multipleOf: 3 }, witness: 2 },

  REQUIRED_ATTRIBUTE_ADDED: {
    old: obj({ properties: { a: str } }),
    new: obj({ properties: { a: str }, required: ['a'] }),
    witness: {},
  },
  REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED: {
    old: obj({ properties: { a: str } }),
    new: obj({ properties: { a: { ...str, default: 'x' } }, required: ['a'] }),
    also: ['DEFAULT_CHANGED'],
  },
  REQUIRED_ATTRIBUTE_REMOVED: {
    old: obj({ properties: { a: str }, required: ['a'] }),
    new: obj({ properties: { a: str } }),
  },
  MAX_PROPERTIES_ADDED: { old: obj(), new: obj({ maxProperties: 2 }), witness: { a: 1, b: 2, c: 3 } },
  MAX_PROPERTIES_REMOVED: { old: obj({ maxProperties: 2 }), new: obj() },
  MAX_PROPERTIES_INCREASED: { old: obj({ maxProperties: 2 }), new: obj({ maxProperties: 3 }) },
  MAX_PROPERTIES_DECREASED: {
    old: obj({ maxProperties: 3 }),
    new: obj({ maxProperties: 2 }),
    witness: { a: 1, b: 2, c: 3 },
  },
  MIN_PROPERTIES_ADDED: { old: obj(), new: obj({ minProperties: 2 }), witness: {} },
  MIN_PROPERTIES_REMOVED: { old: obj({ minProperties: 2 }), new: obj() },
  MIN_PROPERTIES_INCREASED: { old: obj({ minProperties: 2 }), new: obj({ minProperties: 3 }), witness: { a: 1, b: 2 } },
  MIN_PROPERTIES_DECREASED: { old: obj({ minProperties: 3 }), new: obj({ minProperties: 2 }) },
  ADDITIONAL_PROPERTIES_ADDED: { old: closed(), new: obj() },
  ADDITIONAL_PROPERTIES_REMOVED: { old: obj(), new: closed(), witness: { x: 1 } },
  ADDITIONAL_PROPERTIES_EXTENDED: { old: strings(), new: obj() },
  ADDITIONAL_PROPERTIES_NARROWED: { old: obj(), new: strings(), witness: { x: 1 } },
  DEPENDENCY_ARRAY_ADDED: { old: obj(), new: obj({ dependencies: { a: ['b'] } }), witness: { a: 1 } },
  DEPENDENCY_ARRAY_REMOVED: { old: obj({ dependencies: { a: ['b'] } }), new: obj() },
  DEPENDENCY_ARRAY_EXTENDED: {
    old: obj({ dependencies: { a: ['b'] } }),
    new: obj({ dependencies: { a: ['b', 'c'] } }),
    witness: { a: 1, b: 1 },
  },
  DEPENDENCY_ARRAY_NARROWED: {
    old: obj({ dependencies: { a: ['b', 'c'] } }),
    new: obj({ dependencies: { a: ['b'] } }),
  },
  DEPENDENCY_ARRAY_CHANGED: {
    old: obj({ dependencies: { a: ['b'] } }),
    new: obj({ dependencies: { a: ['c'] } }),
    witness: { a: 1, b: 1 },
  },
  DEPENDENCY_SCHEMA_ADDED: { old: obj(), new: obj({ dependencies: { a: { required: ['b'] } } }), witness: { a: 1 } },
  DEPENDENCY_SCHEMA_REMOVED: { old: obj({ dependencies: { a: { required: ['b'] } } }), new: obj() },
  REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: {
    old: obj(),
    new: obj({ properties: { a: str }, required: ['a'] }),
    witness: {},
  },
  REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL: {
    old: obj(),
    new: obj({ properties: { a: { ...str, default: 'x' } }, required: ['a'] }),
    witness: { a: 1 },
  },
  OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: {
    old: obj(),
    new: obj({ properties: { a: str } }),
    witness: { a: 1 },
  },
  PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL: { old: obj(), new: obj({ properties: { a: {} } }) },
  REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL: {
    old: closed(),
    new: closed({ properties: { a: str }, required: ['a'] }),
    witness: {},
  },
  REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL: {
    old: closed(),
    new: closed({ properties: { a: { ...str, default: 'x' } }, required: ['a'] }),
  },
  OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL: { old: closed(), new: closed({ properties: { a: str } }) },
  PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL: { old: obj({ properties: { a: str } }), new: obj() },
  PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL: { old: closed({ properties: { a: false } }), new: closed() },
  PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL: {
    old: closed({ properties: { a: str } }),
    new: closed(),
    witness: { a: 'x' },
  },
  PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: strings({ properties: { a: str } }),
    new: strings(),
  },
  PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: strings({ properties: { a: int } }),
    new: strings(),
    also: ['TYPE_CHANGED'],
    witness: { a: 1 },
  },
  PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: strings(),
    new: strings({ properties: { a: str } }),
    also: ['OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL'],
  },
  PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: strings(),
    new: strings({ properties: { a: int } }),
    also: ['TYPE_CHANGED', 'OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL'],
    witness: { a: 'x' },
  },

  MAX_ITEMS_ADDED: { old: arr(), new: arr({ maxItems: 2 }), witness: [1, 2, 3] },
  MAX_ITEMS_REMOVED: { old: arr({ maxItems: 2 }), new: arr() },
  MAX_ITEMS_INCREASED: { old: arr({ maxItems: 2 }), new: arr({ maxItems: 3 }) },
  MAX_ITEMS_DECREASED: { old: arr({ maxItems: 3 }), new: arr({ maxItems: 2 }), witness: [1, 2, 3] },
  MIN_ITEMS_ADDED: { old: arr(), new: arr({ minItems: 2 }), witness: [] },
  MIN_ITEMS_REMOVED: { old: arr({ minItems: 2 }), new: arr() },
  MIN_ITEMS_INCREASED: { old: arr({ minItems: 2 }), new: arr({ minItems: 3 }), witness: [1, 2] },
  MIN_ITEMS_DECREASED: { old: arr({ minItems: 3 }), new: arr({ minItems: 2 }) },
  UNIQUE_ITEMS_ADDED: { old: arr(), new: arr({ uniqueItems: true }), witness: [1, 1] },
  UNIQUE_ITEMS_REMOVED: { old: arr({ uniqueItems: true }), new: arr() },
  ADDITIONAL_ITEMS_ADDED: { old: tuple([str], { additionalItems: false }), new: tuple([str]) },
  ADDITIONAL_ITEMS_REMOVED: { old: tuple([str]), new: tuple([str], { additionalItems: false }), witness: ['a', 1] },
  ADDITIONAL_ITEMS_EXTENDED: { old: tuple([str], { additionalItems: str }), new: tuple([str]) },
  ADDITIONAL_ITEMS_NARROWED: { old: tuple([str]), new: tuple([str], { additionalItems: str }), witness: ['a', 1] },
  ITEM_ADDED_TO_OPEN_CONTENT_MODEL: { old: tuple([str]), new: tuple([str, int]), witness: ['a', 'x'] },
  ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL: { old: tuple([str]), new: tuple([str, {}]) },
  ITEM_ADDED_TO_CLOSED_CONTENT_MODEL: {
    old: tuple([str], { additionalItems: false }),
    new: tuple([str, int], { additionalItems: false }),
  },
  ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL: { old: tuple([str, int]), new: tuple([str]) },
  ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL: {
    old: tuple([str, false], { additionalItems: false }),
    new: tuple([str], { additionalItems: false }),
  },
  ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL: {
    old: tuple([str, int], { additionalItems: false }),
    new: tuple([str], { additionalItems: false }),
    witness: ['a', 1],
  },
  ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: tuple([str, str], { additionalItems: str }),
    new: tuple([str], { additionalItems: str }),
  },
  ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: tuple([str, int], { additionalItems: str }),
    new: tuple([str], { additionalItems: str }),
    also: ['TYPE_CHANGED'],
    witness: ['a', 1],
  },
  ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: tuple([str], { additionalItems: str }),
    new: tuple([str, str], { additionalItems: str }),
  },
  ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: {
    old: tuple([str], { additionalItems: str }),
    new: tuple([str, int], { additionalItems: str }),
    also: ['TYPE_CHANGED'],
    witness: ['a', 'b'],
  },

  ENUM_ARRAY_EXTENDED: { old: { enum: ['a'] }, new: { enum: ['a', 'b'] } },
  ENUM_ARRAY_NARROWED: { old: { enum: ['a', 'b'] }, new: { enum: ['a'] }, witness: 'b' },
  ENUM_ARRAY_CHANGED: { old: { enum: ['a'] }, new: { enum: ['b'] }, witness: 'a' },

  COMBINED_TYPE_EXTENDED: { old: { oneOf: [str, int] }, new: { anyOf: [str, int] } },
  COMBINED_TYPE_CHANGED: { old: { anyOf: [str, int] }, new: { oneOf: [str, int] }, conservative: true },
  PRODUCT_TYPE_EXTENDED: { old: { allOf: [str] }, new: { allOf: [str, { maxLength: 5 }] }, witness: 'abcdefg' },
  PRODUCT_TYPE_NARROWED: { old: { allOf: [str, { maxLength: 5 }] }, new: { allOf: [str] } },
  SUM_TYPE_EXTENDED: { old: str, new: { anyOf: [str, int] } },
  SUM_TYPE_NARROWED: { old: { anyOf: [str, int] }, new: { anyOf: [str] }, witness: 1 },
  COMBINED_TYPE_SUBSCHEMAS_CHANGED: {
    old: { anyOf: [str, int] },
    new: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
    witness: 'a',
  },
  NOT_TYPE_EXTENDED: { old: { not: str }, new: { not: { type: ['string', 'integer'] } }, witness: 5 },
  NOT_TYPE_NARROWED: { old: { not: { type: ['string', 'integer'] } }, new: { not: str } },
};

describe('the JSON Schema rule table, row by row', () => {
  it('has an example for every row and no example for anything else', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(JSON_SCHEMA_RULES).sort());
  });

  it('gives every incompatible row a witness (or marks it conservative) and no compatible row one', () => {
    const unproven = Object.entries(EXAMPLES).filter(
      ([change, example]) =>
        JSON_SCHEMA_RULES[change as JsonSchemaChange].compatible !==
        (example.witness === undefined && !example.conservative),
    );
    expect(unproven.map(([change]) => change)).toEqual([]);
  });

  it.each(Object.entries(EXAMPLES) as Array<[JsonSchemaChange, Example]>)('%s', (change, example) => {
    const reader = parse(example.new);
    const writer = parse(example.old);
    const found = jsonSchemaDifferences(reader, writer).map((difference) => difference.change);
    expect(new Set(found)).toEqual(new Set([change, ...(example.also ?? [])]));
    if (example.witness !== undefined) {
      expect(writer.validate(example.witness)).toBe(true);
      expect(reader.validate(example.witness)).toBe(false);
    }
    const expectCompatible = example.witness === undefined && !example.conservative;
    const messages = jsonSchemaIncompatibilities(reader, writer).map((i) => i.describe('new', 'old'));
    expect(messages.length === 0).toBe(expectCompatible);
    if (!JSON_SCHEMA_RULES[change].compatible) expect(messages.join('\n')).toContain(`{errorType:"${change}"`);
  });
});

const backwardMessages = (oldSchema: object, newSchema: object) =>
  jsonSchemaIncompatibilities(parse(newSchema), parse(oldSchema)).map((i) => i.describe('new', 'old'));

describe("Confluent's content-model examples", () => {
  const person = { type: 'object', properties: { name: str } };

  it('an open content model cannot take a new property: old data may hold anything under that name', () => {
    expect(backwardMessages(person, { ...person, properties: { name: str, age: int } })).toEqual([
      `{errorType:"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", description:"The new schema has an open content model and has a property or item at path '#/properties/age' which is missing in the old schema"}`,
    ]);
  });

  it('a closed content model takes a new optional property but loses removed ones', () => {
    const closedPerson = { ...person, additionalProperties: false };
    expect(backwardMessages(closedPerson, { ...closedPerson, properties: { name: str, age: int } })).toEqual([]);
    expect(backwardMessages(closedPerson, { ...closedPerson, properties: {} })).toHaveLength(1);
    expect(backwardMessages(person, { ...person, properties: {} })).toEqual([]);
  });

  it('a partially open content model takes the properties its pattern covers', () => {
    const partial = {
      type: 'object',
      properties: { name: str },
      patternProperties: { '^i_': int },
      additionalProperties: false,
    };
    const withCovered = { ...partial, properties: { name: str, i_age: int } };
    expect(backwardMessages(partial, withCovered)).toEqual([]);
    const withUncovered = { ...partial, properties: { name: str, i_age: str } };
    expect(backwardMessages(partial, withUncovered).join('\n')).toContain(
      'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
    );
  });
});

describe('drafts, references and recursion', () => {
  it("draft-04's boolean exclusiveMaximum is the maximum made exclusive", () => {
    const draft4 = 'http://json-schema.org/draft-04/schema#';
    const before = { $schema: draft4, type: 'number', maximum: 5, exclusiveMaximum: true };
    const after = { $schema: draft4, type: 'number', maximum: 6, exclusiveMaximum: true };
    const found = jsonSchemaDifferences(parse(after), parse(before)).map((d) => d.change);
    expect(found).toEqual(['EXCLUSIVE_MAXIMUM_INCREASED']);
  });

  it('2020-12 prefixItems are tuple items and items the additional ones', () => {
    const draft = 'https://json-schema.org/draft/2020-12/schema';
    const before = { $schema: draft, type: 'array', prefixItems: [str], items: false };
    const after = { $schema: draft, type: 'array', prefixItems: [str, int], items: false };
    expect(jsonSchemaDifferences(parse(after), parse(before)).map((d) => d.change)).toEqual([
      'ITEM_ADDED_TO_CLOSED_CONTENT_MODEL',
    ]);
  });

  it('compares through local $refs and referenced schemas, and terminates on recursive schemas', () => {
    const tree = (valueType: string) => ({
      type: 'object',
      properties: { value: { type: valueType }, children: { type: 'array', items: { $ref: '#' } } },
    });
    expect(jsonSchemaDifferences(parse(tree('string')), parse(tree('string')))).toEqual([]);
    expect(backwardMessages(tree('string'), tree('integer')).join('\n')).toContain("'#/properties/value'");
    const resolver: SchemaReferenceResolver = {
      resolve: (subject) => ({
        schemaType: 'JSON',
        schema: JSON.stringify(subject === 'v1' ? str : int),
        references: [],
      }),
    };
    const using = (subject: string) =>
      parseSchema(
        {
          schemaType: 'JSON',
          schema: JSON.stringify(obj({ properties: { a: { $ref: 'a.json' } } })),
          references: [{ name: 'a.json', subject, version: 1 }],
        },
        resolver,
      ) as ParsedJsonSchema;
    expect(jsonSchemaDifferences(using('v1'), using('v1'))).toEqual([]);
    expect(jsonSchemaDifferences(using('v2'), using('v1'))).toEqual([
      { change: 'TYPE_CHANGED', path: '#/properties/a' },
    ]);
  });
});

describe('the step bound', () => {
  it('stops a comparison that would take exponential time and calls the schemas incompatible', () => {
    const nested = (depth: number, leaf: object): object =>
      depth === 0 ? leaf : { anyOf: [nested(depth - 1, leaf), nested(depth - 1, leaf), nested(depth - 1, leaf)] };
    const messages = backwardMessages(nested(7, str), nested(7, int));
    expect(messages).toEqual([
      '{errorType:"COMPARISON_TOO_COMPLEX", description:"the schemas are too complex to compare within 100000 steps"}',
    ]);
    expect(backwardMessages(nested(3, str), nested(3, str))).toEqual([]);
  });
});
