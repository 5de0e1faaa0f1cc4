// Compatibility levels: Confluent's documented examples for each level, transitive and not, the verbose messages,
// and (properties, on random histories of Avro record schemas) how the levels relate: a transitive level is its
// plain level against every previous version, a plain level looks at the latest only, FULL is BACKWARD and
// FORWARD, FORWARD is BACKWARD with the roles swapped, NONE accepts everything.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkCompatibility,
  COMPATIBILITY_LEVELS,
  parseCompatibilityLevel,
  type CompatibilityLevel,
  type PreviousVersion,
} from './compatibility.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedSchema } from './parsed-schema.js';
import { NO_REFERENCES, type SchemaType } from './schema-types.js';

const parse = (schema: unknown, schemaType: SchemaType = 'AVRO'): ParsedSchema =>
  parseSchema({ schemaType, schema: typeof schema === 'string' ? schema : JSON.stringify(schema) }, NO_REFERENCES);

const record = (...fields: object[]) => ({ type: 'record', name: 'myrecord', fields });
const f1 = { name: 'f1', type: 'string' };
const f2WithDefault = { name: 'f2', type: 'string', default: 'foo' };
const f2 = { name: 'f2', type: 'string' };

const history = (...schemas: unknown[]): PreviousVersion[] =>
  schemas.map((schema, index) => ({ version: index + 1, schema: parse(schema) }));

const compatible = (newSchema: unknown, previous: PreviousVersion[], level: CompatibilityLevel) =>
  checkCompatibility(parse(newSchema), previous, level).compatible;

describe("Confluent's documented examples", () => {
  const v1 = history(record(f1));

  it('BACKWARD: a field with a default may be added, one without may not; fields may be deleted', () => {
    expect(compatible(record(f1, f2WithDefault), v1, 'BACKWARD')).toBe(true);
    expect(compatible(record(f1, f2), v1, 'BACKWARD')).toBe(false);
    expect(compatible(record(), v1, 'BACKWARD')).toBe(true);
  });

  it('FORWARD: any field may be added; only fields with defaults may be deleted', () => {
    expect(compatible(record(f1, f2), v1, 'FORWARD')).toBe(true);
    expect(compatible(record(), v1, 'FORWARD')).toBe(false);
    expect(compatible(record(f1), history(record(f1, f2WithDefault)), 'FORWARD')).toBe(true);
  });

  it('FULL: only fields with defaults may be added or deleted', () => {
    expect(compatible(record(f1, f2WithDefault), v1, 'FULL')).toBe(true);
    expect(compatible(record(f1, f2), v1, 'FULL')).toBe(false);
    expect(compatible(record(), v1, 'FULL')).toBe(false);
  });

  it('int to long is a promotion: backward compatible, not forward', () => {
    const ints = history(record({ name: 'n', type: 'int' }));
    expect(compatible(record({ name: 'n', type: 'long' }), ints, 'BACKWARD')).toBe(true);
    expect(compatible(record({ name: 'n', type: 'long' }), ints, 'FORWARD')).toBe(false);
  });

  it('transitive levels check every version: a field deleted and added back with another type', () => {
    const versions = history(record(f1, { name: 'n', type: 'int' }), record(f1));
    const readded = record(f1, { name: 'n', type: 'string', default: '' });
    expect(compatible(readded, versions, 'BACKWARD')).toBe(true);
    expect(compatible(readded, versions, 'BACKWARD_TRANSITIVE')).toBe(false);
    const forwardVersions = history(record(f1, { name: 'n', type: 'int', default: 0 }), record(f1));
    expect(compatible(record(f1, { name: 'n', type: 'string' }), forwardVersions, 'FORWARD')).toBe(true);
    expect(compatible(record(f1, { name: 'n', type: 'string' }), forwardVersions, 'FORWARD_TRANSITIVE')).toBe(false);
    const fullReadded = record(f1, { name: 'n', type: 'string', default: '' });
    const fullVersions = history(record(f1, { name: 'n', type: 'int', default: 0 }), record(f1));
    expect(compatible(fullReadded, fullVersions, 'FULL')).toBe(true);
    expect(compatible(fullReadded, fullVersions, 'FULL_TRANSITIVE')).toBe(false);
  });

  it('NONE accepts anything, and a first version is always compatible', () => {
    expect(compatible('"string"', v1, 'NONE')).toBe(true);
    for (const level of COMPATIBILITY_LEVELS) expect(compatible(record(f1, f2), [], level)).toBe(true);
  });
});

