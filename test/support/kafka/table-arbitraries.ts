// fast-check arbitraries for any message of Brook's Kafka table, built from the table itself: for a version, a
// field the version has gets values of its type (null too where the version allows it), and a field it lacks
// gets its default, which is what a decoder answers for it. The defaults are restated here from the table's
// rules (schema.ts) rather than taken from the codec, so that the round-trip tests check the codec against them.
import fc from 'fast-check';
import {
  type Field,
  type ScalarType,
  inVersions,
  parseVersions,
  type Versions,
} from '../../../src/kafka/protocol/schema.js';

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const ARRAY_LENGTH_MAX = 3;

function scalarDefault(type: ScalarType): unknown {
  switch (type) {
    case 'bool':
      return false;
    case 'uuid':
      return ZERO_UUID;
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'records':
      return null;
    default:
      return 0;
  }
}

function defaultOf(field: Field): unknown {
  const shape = field.shape;
  switch (shape.kind) {
    case 'scalar':
      return field.options.default !== undefined ? field.options.default : scalarDefault(shape.type);
    case 'scalarArray':
    case 'structArray':
      return field.options.default === null ? null : [];
    case 'struct':
      return Object.fromEntries(shape.fields.map((nested) => [nested.name, defaultOf(nested)]));
  }
}

const buffers = (maxLength: number) => fc.uint8Array({ maxLength }).map((bytes) => Buffer.from(bytes));

function scalarArbitrary(type: ScalarType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'bool':
      return fc.boolean();
    case 'int8':
      return fc.integer({ min: -0x80, max: 0x7f });
    case 'int16':
      return fc.integer({ min: -0x8000, max: 0x7fff });
    case 'int32':
      return fc.integer({ min: -0x80000000, max: 0x7fffffff });
    case 'int64':
      return fc.maxSafeInteger();
    case 'uuid':
      return fc.uuid();
    case 'string':
      return fc.string({ unit: 'grapheme', maxLength: 12 });
    case 'bytes':
      return buffers(24);
    case 'records':
      // long enough at times to be spliced into the frame rather than copied
      return fc.oneof(buffers(24), buffers(700));
  }
}

function fieldArbitrary(field: Field, version: number): fc.Arbitrary<unknown> {
  if (!inVersions(version, field.versions)) return fc.constant(defaultOf(field));
  const shape = field.shape;
  let values: fc.Arbitrary<unknown>;
  switch (shape.kind) {
    case 'scalar':
      values = scalarArbitrary(shape.type);
      break;
    case 'scalarArray':
      values = fc.array(scalarArbitrary(shape.element), { maxLength: ARRAY_LENGTH_MAX });
      break;
    case 'structArray':
      values = fc.array(structArbitrary(shape.fields, version), { maxLength: ARRAY_LENGTH_MAX });
      break;
    case 'struct':
      values = structArbitrary(shape.fields, version);
      break;
  }
  const withDefault = field.options.tag !== undefined ? fc.oneof(fc.constant(defaultOf(field)), values) : values;
  return inVersions(version, field.options.nullable) ? fc.option(withDefault, { nil: null }) : withDefault;
}

/** Any value of a struct of the table at `version`, as a decoder of that version would answer it. */
export function structArbitrary(fields: readonly Field[], version: number): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(Object.fromEntries(fields.map((field) => [field.name, fieldArbitrary(field, version)])));
}

/** Every version of a closed table range such as '2-9'. */
export function versionsOf(range: Versions): number[] {
  const { min, max } = parseVersions(range);
  if (!Number.isFinite(max)) throw new Error(`open range ${range}`);
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}
