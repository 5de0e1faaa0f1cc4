// Records with schemas over the streaming paths of a real broker: a WebSocket subscription (`ws` client) and an SSE
// stream (plain HTTP, no EventSource library) in `format=avro` / `protobuf` answer each record's value decoded
// from Confluent's wire format, with its `value_schema_id`. Records are encoded by @kafkajs/confluent-schema-registry
// (a client nobody here wrote) and produced as raw bytes (Protobuf through Brook's v3 produce, since that client
// writes no message indexes). A record not in the wire format, one naming an id the
// registry never had and one whose schema was deleted for good each get a per-record `value_error`, and the stream
// goes on: a record encoded with a schema registered after the stream opened is decoded too.
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import { WsClient, type Frame } from './support/ws-client.js';

const avro = (name: string) => JSON.stringify({ type: 'record', name, fields: [{ name: 'n', type: 'int' }] });
const PROTO = 'syntax = "proto3";\nmessage Tick {\n  string sensor = 1;\n  int32 count = 2;\n}\n';

let broker: BrokerProcess;
let cid: string;
let client: ConfluentClient;

beforeAll(async () => {
  broker = await BrokerProcess.start();
  cid = await broker.clusterId();
  client = new ConfluentClient({ host: broker.registryUrl });
  for (const topic of ['ws-avro', 'sse-avro', 'sse-proto']) {
    const created = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
      body: { topic_name: topic, partitions_count: 1 },
    });
    expect(created.status, created.text).toBe(201);
  }
});
afterAll(async () => {
  await broker?.stop();
});