describe('verbose messages', () => {
  it('list the incompatibilities, then the old version and schema, then the level', () => {
    const result = checkCompatibility(parse(record(f1, f2)), history(record(f1)), 'BACKWARD');
    expect(result).toEqual({
      compatible: false,
      messages: [
        "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f2' at path '/fields/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'f2'}",
        '{oldSchemaVersion: 1}',
        `{oldSchema: '${JSON.stringify(record(f1))}'}`,
        "{compatibility: 'BACKWARD'}",
      ],
    });
  });

  it('name the roles the other way round for FORWARD, and name the failing version for transitive levels', () => {
    const forward = checkCompatibility(parse(record()), history(record(f1)), 'FORWARD');
    expect(forward.compatible).toBe(false);
    if (!forward.compatible)
      expect(forward.messages[0]).toContain('in the old schema has no default value and is missing in the new schema');
    const transitive = checkCompatibility(
      parse(record(f1, f2)),
      history(record(f1), record(f1, f2)),
      'BACKWARD_TRANSITIVE',
    );
    expect(transitive.compatible).toBe(false);
    if (!transitive.compatible) expect(transitive.messages).toContain('{oldSchemaVersion: 1}');
  });

  it('a schema of another type is incompatible', () => {
    const result = checkCompatibility(parse('{"type": "string"}', 'JSON'), history(record(f1)), 'BACKWARD');
    expect(result.compatible).toBe(false);
    if (!result.compatible) expect(result.messages[0]).toBe('Incompatible because of different schema type');
  });

  it('levels parse in any case; unknown ones do not', () => {
    expect(parseCompatibilityLevel('full_transitive')).toBe('FULL_TRANSITIVE');
    expect(parseCompatibilityLevel('SOMETIMES')).toBeUndefined();
  });
});

/** Record schemas over three field names, each absent or one of a few variants, so histories mix verdicts. */
const FIELD_VARIANTS: Record<string, object[]> = {
  a: [{ type: 'int' }, { type: 'long' }, { type: 'string' }, { type: 'int', default: 0 }],
  b: [{ type: 'string' }, { type: 'string', default: 'x' }],
  c: [{ type: ['null', 'int'], default: null }, { type: 'int' }],
};
const schemaArbitrary = fc
  .record({
    a: fc.integer({ min: -1, max: 3 }),
    b: fc.integer({ min: -1, max: 1 }),
    c: fc.integer({ min: -1, max: 1 }),
  })
  .map((choice) =>
    parse(
      record(
        ...Object.entries(choice)
          .filter(([, variant]) => variant >= 0)
          .map(([name, variant]) => ({ name, ...FIELD_VARIANTS[name][variant] })),
      ),
    ),
  );
const historyArbitrary = fc
  .array(schemaArbitrary, { minLength: 1, maxLength: 4 })
  .map((schemas) => schemas.map((schema, index) => ({ version: index + 1, schema })));

const ok = (schema: ParsedSchema, previous: readonly PreviousVersion[], level: CompatibilityLevel) =>
  checkCompatibility(schema, previous, level).compatible;

describe('how the levels relate', () => {
  it('a transitive level is its plain level against each previous version; a plain level sees the latest only', () => {
    fc.assert(
      fc.property(schemaArbitrary, historyArbitrary, (schema, previous) => {
        for (const plain of ['BACKWARD', 'FORWARD', 'FULL'] as const) {
          const transitive = `${plain}_TRANSITIVE` as CompatibilityLevel;
          const againstEach = previous.every((version) => ok(schema, [version], plain));
          expect(ok(schema, previous, transitive)).toBe(againstEach);
          expect(ok(schema, previous, plain)).toBe(ok(schema, previous.slice(-1), plain));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('FULL is BACKWARD and FORWARD; FORWARD is BACKWARD with the roles swapped; NONE accepts all', () => {
    let both = 0;
    let neither = 0;
    fc.assert(
      fc.property(schemaArbitrary, schemaArbitrary, (next, latest) => {
        const previous = [{ version: 1, schema: latest }];
        const backward = ok(next, previous, 'BACKWARD');
        const forward = ok(next, previous, 'FORWARD');
        if (backward && forward) both++;
        if (!backward && !forward) neither++;
        expect(ok(next, previous, 'FULL')).toBe(backward && forward);
        expect(forward).toBe(ok(latest, [{ version: 1, schema: next }], 'BACKWARD'));
        expect(ok(next, previous, 'NONE')).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(both).toBeGreaterThan(10);
    expect(neither).toBeGreaterThan(10);
  });
});
