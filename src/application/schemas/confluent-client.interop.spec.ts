// Byte-for-byte agreement with an implementation nobody here wrote: @kafkajs/confluent-schema-registry 3.9.0 (with
// its own protobufjs 7 and ajv 7). It looks schemas up over the registry's HTTP protocol, so a tiny in-test server
// answers its look-ups from a fixed table; its encoder and decoder are then used as they ship. For the same schema
// id, schema and data, Brook's bytes equal its bytes and it decodes Brook's bytes, for Avro and JSON Schema. For
// Protobuf it writes no message indexes (Confluent's serializers do): Brook's bytes are its header, the indexes,
// then its payload byte for byte, for every message of a file with several messages and a nested one; it decodes
// Brook's bytes for a file's first message (it skips the single 0 byte) and cannot for the others.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import avro from 'avsc';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avroValueToJson } from './avro-data.js';
import { parseSchema } from './parse-schema.js';
import type { ParsedAvroSchema, ParsedProtobufSchema, ParsedSchema } from './parsed-schema.js';
import { decodeRecord, encodeRecord } from './record-codec.js';
import { NO_REFERENCES, type SchemaType as BrookSchemaType } from './schema-types.js';
import { encodeMessageIndexes } from './wire-format.js';
import { encodeWireFormatTextSpans, VALUE_ESCAPED } from './wire-format-spans.js';

const AVRO_ID = 11;
const JSON_ID = 12;
const PROTOBUF_ID = 13;

const AVRO_SCHEMA = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'acme',
  fields: [
    { name: 'name', type: 'string' },
    { name: 'age', type: ['null', 'int'], default: null },
    { name: 'score', type: 'double' },
    { name: 'visits', type: 'long' },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'avatar', type: 'bytes' },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['ADMIN', 'USER'] } },
    { name: 'props', type: { type: 'map', values: ['null', 'string'] } },
    { name: 'id', type: { type: 'fixed', name: 'Id', size: 4 } },
  ],
});
const JSON_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id'],
});
const PROTOBUF_SCHEMA = `syntax = "proto3";
package acme;

message Order {
  int64 id = 1;
  string note = 2;
  repeated Line lines = 3;
  Status status = 4;
  map<string, int32> counts = 5;
  bytes blob = 6;
  double ratio = 7;

  message Line {
    string sku = 1;
    int32 qty = 2;
  }
  enum Status {
    STATUS_UNSPECIFIED = 0;
    PAID = 1;
  }
}

message Customer {
  string name = 1;
  sint32 rank = 2;
}
`;

const registered: Record<number, { schemaType: BrookSchemaType; schema: string }> = {
  [AVRO_ID]: { schemaType: 'AVRO', schema: AVRO_SCHEMA },
  [JSON_ID]: { schemaType: 'JSON', schema: JSON_SCHEMA },
  [PROTOBUF_ID]: { schemaType: 'PROTOBUF', schema: PROTOBUF_SCHEMA },
};
const parsed = (id: number): ParsedSchema =>
  parseSchema({ schemaType: registered[id].schemaType, schema: registered[id].schema }, NO_REFERENCES);
const brookSchemas = new Map<number, ParsedSchema>(
  Object.keys(registered).map((id) => [Number(id), parsed(Number(id))]),
);
const lookup = (id: number) => brookSchemas.get(id);

