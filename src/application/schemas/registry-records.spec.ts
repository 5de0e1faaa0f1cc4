import { describe, expect, it } from 'vitest';
import {
  decodeRegistryRecord,
  encodeRegistryRecord,
  RegistryRecordFormatError,
  type RegistryRecord,
  type SchemaVersionValue,
} from './registry-records.js';

// The `_schemas` record codec: keys are compared as bytes by compaction, so their exact text is part of the format.

const value: SchemaVersionValue = {
  subject: 'orders-value',
  version: 2,
  id: 7,
  schemaType: 'PROTOBUF',
  references: [{ name: 'common.proto', subject: 'common', version: 1 }],
  schema: 'syntax = "proto3"; message Order { string id = 1; }',
  deleted: false,
  fingerprint: 'a'.repeat(64),
  normalizedFingerprint: 'b'.repeat(64),
};

function roundTrip(record: RegistryRecord): RegistryRecord {
  const { key, value: body } = encodeRegistryRecord(record);
  return decodeRegistryRecord(key, body);
}

describe('_schemas records', () => {
  it("writes Confluent's key layouts, field for field", () => {
    const key = (record: RegistryRecord) => encodeRegistryRecord(record).key.toString('utf8');
    expect(key({ kind: 'schema', subject: 's', version: 3, value: null })).toBe(
      '{"keytype":"SCHEMA","subject":"s","version":3,"magic":1}',
    );
    expect(key({ kind: 'config', subject: null, value: null })).toBe('{"keytype":"CONFIG","subject":null,"magic":0}');
    expect(key({ kind: 'mode', subject: 's', value: 'READONLY' })).toBe('{"keytype":"MODE","subject":"s","magic":0}');
    expect(key({ kind: 'max-schema-id', id: 9 })).toBe('{"keytype":"MAX_SCHEMA_ID","magic":0}');
  });

  it('round-trips every kind, tombstones included', () => {
    const records: RegistryRecord[] = [
      { kind: 'schema', subject: value.subject, version: 2, value },
      { kind: 'schema', subject: value.subject, version: 2, value: { ...value, deleted: true } },
      { kind: 'schema', subject: value.subject, version: 2, value: null },
      { kind: 'config', subject: null, value: { compatibilityLevel: 'FULL_TRANSITIVE' } },
      { kind: 'config', subject: 's', value: { compatibilityLevel: 'NONE', normalize: true } },
      { kind: 'config', subject: 's', value: null },
      { kind: 'mode', subject: null, value: 'IMPORT' },
      { kind: 'mode', subject: 's', value: null },
      { kind: 'max-schema-id', id: 2_147_483_647 },
    ];
    for (const record of records) expect(roundTrip(record)).toEqual(record);
  });

  it('writes the schema value with the fields in one order, so that equal values are equal bytes', () => {
    const body = encodeRegistryRecord({ kind: 'schema', subject: value.subject, version: 2, value }).value;
    expect(Object.keys(JSON.parse(body!.toString('utf8')) as object)).toEqual([
      'subject',
      'version',
      'id',
      'schemaType',
      'references',
      'schema',
      'deleted',
      'fingerprint',
      'normalizedFingerprint',
    ]);
  });

  it('refuses what is not a registry record, saying why', () => {
    const bad: Array<[string, string | null, RegExp]> = [
      ['not json', null, /not JSON/],
      ['[]', null, /key must be a JSON object/],
      ['{"keytype":"NOOP","magic":0}', null, /unknown keytype "NOOP"/],
      ['{"keytype":"SCHEMA","subject":"s","version":0,"magic":1}', null, /key.version/],
      ['{"keytype":"SCHEMA","subject":"","version":1,"magic":1}', null, /key.subject must not be empty/],
      [
        '{"keytype":"SCHEMA","subject":"s","version":1,"magic":1}',
        JSON.stringify({ ...value, subject: 's', version: 2 }),
        /the value names s\/2, the key s\/1/,
      ],
      [
        '{"keytype":"SCHEMA","subject":"s","version":1,"magic":1}',
        JSON.stringify({ ...value, subject: 's', version: 1, schemaType: 'XML' }),
        /schemaType must be one of/,
      ],
      ['{"keytype":"CONFIG","subject":null,"magic":0}', '{"compatibilityLevel":"SIDEWAYS"}', /compatibilityLevel/],
      ['{"keytype":"MODE","subject":null,"magic":0}', '{"mode":"READWRITE_MAYBE"}', /mode must be one of/],
      ['{"keytype":"MAX_SCHEMA_ID","magic":0}', null, /never deleted/],
      ['{"keytype":"MAX_SCHEMA_ID","magic":0}', '{"id":-4}', /id must be an integer/],
    ];
    for (const [key, body, message] of bad) {
      const decode = () => decodeRegistryRecord(Buffer.from(key), body === null ? null : Buffer.from(body));
      expect(decode).toThrow(RegistryRecordFormatError);
      expect(decode).toThrow(message);
    }
  });
});