async function produceBytes(topic: string, bytes: Buffer): Promise<number> {
  const answer = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/${topic}/records`, {
    body: { partition_id: 0, value: { type: 'BINARY', data: bytes.toString('base64') } },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.offset as number;
}

/** A schema id whose only version is deleted for good: the registry no longer has it. */
async function goneSchemaRecord(subject: string): Promise<Buffer> {
  const { id } = await client.register({ type: SchemaType.AVRO, schema: avro('Gone') }, { subject });
  const encoded = await client.encode(id, { n: 9 });
  for (const query of ['', '?permanent=true']) {
    const deleted = await call(broker.registryUrl, 'DELETE', `/subjects/${subject}${query}`, {
      contentType: 'application/vnd.schemaregistry.v1+json',
    });
    expect(deleted.status, deleted.text).toBe(200);
  }
  const lookup = await call(broker.registryUrl, 'GET', `/schemas/ids/${id}`);
  expect(lookup.status).toBe(404);
  return encoded;
}

/** The wire format with an id the registry never handed out. */
const UNKNOWN_ID_RECORD = Buffer.concat([Buffer.from([0, 0x00, 0x0f, 0x42, 0x3f]), Buffer.from([2])]);

/** The four records every test writes: decodable, plain text, an unknown id, a schema gone. */
async function produceMixed(topic: string): Promise<number> {
  const { id } = await client.register({ type: SchemaType.AVRO, schema: avro('Count') }, { subject: `${topic}-value` });
  await produceBytes(topic, await client.encode(id, { n: 1 }));
  await produceBytes(topic, Buffer.from('not in the wire format'));
  await produceBytes(topic, UNKNOWN_ID_RECORD);
  await produceBytes(topic, await goneSchemaRecord(`${topic}-gone`));
  return id;
}

function expectMixed(records: Frame[], id: number): void {
  expect(records.slice(0, 4).map((record) => record.offset)).toEqual([0, 1, 2, 3]);
  expect(records[0]).toMatchObject({ value: { n: 1 }, value_schema_id: id });
  expect(records[0].value_error).toBeUndefined();
  expect(records[1]).toMatchObject({
    value: null,
    value_schema_id: null,
    value_error: { error_code: expect.any(Number) },
  });
  expect(records[1].value_error.message).toMatch(/wire format|magic/i);
  expect(records[2]).toMatchObject({
    value: null,
    value_schema_id: 999_999,
    value_error: { error_code: expect.any(Number) },
  });
  expect(records[2].value_error.message).toMatch(/999999/);
  expect(records[3]).toMatchObject({ value: null, value_error: { error_code: expect.any(Number) } });
  expect(records[3].value_error.message).toMatch(/not found|schema/i);
}

describe('WebSocket subscriptions with schema formats', () => {
  it('delivers decoded values with their schema ids, and per-record errors without ending the subscription', async () => {
    const id = await produceMixed('ws-avro');
    const socket = await WsClient.connect(broker.url);
    try {
      socket.send({
        op: 'subscribe',
        id: 's',
        assign: [{ topic: 'ws-avro', partition: 0, offset: 0 }],
        format: 'avro',
      });
      const seen = (): Frame[] =>
        socket.frames.filter((frame) => frame.op === 'records' && frame.id === 's').flatMap((frame) => frame.records);
      await socket.next(() => seen().length >= 4, 10_000);
      expectMixed(seen(), id);
      expect(seen()[0].topic).toBe('ws-avro');
      expect(socket.frames.some((frame) => frame.op === 'error')).toBe(false);

      // a schema registered after the subscription opened: its records are decoded too
      const later = await client.register(
        {
          type: SchemaType.AVRO,
          schema: JSON.stringify({ type: 'record', name: 'Later', fields: [{ name: 's', type: 'string' }] }),
        },
        { subject: 'later-value' },
      );
      await produceBytes('ws-avro', await client.encode(later.id, { s: 'after' }));
      await socket.next(() => seen().length >= 5, 10_000);
      expect(seen()[4]).toMatchObject({ offset: 4, value: { s: 'after' }, value_schema_id: later.id });
      expect(socket.closeCode).toBeNull();
    } finally {
      socket.socket.close();
    }
  });

  it('refuses an unknown format with an error frame', async () => {
    const socket = await WsClient.connect(broker.url);
    try {
      socket.send({ op: 'subscribe', id: 'x', assign: [{ topic: 'ws-avro', partition: 0 }], format: 'thrift' });
      const error = await socket.next((frame) => frame.op === 'error');
      expect(error.message).toContain('format');
    } finally {
      socket.socket.close();
    }
  });
});

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads `count` record events from an SSE stream over plain HTTP, then cancels it. */
async function sseRecords(topic: string, format: string, count: number): Promise<Array<Frame & { eventId: string }>> {
  const response = await fetch(
    `${broker.url}/v3/clusters/${cid}/topics/${topic}/records:stream?from=earliest&format=${format}`,
    { headers: { accept: 'text/event-stream' } },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), 10_000);
  const records = () => events.filter((event) => event.data !== undefined && event.event === undefined);
  try {
    while (records().length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event: SseEvent = {};
        for (const line of buffer.slice(0, end).split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          (event as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
        }
        events.push(event);
        buffer = buffer.slice(end + 2);
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return records().map((event) => ({ ...(JSON.parse(event.data!) as Frame), eventId: event.id! }));
}

describe('SSE streams with schema formats', () => {
  it('streams decoded Avro values with their schema ids, and per-record errors', async () => {
    const id = await produceMixed('sse-avro');
    const records = await sseRecords('sse-avro', 'avro', 4);
    expect(records.map((record) => record.eventId)).toEqual(['0:0', '0:1', '0:2', '0:3']);
    expectMixed(records, id);
  });

  it('streams Protobuf records as proto3 JSON, and answers an Avro record read as Protobuf with an error', async () => {
    const { id } = await client.register({ type: SchemaType.PROTOBUF, schema: PROTO }, { subject: 'sse-proto-value' });
    // through Brook's produce: the independent client writes Protobuf without Confluent's message indexes
    const produced = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/sse-proto/records`, {
      body: { partition_id: 0, value: { schema_id: id, data: { sensor: 's1', count: 3 } } },
    });
    expect(produced.status, produced.text).toBe(200);
    const avroId = (await client.register({ type: SchemaType.AVRO, schema: avro('Other') }, { subject: 'other-value' }))
      .id;
    await produceBytes('sse-proto', await client.encode(avroId, { n: 2 }));
    const records = await sseRecords('sse-proto', 'protobuf', 2);
    expect(records[0]).toMatchObject({ value: { sensor: 's1', count: 3 }, value_schema_id: id });
    expect(records[1]).toMatchObject({
      value: null,
      value_schema_id: avroId,
      value_error: { error_code: expect.any(Number) },
    });
  });
});
