// The schema registry of a 3-broker cluster when its Redis is emptied (FLUSHALL on the real redis-server): the
// schema id counter in the coordination store is gone with everything else. Once the controller has restored the
// store, every broker still serves every schema under the same id and every subject's versions, records written
// with schemas before are still decoded, and new registrations get ids above every id handed out before, the
// permanently deleted ones included: the allocator is raised above the highest id `_schemas` ever named.
import { SchemaRegistry as ConfluentClient } from '@kafkajs/confluent-schema-registry';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { SESSION_TIMEOUT_MS, TestCluster, waitUntil } from './support/cluster.js';
import { call, type ApiResponse } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

const MEDIA_TYPE = 'application/vnd.schemaregistry.v1+json';
const avro = (name: string) => JSON.stringify({ type: 'record', name, fields: [{ name: 'n', type: 'int' }] });
const JSON_DOC = JSON.stringify({ type: 'object', properties: { t: { type: 'string' } } });
const PROTO = 'syntax = "proto3";\nmessage Wiped {\n  string s = 1;\n}\n';

let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

const registry = (broker: BrokerProcess, method: string, path: string, body?: unknown) =>
  call(broker.registryUrl, method, path, { contentType: MEDIA_TYPE, body });

/** Registers, retrying while the answer is 5xx or the broker does not answer (no `_schemas` leader yet), bounded. */
async function register(broker: BrokerProcess, subject: string, schema: string, schemaType?: string): Promise<number> {
  const answer = await waitUntil<ApiResponse>(
    `registering under ${subject} through broker ${broker.port}`,
    async () => {
      const response = await registry(broker, 'POST', `/subjects/${subject}/versions`, {
        schema,
        ...(schemaType === undefined ? {} : { schemaType }),
      }).catch(() => null);
      return response !== null && response.status < 500 ? response : null;
    },
    45_000,
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body.id as number;
}

describe('the schema registry of a cluster whose Redis is emptied', () => {
  it('keeps every schema under its id, and never hands out an id again', async () => {
    const [first, second, third] = cluster.brokers;
    const ids = new Map<string, number>();
    ids.set('a-value', await register(first, 'a-value', avro('A')));
    ids.set('b-value', await register(second, 'b-value', JSON_DOC, 'JSON'));
    ids.set('c-value', await register(third, 'c-value', PROTO, 'PROTOBUF'));
    ids.set('a2', await register(first, 'a-value', JSON.stringify({ ...JSON.parse(avro('A')), doc: 'v2' })));
    // the highest id so far is deleted for good: no version holds it any more, yet it must not come back
    const doomed = await register(second, 'doomed-value', avro('Doomed'));
    for (const query of ['', '?permanent=true']) {
      expect((await registry(third, 'DELETE', `/subjects/doomed-value${query}`)).status).toBe(200);
    }
    const highestBefore = Math.max(doomed, ...ids.values());
    expect(highestBefore).toBe(doomed);

    // a record written with a schema, to be decoded after the wipe
    const created = await call(first.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'typed', partitions_count: 1, replication_factor: 3 },
    });
    expect(created.status, created.text).toBe(201);
    const topic = new ReplicatedTopic(cluster, clusterId, 'typed');
    await topic.waitForIsr([1, 2, 3], 30_000);
    const independent = new ConfluentClient({ host: first.registryUrl });
    const encoded = await independent.encode(ids.get('a-value') as number, { n: 7 });
    const produced = await call(first.url, 'POST', `/v3/clusters/${clusterId}/topics/typed/records`, {
      body: { value: { type: 'BINARY', data: encoded.toString('base64') } },
    });
    expect(produced.status, produced.text).toBe(200);
    await new ReplicatedTopic(cluster, clusterId, '_schemas').waitForIsr([1, 2, 3], 30_000);

    const [controllerBefore] = await waitUntil(
      'a controller',
      async () => ((await cluster.controllers()).length === 1 ? cluster.controllers() : null),
      SESSION_TIMEOUT_MS * 2,
    );
    const redis = new Redis(cluster.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      expect(await redis.dbsize()).toBeGreaterThan(0);
      expect(await redis.flushall()).toBe('OK');
      expect(await redis.dbsize()).toBeLessThan(5);
    } finally {
      redis.disconnect();
    }

    // the controller restores the store: `_schemas` has its leader and ISR again
    await waitUntil(
      'a controller elected after the wipe',
      async () => {
        const found = await cluster.controllers();
        return found.length === 1 && found[0].controller_epoch > controllerBefore.controller_epoch ? true : null;
      },
      SESSION_TIMEOUT_MS * 3 + 5_000,
    );
    const schemas = new ReplicatedTopic(cluster, clusterId, '_schemas');
    await schemas.waitForIsr([1, 2, 3], 45_000);

    // new registrations through every broker: above every id before (the deleted one too), distinct
    const fresh = [
      await register(third, 'after-1-value', avro('After1')),
      await register(first, 'after-2-value', avro('After2')),
      await register(second, 'after-3-value', JSON_DOC.replace('"t"', '"u"'), 'JSON'),
    ];
    for (const id of fresh) expect(id).toBeGreaterThan(highestBefore);
    expect(new Set(fresh).size).toBe(3);

    for (const broker of cluster.brokers) {
      for (const [subject, id] of [...ids].filter(([name]) => name.endsWith('-value'))) {
        const latest = await registry(broker, 'GET', `/subjects/${subject}/versions/1`);
        expect(latest.status, latest.text).toBe(200);
        expect(latest.body.id).toBe(id);
      }
      expect((await registry(broker, 'GET', '/subjects/a-value/versions')).body).toEqual([1, 2]);
      expect((await registry(broker, 'GET', `/schemas/ids/${ids.get('a2')}`)).body.schema).toContain('"doc":"v2"');
      expect((await registry(broker, 'GET', `/schemas/ids/${ids.get('c-value')}`)).body.schemaType).toBe('PROTOBUF');
      expect((await registry(broker, 'GET', `/schemas/ids/${doomed}`)).status).toBe(404);
      const subjects = (await registry(broker, 'GET', '/subjects')).body as string[];
      expect(subjects).toEqual(expect.arrayContaining(['a-value', 'b-value', 'c-value', 'after-1-value']));
      expect(subjects).not.toContain('doomed-value');
      const read = await call(
        broker.url,
        'GET',
        `/v3/clusters/${clusterId}/topics/typed/partitions/0/records?offset=0&format=avro`,
      );
      expect(read.status, read.text).toBe(200);
      expect(read.body.records[0]).toMatchObject({ value: { n: 7 }, value_schema_id: ids.get('a-value') });
    }
    // re-registering a schema the registry has answers its old id
    expect(await register(third, 'b-value', JSON_DOC, 'JSON')).toBe(ids.get('b-value'));
  });
});