let server: Server;
let host: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const match = /^\/schemas\/ids\/(\d+)$/.exec(request.url ?? '');
    const entry = match ? registered[Number(match[1])] : undefined;
    response.setHeader('content-type', 'application/vnd.schemaregistry.v1+json');
    if (!entry) {
      response.statusCode = 404;
      response.end(JSON.stringify({ error_code: 40403, message: 'Schema not found' }));
      return;
    }
    response.end(
      JSON.stringify({ schema: entry.schema, schemaType: entry.schemaType === 'AVRO' ? undefined : entry.schemaType }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('Avro', () => {
  const brook = brookSchemas.get(AVRO_ID) as ParsedAvroSchema;
  /** avsc's own reading of Avro's JSON encoding gives the values the client encodes (its unions unwrapped). */
  const plainType = avro.Type.forSchema(JSON.parse(AVRO_SCHEMA));

  it('writes the same bytes as the client for the same id, schema and data, and the client reads them', async () => {
    const client = new SchemaRegistry({ host });
    const json = {
      name: 'ann',
      age: { int: 30 },
      score: 1.5,
      visits: 1234567890123,
      tags: ['a', 'b'],
      avatar: '\u0000\u00ff\u0080',
      kind: 'ADMIN',
      props: { x: { string: 'y' }, z: null },
      id: 'abcd',
    };
    const value = plainType.fromString(JSON.stringify(json));
    const theirs = await client.encode(AVRO_ID, value);
    const ours = encodeRecord(AVRO_ID, brook, json);
    expect(ours.equals(theirs)).toBe(true);
    expect(await client.decode(ours)).toEqual(value);
    expect(decodeRecord(theirs, lookup)).toEqual({ ok: true, schemaId: AVRO_ID, schemaType: 'AVRO', data: json });
  });

  it('agrees on any value of the schema', async () => {
    const client = new SchemaRegistry({ host });
    await fc.assert(
      fc.asyncProperty(fc.integer(), async () => {
        const json = avroValueToJson(brook.avroType, brook.avroType.random());
        const value = plainType.fromString(JSON.stringify(json));
        const ours = encodeRecord(AVRO_ID, brook, json);
        expect(ours.equals(await client.encode(AVRO_ID, value))).toBe(true);
        expect(plainType.toString(await client.decode(ours))).toBe(plainType.toString(value));
      }),
      { numRuns: 100 },
    );
  });
});

describe('Avro from JSON text (the v2 produce path)', () => {
  const brook = brookSchemas.get(AVRO_ID) as ParsedAvroSchema;
  const plainType = avro.Type.forSchema(JSON.parse(AVRO_SCHEMA));
  /** The text's one value encoded as the produce path encodes a record's value from the request body. */
  const fromText = (text: string): Buffer => {
    const body = Buffer.from(text);
    const spans = encodeWireFormatTextSpans(
      1,
      null,
      { id: AVRO_ID, schema: brook },
      {
        text: body,
        keyAt: Int32Array.of(-1),
        keyEnd: Int32Array.of(0),
        valueAt: Int32Array.of(0),
        valueEnd: Int32Array.of(body.length),
        escaped: Uint8Array.of(text.includes('\\') ? VALUE_ESCAPED : 0),
      },
    );
    return Buffer.from(spans.data.subarray(spans.valueAt[0], spans.valueAt[0] + spans.valueLength[0]));
  };

  it('writes the same bytes as the client for any value of the schema, its bytes ASCII or not', async () => {
    const client = new SchemaRegistry({ host });
    await fc.assert(
      fc.asyncProperty(fc.boolean(), async (ascii) => {
        const random = brook.avroType.random() as unknown as { avatar: Buffer; id: Buffer };
        if (ascii)
          for (const bytes of [random.avatar, random.id]) bytes.forEach((b, i) => (bytes[i] = 0x41 + (b % 26)));
        const json = avroValueToJson(brook.avroType, random);
        const value = plainType.fromString(JSON.stringify(json));
        expect(fromText(JSON.stringify(json)).equals(await client.encode(AVRO_ID, value))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('JSON Schema', () => {
  const brook = brookSchemas.get(JSON_ID)!;

  it('writes the same bytes as the client for the same data, and the client reads them', async () => {
    const client = new SchemaRegistry({ host });
    const data = fc.record(
      { id: fc.integer(), name: fc.string(), tags: fc.array(fc.string({ unit: 'grapheme' })) },
      { requiredKeys: ['id'] },
    );
    await fc.assert(
      fc.asyncProperty(data, async (value) => {
        const ours = encodeRecord(JSON_ID, brook, value);
        expect(ours.equals(await client.encode(JSON_ID, value))).toBe(true);
        expect(await client.decode(ours)).toEqual(value);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Protobuf', () => {
  const brook = brookSchemas.get(PROTOBUF_ID) as ParsedProtobufSchema;
  /** The client's own protobufjs (version 7), to turn the JSON data into the message objects it encodes. */
  const clientRequire = createRequire(createRequire(import.meta.url).resolve('@kafkajs/confluent-schema-registry'));
  const theirProtobuf = clientRequire('protobufjs') as typeof import('protobufjs');
  const theirRoot = theirProtobuf.parse(PROTOBUF_SCHEMA).root;

  const cases = [
    {
      messageName: 'Order',
      indexes: [0],
      json: {
        id: '-9007199254740993',
        note: 'first',
        lines: [{ sku: 'a', qty: 2 }, { sku: 'b' }],
        status: 'PAID',
        counts: { x: 1, y: -2 },
        blob: 'AAH/',
        ratio: 0.25,
      },
    },
    { messageName: 'Customer', indexes: [1], json: { name: 'bo', rank: -7 } },
    { messageName: 'Order.Line', indexes: [0, 0], json: { sku: 'c', qty: 9 } },
  ];

  it.each(cases)(
    '$messageName: the client header, the message indexes, the client payload',
    async ({ messageName, indexes, json }) => {
      const client = new SchemaRegistry({ host }, { [SchemaType.PROTOBUF]: { messageName } });
      const message = theirRoot.lookupType(`acme.${messageName}`).fromObject(json);
      const theirs = await client.encode(PROTOBUF_ID, message);
      const ours = encodeRecord(PROTOBUF_ID, brook, json, { messageName });
      expect(ours.subarray(0, 5).equals(theirs.subarray(0, 5))).toBe(true);
      expect(ours.subarray(5).equals(Buffer.concat([encodeMessageIndexes(indexes), theirs.subarray(5)]))).toBe(true);
      const withIndexes = Buffer.concat([theirs.subarray(0, 5), encodeMessageIndexes(indexes), theirs.subarray(5)]);
      expect(decodeRecord(withIndexes, lookup)).toEqual({
        ok: true,
        schemaId: PROTOBUF_ID,
        schemaType: 'PROTOBUF',
        data: json,
        messageName: `acme.${messageName}`,
      });
    },
  );

  it('the client reads the bytes of a first message (it skips the single 0 index byte)', async () => {
    const client = new SchemaRegistry({ host });
    const ours = encodeRecord(PROTOBUF_ID, brook, cases[0].json);
    const decoded = (await client.decode(ours)) as InstanceType<typeof theirProtobuf.Message>;
    const type = theirRoot.lookupType('acme.Order');
    expect(type.toObject(decoded, { longs: String, enums: String, bytes: String })).toEqual(cases[0].json);
  });
});
