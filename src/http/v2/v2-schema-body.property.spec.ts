// The v2 schema body scanner against the full path (parseJson, then v2SchemaRecords' checks) on generated bodies:
// well-formed ones in several layouts, and the same bodies broken (bytes cut, changed or inserted, members repeated,
// other shapes, escapes, control characters, bytes that are not UTF-8, deep nesting). Whenever the full path refuses
// a body the scanner answers null (so the full path answers it as before); whenever the scanner takes one, its
// members, records, keys, values (their texts parse to the full path's values) and partitions are the full path's,
// and a text whose escape bit is clear has no backslash (what the Avro text encoder relies on).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteEdit, edited } from '../../../test/support/json-byte-edits.js';
import { JSON_DEPTH_MAX, parseJson } from '../body/json-body-parser.js';
import { v2SchemaRecords, type V2Record } from './produce-records.schema.js';
import { scanV2SchemaBody, type ScannedSchemaBody } from './v2-schema-body.js';

const MEMBERS = ['key_schema', 'key_schema_id', 'value_schema', 'value_schema_id'] as const;

const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.record({ payload: fc.string({ unit: 'binary' }), n: fc.integer() }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const record = fc.record(
  {
    key: fieldValue,
    value: fieldValue,
    partition: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: -3, max: 5 }) },
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.maxSafeInteger() },
    ),
    other: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const body = fc.record(
  {
    records: fc.array(record, { minLength: 1, maxLength: 6 }),
    key_schema_id: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant('12'), fc.constant(null)),
    value_schema_id: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant('x')),
    value_schema: fc.constant(JSON.stringify({ type: 'record', name: 'R', fields: [] })),
    key_schema: fc.constant(null),
    extra: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['records'] },
);

/** Ways to write a body: compact, indented, with whitespace inside, or a shape the full path refuses. */
const layout = fc.constantFrom('compact', 'indented', 'spaced', 'empty records', 'records not array', 'scalar record');

function text(value: Record<string, unknown>, how: string): string {
  switch (how) {
    case 'indented':
      return JSON.stringify(value, null, '\t');
    case 'spaced':
      return ` \r\n${JSON.stringify(value, null, ' \r\n\t')} `;
    case 'empty records':
      return JSON.stringify({ ...value, records: [] });
    case 'records not array':
      return JSON.stringify({ ...value, records: { 0: value.records } });
    case 'scalar record':
      return JSON.stringify({ ...value, records: [...(value.records as unknown[]), 5] });
    default:
      return JSON.stringify(value);
  }
}

/** One edit of the body's bytes: cut, changed, inserted, or a piece of JSON repeated. */
const edit = byteEdit([
  '"',
  '\\',
  '\\u00e9',
  '\\x',
  '\n',
  '\u0001',
  ',',
  '{',
  ']',
  '"key":1,',
  '"value":2,',
  '-0',
  '01',
  '1.0',
  '\xff',
  'é',
]);

function fullPath(bytes: Buffer): { parsed: Record<string, unknown>; records: V2Record[] } | null {
  try {
    const parsed = parseJson(bytes);
    return { parsed: parsed as Record<string, unknown>, records: v2SchemaRecords(parsed) };
  } catch {
    return null;
  }
}

function fieldText(scanned: ScannedSchemaBody, field: 'key' | 'value', i: number): unknown {
  const at = (field === 'key' ? scanned.fields.keyAt : scanned.fields.valueAt)[i];
  if (at < 0) return null;
  const end = (field === 'key' ? scanned.fields.keyEnd : scanned.fields.valueEnd)[i];
  const escapedBit = field === 'key' ? 1 : 2;
  const source = scanned.text.toString('utf8', at, end);
  if ((scanned.fields.escaped[i] & escapedBit) === 0) expect(source).not.toContain('\\');
  return JSON.parse(source);
}

/** Checks the scanner against the full path; answers whether the scanner took the body. */
function agrees(bytes: Buffer): boolean {
  const scanned = scanV2SchemaBody(bytes, JSON_DEPTH_MAX);
  const full = fullPath(bytes);
  if (full === null) {
    expect(scanned).toBeNull();
    return false;
  }
  if (scanned === null) return false;
  for (const member of MEMBERS) expect(scanned.member(member)).toEqual(full.parsed[member]);
  expect(scanned.count).toBe(full.records.length);
  const partitions = full.records.map((r) => r.partition ?? null);
  expect(scanned.partitions).toEqual(partitions.every((p) => p === null) ? null : partitions);
  full.records.forEach((r, i) => {
    expect(fieldText(scanned, 'key', i)).toEqual(r.key ?? null);
    expect(fieldText(scanned, 'value', i)).toEqual(r.value ?? null);
  });
  expect(scanned.has('key')).toBe(full.records.some((r) => r.key !== undefined && r.key !== null));
  expect(scanned.has('value')).toBe(full.records.some((r) => r.value !== undefined && r.value !== null));
  return true;
}

describe('scanV2SchemaBody', () => {
  it('takes well-formed bodies as the full path reads them, and leaves it every body it refuses', () => {
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(body, layout, (value, how) => {
        const bytes = Buffer.from(text(value, how));
        if (agrees(bytes)) taken++;
        else if (fullPath(bytes) === null) refused++;
      }),
      { numRuns: 800 },
    );
    // Both kinds must be drawn often: over 15 runs of 800 bodies the scanner took 298-349 and the full path alone
    // refused 380-428 (a floor at the median, 300, failed a CI run); these floors are several deviations below.
    expect(taken).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(250);
  });

  it('agrees with the full path on bodies with bytes cut, changed or inserted', () => {
    let taken = 0;
    fc.assert(
      fc.property(body, fc.array(edit, { minLength: 1, maxLength: 3 }), (value, edits) => {
        if (agrees(edited(Buffer.from(JSON.stringify(value)), edits))) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(50);
  });

  it('leaves the full path repeated members, odd partitions, escaped names and deep nesting', () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const cases = [
      '{"records":[{"value":1}],"records":[{"value":2}]}',
      '{"records":[{"value":1,"value":2}]}',
      '{"value_schema_id":1,"value_schema_id":2,"records":[{"value":1}]}',
      '{"records":[{"value":1,"partition":-0}]}',
      '{"records":[{"value":1,"partition":1.0}]}',
      '{"records":[{"value":1,"partition":1234567890123456}]}',
      '{"records":[{"val\\u0075e":1}]}',
      `{"records":[{"value":${deep(JSON_DEPTH_MAX - 3)}}]}`,
      `{"records":[{"value":${deep(JSON_DEPTH_MAX - 2)}}]}`,
      '\ufeff{"records":[{"value":1}]}',
    ];
    const taken = cases.map((source) => agrees(Buffer.from(source)));
    // only the body nested to the full path's limit exactly is the scanner's
    expect(taken).toEqual([false, false, false, false, false, false, false, true, false, false]);
  });
});
