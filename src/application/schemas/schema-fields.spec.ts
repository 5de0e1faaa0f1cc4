// Keys and values read back in a schema format: decoded with the schema their id names, or an error of their own
// (40403 an id the registry does not have, 42207 not the wire format, another schema type, a payload that does not
// match), never a throw; and the record shape around them (record-format.ts's schema formats).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toApiRecord } from '../record-format.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedSchema } from './parsed-schema.js';
import { encodeRecord } from './record-codec.js';
import { decodeField, schemaIdOf } from './schema-fields.js';
import { NO_REFERENCES } from './schema-types.js';

const USER = parseSchema(
  {
    schemaType: 'AVRO',
    schema: JSON.stringify({
      type: 'record',
      name: 'User',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'nick', type: ['null', 'string'], default: null },
      ],
    }),
  },
  NO_REFERENCES,
);
const DOC = parseSchema({ schemaType: 'JSON', schema: '{"type":"object"}' }, NO_REFERENCES);
const schemas = new Map<number, ParsedSchema>([
  [3, USER],
  [4, DOC],
]);
const lookup = (id: number) => schemas.get(id);

describe('decodeField', () => {
  it("decodes Avro to Avro's JSON encoding, with the schema id", () => {
    const bytes = encodeRecord(3, USER, { name: 'ada', nick: { string: 'a' } });
    expect(decodeField(bytes, 'avro', lookup)).toEqual({
      ok: true,
      data: { name: 'ada', nick: { string: 'a' } },
      schemaId: 3,
    });
    expect(schemaIdOf(bytes)).toBe(3);
  });

  it('answers 42207 for bytes not in the wire format, with no schema id', () => {
    const decoded = decodeField(Buffer.from('plain text'), 'avro', lookup);
    expect(decoded).toMatchObject({ ok: false, schemaId: null, error: { error_code: 42207 } });
    expect(schemaIdOf(Buffer.from('plain text'))).toBeUndefined();
  });

  it('answers 40403 for an id the registry does not have', () => {
    const bytes = encodeRecord(99, USER, { name: 'x', nick: null });
    expect(decodeField(bytes, 'avro', lookup)).toEqual({
      ok: false,
      schemaId: 99,
      error: { error_code: 40403, message: 'Schema 99 not found' },
    });
  });

  it('answers 42207 for a schema of another type than the format, and for a payload that does not match', () => {
    const doc = encodeRecord(4, DOC, { a: 1 });
    expect(decodeField(doc, 'avro', lookup)).toMatchObject({ ok: false, schemaId: 4, error: { error_code: 42207 } });
    expect(decodeField(doc, 'jsonschema', lookup)).toEqual({ ok: true, data: { a: 1 }, schemaId: 4 });
    const truncated = Buffer.from([0, 0, 0, 0, 3, 0x80]);
    expect(decodeField(truncated, 'avro', lookup)).toMatchObject({
      ok: false,
      schemaId: 3,
      error: { error_code: 42207 },
    });
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (raw) => {
        const withId = Buffer.concat([Buffer.from([0, 0, 0, 0, 3]), Buffer.from(raw)]);
        for (const bytes of [Buffer.from(raw), withId]) {
          const decoded = decodeField(bytes, 'avro', lookup);
          if (!decoded.ok) expect([40403, 42207]).toContain(decoded.error.error_code);
        }
      }),
    );
  });
});

describe('toApiRecord in a schema format', () => {
  const record = (key: Buffer | null, value: Buffer | null) => ({
    offset: 5,
    timestamp: 1000,
    key,
    value,
    headers: [],
  });

  it('answers the decoded key and value with their schema ids; null stays null', () => {
    const value = encodeRecord(3, USER, { name: 'ada', nick: null });
    expect(toApiRecord(record(null, value), 0, 'avro', 't', lookup)).toEqual({
      topic: 't',
      partition: 0,
      offset: 5,
      timestamp: 1000,
      key: null,
      value: { name: 'ada', nick: null },
      headers: [],
      key_schema_id: null,
      value_schema_id: 3,
    });
  });

  it('gives a field that cannot be decoded an error of its own and answers the other', () => {
    const value = encodeRecord(3, USER, { name: 'ada', nick: null });
    const answered = toApiRecord(record(Buffer.from('k'), value), 1, 'avro', undefined, lookup);
    expect(answered).toMatchObject({ key: null, key_schema_id: null, value: { name: 'ada', nick: null } });
    expect(answered.key_error?.error_code).toBe(42207);
    expect(answered.value_error).toBeUndefined();
  });
});
