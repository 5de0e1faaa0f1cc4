// Records with schemas on one broker, against a client nobody here wrote (@kafkajs/confluent-schema-registry):
// what it registers and encodes, Brook's stateless read decodes; what Brook's v3 produce writes is byte for byte
// what it encodes, and it decodes it; every way v3 names a schema (inline, schema_id, subject + schema_version, a
// subject's latest, none); v2 avro produce and a v2 consumer instance in the avro format; JSON Schema and
// Protobuf; Confluent's refusals; records not in the wire format answered with a per-record error.
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import { V2Consumer, waitForAssignment, type V2Record } from './support/v2-consumer.js';

const C = '/v3/clusters/{cluster_id}';
const T = `${C}/topics/{topic_name}`;
const READ = `${T}/partitions/{partition_id}/records`;
const USER = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'acme',
  fields: [
    { name: 'name', type: 'string' },
    { name: 'nick', type: ['null', 'string'], default: null },
  ],
});
const USER_BREAKING = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'acme',
  fields: [{ name: 'id', type: 'long' }],
});

let broker: BrokerProcess;
let cid: string;
let client: ConfluentClient;

beforeAll(async () => {
  broker = await BrokerProcess.start();
  cid = await broker.clusterId();
  client = new ConfluentClient({ host: broker.registryUrl });
  for (const topic of ['people', 'docs', 'protos', 'v2-people', 'plain', 'v2-keyed']) {
    const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
      body: { topic_name: topic, partitions_count: topic === 'v2-keyed' ? 3 : 1 },
      spec: `${C}/topics`,
    });
    expect(response.status, response.text).toBe(201);
  }
});
afterAll(async () => {
  await broker?.stop();
});

const produce = (topic: string, body: unknown) =>
  call(broker.url, 'POST', `/v3/clusters/${cid}/topics/${topic}/records`, { body, spec: `${T}/records` });

const read = (topic: string, query: string) =>
  call(broker.url, 'GET', `/v3/clusters/${cid}/topics/${topic}/partitions/0/records?${query}`, { spec: READ });

/** The value bytes stored at `offset`. */
async function storedValue(topic: string, offset: number): Promise<Buffer> {
  const response = await read(topic, `offset=${offset}&max_records=1&format=binary`);
  expect(response.status, response.text).toBe(200);
  return Buffer.from(response.body.records[0].value as string, 'base64');
}

