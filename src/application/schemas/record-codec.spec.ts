// Records with schemas in and out of the wire format: Avro's JSON encoding, JSON Schema validation, the proto3
// JSON mapping (well-known types included), Confluent's 42203 refusals, and decoding that never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avroValueToJson } from './avro-data.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedSchema } from './parsed-schema.js';
import { decodeRecord, encodeRecord, schemaRecordName, type EncodeOptions } from './record-codec.js';
import { DataConversionError } from './schema-errors.js';
import { NO_REFERENCES, type SchemaType } from './schema-types.js';

const parse = (schemaType: SchemaType, schema: unknown): ParsedSchema =>
  parseSchema({ schemaType, schema: typeof schema === 'string' ? schema : JSON.stringify(schema) }, NO_REFERENCES);

const roundTrip = (schema: ParsedSchema, data: unknown, options?: EncodeOptions) => {
  const bytes = encodeRecord(7, schema, data, options);
  return decodeRecord(bytes, (id) => (id === 7 ? schema : undefined));
};

const refusal = (schema: ParsedSchema, data: unknown, options?: EncodeOptions): DataConversionError => {
  try {
    encodeRecord(1, schema, data, options);
  } catch (error) {
    expect(error).toBeInstanceOf(DataConversionError);
    expect((error as DataConversionError).errorCode).toBe(42203);
    return error as DataConversionError;
  }
  throw new Error(`accepted ${JSON.stringify(data)}`);
};

describe("Avro in Avro's JSON encoding", () => {
  const user = parse('AVRO', {
    type: 'record',
    name: 'User',
    namespace: 'acme',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'age', type: ['null', 'int'], default: null },
      { name: 'tags', type: { type: 'array', items: 'string' }, default: [] },
      { name: 'avatar', type: 'bytes', default: '' },
      { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['ADMIN', 'USER'] }, default: 'USER' },
      { name: 'extra', type: ['null', { type: 'map', values: 'long' }, 'acme.Kind'], default: null },
    ],
  });

  it('writes unions as {"branch": value}, bytes as code points, and fills defaults', () => {
    const decoded = roundTrip(user, {
      name: 'ann',
      age: { int: 30 },
      avatar: '\u0000\u00ff',
      extra: { 'acme.Kind': 'ADMIN' },
    });
    expect(decoded).toEqual({
      ok: true,
      schemaId: 7,
      schemaType: 'AVRO',
      data: {
        name: 'ann',
        age: { int: 30 },
        tags: [],
        avatar: '\u0000\u00ff',
        kind: 'USER',
        extra: { 'acme.Kind': 'ADMIN' },
      },
    });
    expect(roundTrip(user, { name: 'bo', extra: { map: { a: 1 } } })).toMatchObject({
      data: { age: null, extra: { map: { a: 1 } } },
    });
  });

  it('is byte for byte Avro binary after the header', () => {
    const bytes = encodeRecord(1, user, { name: 'a' });
    expect([...bytes]).toEqual([0, 0, 0, 0, 1, 2, 0x61, 0, 0, 0, 2, 0]);
  });

  it.each([
    [{ age: null }, /\$\.name: missing, and the field has no default/],
    [{ name: 'a', age: 30 }, /\$\.age: expected a union value \{"<branch>": value\} with a branch among null, int/],
    [{ name: 'a', age: { long: 3 } }, /long is not a branch/],
    [{ name: 'a', age: { int: 2 ** 31 } }, /\$\.age\.int: expected an int/],
    [{ name: 'a', avatar: '\u0100' }, /\$\.avatar: character 0 \(U\+0100\) is not a byte/],
    [{ name: 'a', kind: 'ROOT' }, /expected one of ADMIN, USER/],
    [{ name: 'a', tags: ['x', 1] }, /\$\.tags\[1\]: expected a string/],
    ['not a record', /expected an object \(a acme\.User record\)/],
  ])('refuses %j', (data, message) => {
    expect(refusal(user, data).message).toMatch(/^Conversion of JSON to Object failed: /);
    expect(refusal(user, data).message).toMatch(message);
  });

  it('round-trips any value of the schema (avsc draws them)', () => {
    fc.assert(
      fc.property(fc.integer(), () => {
        if (user.schemaType !== 'AVRO') throw new Error('not Avro');
        const json = avroValueToJson(user.avroType, user.avroType.random());
        expect(roundTrip(user, json)).toMatchObject({ ok: true, data: json });
      }),
      { numRuns: 200 },
    );
  });
});