describe('records with schemas', () => {
  it("decodes in Brook's read what the independent client registered and encoded", async () => {
    const { id } = await client.register({ type: SchemaType.AVRO, schema: USER }, { subject: 'people-value' });
    const encoded = await client.encode(id, { name: 'ada', nick: 'countess' });
    const sent = await produce('people', { value: { type: 'BINARY', data: encoded.toString('base64') } });
    expect(sent.status, sent.text).toBe(200);

    const decoded = await read('people', `offset=${sent.body.offset}&max_records=1&format=avro`);
    expect(decoded.status, decoded.text).toBe(200);
    expect(decoded.body.records[0]).toMatchObject({
      key: null,
      value: { name: 'ada', nick: { string: 'countess' } },
      key_schema_id: null,
      value_schema_id: id,
    });
    expect(decoded.body.records[0].value_error).toBeUndefined();
  });

  it('writes what the independent client encodes, byte for byte, whichever way the record names its schema', async () => {
    const id = await client.getLatestSchemaId('people-value');
    const inline = await produce('people', {
      value: { type: 'AVRO', schema: USER, data: { name: 'bob', nick: { string: 'b' } } },
    });
    expect(inline.status, inline.text).toBe(200);
    expect(inline.body.value).toMatchObject({
      type: 'AVRO',
      subject: 'people-value',
      schema_id: id,
      schema_version: 1,
    });
    const bytes = await storedValue('people', inline.body.offset as number);
    expect(bytes.equals(await client.encode(id, { name: 'bob', nick: 'b' }))).toBe(true);
    expect(await client.decode(bytes)).toEqual({ name: 'bob', nick: 'b' });

    const ways = [
      { schema_id: id, data: { name: 'by-id', nick: null } },
      { subject: 'people-value', schema_version: 1, data: { name: 'by-version', nick: null } },
      { subject: 'people-value', data: { name: 'by-subject', nick: null } },
      { data: { name: 'implied', nick: null } },
    ];
    for (const value of ways) {
      const sent = await produce('people', { value });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.value).toMatchObject({ type: 'AVRO', schema_id: id, subject: 'people-value' });
      const stored = await storedValue('people', sent.body.offset as number);
      expect(await client.decode(stored)).toEqual(value.data);
    }
  });

  it('refuses an incompatible evolution with 409 and data or schemas that do not fit, storing nothing', async () => {
    const before = (await read('people', 'from=latest&max_records=1')).body.high_watermark as number;
    await expect(
      client.register({ type: SchemaType.AVRO, schema: USER_BREAKING }, { subject: 'people-value' }),
    ).rejects.toMatchObject({ status: 409 });
    const incompatible = await produce('people', { value: { type: 'AVRO', schema: USER_BREAKING, data: { id: 1 } } });
    expectError(incompatible, 422, 42207, /people-value/);
    expectError(await produce('people', { value: { type: 'AVRO', schema: USER, data: { name: 7 } } }), 422, 42203);
    expectError(await produce('people', { value: { type: 'AVRO', schema: '{"type":', data: 1 } }), 422, 42205);
    expectError(await produce('people', { value: { schema_id: 999_999, data: {} } }), 422, 42207);
    expect((await read('people', 'from=latest&max_records=1')).body.high_watermark).toBe(before);
  });

  it('round-trips JSON Schema records both ways with the independent client', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    });
    const { id } = await client.register({ type: SchemaType.JSON, schema }, { subject: 'docs-value' });
    const theirs = await client.encode(id, { n: 1 });
    expect((await produce('docs', { value: { type: 'BINARY', data: theirs.toString('base64') } })).status).toBe(200);
    const ours = await produce('docs', { value: { type: 'JSONSCHEMA', schema, data: { n: 2 } } });
    expect(ours.body.value).toMatchObject({ type: 'JSONSCHEMA', schema_id: id });
    expect(await client.decode(await storedValue('docs', ours.body.offset as number))).toEqual({ n: 2 });
    const decoded = await read('docs', 'offset=0&format=jsonschema');
    expect(decoded.body.records.map((r: { value: unknown }) => r.value)).toEqual([{ n: 1 }, { n: 2 }]);
    expectError(await produce('docs', { value: { type: 'JSONSCHEMA', schema, data: { n: 'x' } } }), 422, 42203);
  });

  it('stores Protobuf records with their message indexes and reads them back as proto3 JSON', async () => {
    const schema = 'syntax = "proto3";\npackage acme;\nmessage Point { int32 x = 1; string label = 2; }\n';
    const sent = await produce('protos', { value: { type: 'PROTOBUF', schema, data: { x: 3, label: 'p' } } });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.value.schema_id as number;
    const stored = await storedValue('protos', sent.body.offset as number);
    expect(stored[0]).toBe(0);
    expect(stored.readInt32BE(1)).toBe(id);
    expect(stored[5]).toBe(0);
    const decoded = await read('protos', 'offset=0&format=protobuf');
    expect(decoded.body.records[0]).toMatchObject({ value: { x: 3, label: 'p' }, value_schema_id: id });
  });

  it('answers a per-record error for records not in the wire format or whose schema is not there', async () => {
    const plain = await produce('plain', { value: { type: 'STRING', data: 'not avro' } });
    expect(plain.status).toBe(200);
    const unknownId = Buffer.from([0, 0x7f, 0, 0, 1, 2]).toString('base64');
    expect((await produce('plain', { value: { type: 'BINARY', data: unknownId } })).status).toBe(200);
    const id = await client.getLatestSchemaId('people-value');
    const good = await client.encode(id, { name: 'fine', nick: null });
    expect((await produce('plain', { value: { type: 'BINARY', data: good.toString('base64') } })).status).toBe(200);

    const decoded = await read('plain', 'offset=0&format=avro');
    expect(decoded.status, decoded.text).toBe(200);
    const [notWire, gone, fine] = decoded.body.records;
    expect(notWire).toMatchObject({ value: null, value_schema_id: null, value_error: { error_code: 42207 } });
    expect(gone).toMatchObject({ value: null, value_schema_id: 0x7f000001, value_error: { error_code: 40403 } });
    expect(fine).toMatchObject({ value: { name: 'fine', nick: null }, value_schema_id: id });
    const wrongFormat = await read('plain', 'offset=2&format=protobuf');
    expect(wrongFormat.body.records[0].value_error).toMatchObject({ error_code: 42207 });
  });

  it('produces in the v2 avro format and reads it back through a consumer instance in the avro format', async () => {
    const sent = await call(broker.url, 'POST', '/topics/v2-people', {
      contentType: 'application/vnd.kafka.avro.v2+json',
      body: { value_schema: USER, records: [{ value: { name: 'v2', nick: { string: 'two' } } }] },
      spec: '/topics/{topic_name}',
    });
    expect(sent.status, sent.text).toBe(200);
    const id = await client.getLatestSchemaId('v2-people-value');
    expect(sent.body).toMatchObject({ key_schema_id: null, value_schema_id: id });
    const byId = await call(broker.url, 'POST', '/topics/v2-people', {
      contentType: 'application/vnd.kafka.avro.v2+json',
      body: { value_schema_id: id, records: [{ value: { name: 'again', nick: null } }] },
      spec: '/topics/{topic_name}',
    });
    expect(byId.body.offsets[0]).toMatchObject({ offset: 1, error_code: null });
    const noSchema = await call(broker.url, 'POST', '/topics/v2-people', {
      contentType: 'application/vnd.kafka.avro.v2+json',
      body: { records: [{ value: { name: 'x' } }] },
    });
    expectError(noSchema, 422, 42202);

    const consumer = await V2Consumer.create(broker.url, 'avro-readers', 'reader', {
      format: 'avro',
      'auto.offset.reset': 'earliest',
    });
    await consumer.subscribe(['v2-people']);
    await waitForAssignment(consumer, (partitions) => partitions.length === 1);
    const records: V2Record[] = [];
    for (let round = 0; round < 50 && records.length < 2; round++) records.push(...(await consumer.poll(500)));
    expect(records.map((r) => r.value)).toEqual([
      { name: 'v2', nick: { string: 'two' } },
      { name: 'again', nick: null },
    ]);
    expect(records.every((r) => r.value_schema_id === id)).toBe(true);
    await consumer.delete();
  });

  it('writes v2 avro keys and values byte for byte as the client encodes them, and refuses with nothing stored', async () => {
    const v2 = (body: unknown) =>
      call(broker.url, 'POST', '/topics/v2-keyed', {
        contentType: 'application/vnd.kafka.avro.v2+json',
        body,
        spec: '/topics/{topic_name}',
      });
    const KEY = JSON.stringify({ type: 'string' });
    const records = Array.from({ length: 30 }, (_, i) => ({
      key: `k${i}`,
      value: { name: `n${i}`, nick: i % 3 === 0 ? null : { string: 'é'.repeat(i) } },
      ...(i % 7 === 0 ? { partition: i % 3 } : {}),
    }));
    const sent = await v2({ key_schema: KEY, value_schema: USER, records });
    expect(sent.status, sent.text).toBe(200);
    const keyId = await client.getLatestSchemaId('v2-keyed-key');
    const valueId = await client.getLatestSchemaId('v2-keyed-value');
    expect(sent.body).toMatchObject({ key_schema_id: keyId, value_schema_id: valueId });
    const offsets = sent.body.offsets as Array<{ partition: number; offset: number; error_code: null }>;
    expect(new Set(offsets.map((o) => o.partition)).size).toBeGreaterThan(1);
    for (const [i, { partition, offset, error_code }] of offsets.entries()) {
      expect(error_code).toBeNull();
      if (records[i].partition !== undefined) expect(partition).toBe(records[i].partition);
      const stored = await call(
        broker.url,
        'GET',
        `/v3/clusters/${cid}/topics/v2-keyed/partitions/${partition}/records?offset=${offset}&max_records=1&format=binary`,
        { spec: READ },
      );
      const { key, value } = stored.body.records[0] as { key: string; value: string };
      expect(Buffer.from(key, 'base64').equals(await client.encode(keyId, `k${i}`))).toBe(true);
      const nick = records[i].value.nick === null ? null : 'é'.repeat(i);
      expect(Buffer.from(value, 'base64').equals(await client.encode(valueId, { name: `n${i}`, nick }))).toBe(true);
    }

    const ends = async () =>
      Promise.all(
        [0, 1, 2].map(
          async (p) =>
            (await call(broker.url, 'GET', `/topics/v2-keyed/partitions/${p}/offsets`)).body.end_offset as number,
        ),
      );
    const before = await ends();
    const fine = { value: { name: 'fine', nick: null } };
    expectError(await v2({ value_schema_id: valueId, records: [{ ...fine, key: 'k' }] }), 422, 42201);
    expectError(await v2({ key_schema_id: keyId, records: [{ key: 'k', value: fine.value }] }), 422, 42202);
    const badData = { value_schema_id: valueId, records: [fine, { value: { name: 7 } }, fine] };
    expectError(await v2(badData), 422, 42203);
    const badKey = {
      key_schema_id: keyId,
      value_schema_id: valueId,
      records: [
        { ...fine, key: 'k' },
        { ...fine, key: 3 },
      ],
    };
    expectError(await v2(badKey), 422, 42203);
    expectError(await v2({ value_schema: '{"type":', records: [fine] }), 422, 42205);
    expectError(await v2({ value_schema_id: 999_999, records: [fine] }), 422, 42207);
    expect(await ends()).toEqual(before);
  });
});