describe('JSON Schema', () => {
  const order = parse('JSON', {
    type: 'object',
    properties: { id: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
    required: ['id'],
    additionalProperties: false,
  });

  it('validates and writes compact JSON text', () => {
    const bytes = encodeRecord(3, order, { id: 1, at: '2024-01-02T03:04:05Z' });
    expect(bytes.subarray(5).toString()).toBe('{"id":1,"at":"2024-01-02T03:04:05Z"}');
    expect(roundTrip(order, { id: 2 })).toEqual({ ok: true, schemaId: 7, schemaType: 'JSON', data: { id: 2 } });
  });

  it('refuses data that does not validate, saying where and why', () => {
    expect(refusal(order, { id: 'x', extra: 1 }).details).toBe(
      '#: must NOT have additional properties; #/id: must be integer',
    );
    expect(refusal(order, { id: 1, at: 'yesterday' }).details).toBe('#/at: must match format "date-time"');
    expect(refusal(order, undefined).details).toBe('no data');
  });
});

describe('Protobuf in the proto3 JSON mapping', () => {
  const schema = parse(
    'PROTOBUF',
    `syntax = "proto3";
package acme;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/any.proto";
import "google/protobuf/empty.proto";
message Order {
  int64 order_id = 1;
  uint64 big = 2;
  string note = 3 [json_name = "memo"];
  bytes blob = 4;
  Status status = 5;
  repeated Line lines = 6;
  map<string, int32> counts = 7;
  map<int64, string> by_id = 8;
  oneof payment { string card = 9; string cash = 10; }
  optional int32 priority = 11;
  double ratio = 12;
  google.protobuf.Timestamp at = 13;
  google.protobuf.Duration took = 14;
  google.protobuf.Int32Value maybe = 15;
  google.protobuf.Struct meta = 16;
  google.protobuf.FieldMask mask = 17;
  google.protobuf.Any any = 18;
  google.protobuf.Empty nothing = 19;
  message Line { string sku = 1; int32 qty = 2; }
  enum Status { STATUS_UNSPECIFIED = 0; PAID = 1; }
}
message Other { bool flag = 1; }`,
  );

  it('round-trips every kind of field in its JSON form', () => {
    const data = {
      orderId: '-9007199254740993',
      big: '18446744073709551615',
      memo: 'hi',
      blob: 'AAH/',
      status: 'PAID',
      lines: [{ sku: 'a', qty: 2 }],
      counts: { x: 1 },
      byId: { '5': 'five' },
      card: '4242',
      priority: 0,
      ratio: 'NaN',
      at: '2024-02-29T12:00:00.120Z',
      took: '-1.500s',
      maybe: 0,
      meta: { a: [1, 'b', null, { c: true }] },
      mask: 'orderId,lines.sku',
      any: { '@type': 'type.googleapis.com/acme.Other', flag: true },
      nothing: {},
    };
    expect(roundTrip(schema, data)).toEqual({
      ok: true,
      schemaId: 7,
      schemaType: 'PROTOBUF',
      data,
      messageName: 'acme.Order',
    });
  });

  it('accepts proto names, numbers for 64-bit and enums, offsets in timestamps; omits defaults on output', () => {
    const decoded = roundTrip(schema, { order_id: 5, status: 1, note: '', at: '2024-01-01T01:00:00+01:00' });
    expect(decoded).toMatchObject({ ok: true, data: { orderId: '5', status: 'PAID', at: '2024-01-01T00:00:00Z' } });
    expect(roundTrip(schema, { orderId: 0, ratio: 0, lines: [] })).toMatchObject({ ok: true, data: {} });
  });

  it('writes the message indexes of the message named, the first by default', () => {
    expect([...encodeRecord(1, schema, {}).subarray(5, 6)]).toEqual([0]);
    expect([...encodeRecord(1, schema, { flag: true }, { messageName: 'acme.Other' }).subarray(5)]).toEqual([
      2, 2, 8, 1,
    ]);
    expect([...encodeRecord(1, schema, { sku: 'x' }, { messageName: 'Order.Line' }).subarray(5, 8)]).toEqual([4, 0, 0]);
    expect(roundTrip(schema, { sku: 'x' }, { messageName: '.acme.Order.Line' })).toMatchObject({
      messageName: 'acme.Order.Line',
      data: { sku: 'x' },
    });
    expect(refusal(schema, {}, { messageName: 'Nope' }).details).toBe('the schema has no message Nope');
  });

  it.each([
    [{ nope: 1 }, /\$\.nope: acme\.Order has no field nope/],
    [{ card: 'a', cash: 'b' }, /card and cash are both set in oneof payment/],
    [{ orderId: 2 ** 60 }, /past 2\^53: write it as a string/],
    [{ big: '-1' }, /expected a uint64/],
    [{ status: 'LOST' }, /expected one of STATUS_UNSPECIFIED, PAID/],
    [{ blob: 'not base64!' }, /expected base64 bytes/],
    [{ at: '2024-02-30T00:00:00Z' }, /is not a timestamp/],
    [{ took: '5m' }, /expected a duration/],
    [{ lines: [{ qty: 'many' }] }, /\$\.lines\[0\]\.qty: expected a int32/],
    [{ any: { '@type': 'type.googleapis.com/acme.Missing' } }, /no message/],
  ])('refuses %j', (data, message) => {
    expect(refusal(schema, data).message).toMatch(message);
  });

  it('names the record for the record-name subject strategies', () => {
    expect(schemaRecordName(schema)).toBe('acme.Order');
    expect(schemaRecordName(schema, { messageName: 'Other' })).toBe('acme.Other');
    expect(schemaRecordName(parse('AVRO', { type: 'record', name: 'R', namespace: 'n', fields: [] }))).toBe('n.R');
    expect(schemaRecordName(parse('JSON', { title: 'Person' }))).toBe('Person');
    expect(schemaRecordName(parse('JSON', {}))).toBeUndefined();
  });
});

describe('decoding', () => {
  const avro = parse('AVRO', '"string"');
  const proto = parse('PROTOBUF', 'syntax = "proto3"; message A { string s = 1; }');
  const lookup = (id: number) => (id === 1 ? avro : id === 2 ? proto : undefined);

  it('reports each way bytes can fail, with the schema id when there is one', () => {
    expect(decodeRecord(Buffer.from('plain text'), lookup)).toMatchObject({ ok: false, kind: 'not-wire-format' });
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 9, 0]), lookup)).toEqual({
      ok: false,
      kind: 'unknown-schema',
      message: 'schema 9 not found',
      schemaId: 9,
    });
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 1, 10, 0x61]), lookup)).toMatchObject({
      ok: false,
      kind: 'invalid-payload',
      schemaId: 1,
    });
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 2, 2, 2]), lookup)).toMatchObject({
      ok: false,
      kind: 'bad-message-indexes',
      schemaId: 2,
    });
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 2, 4]), lookup)).toMatchObject({
      ok: false,
      kind: 'bad-message-indexes',
      schemaId: 2,
    });
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 2, 0, 0x0a, 0x05]), lookup)).toMatchObject({
      ok: false,
      kind: 'invalid-payload',
    });
    const throwing = () => {
      throw new Error('store down');
    };
    expect(decodeRecord(Buffer.from([0, 0, 0, 0, 1, 0]), throwing)).toMatchObject({
      ok: false,
      kind: 'unknown-schema',
    });
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.uint8Array({ maxLength: 24 }), (id, tail) => {
        const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0, id]), tail]);
        expect(typeof decodeRecord(bytes, lookup).ok).toBe('boolean');
        expect(typeof decodeRecord(tail, lookup).ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
