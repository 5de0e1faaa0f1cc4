// The schema registry in a 3-broker cluster (a real redis-server): a schema registered through one broker is
// readable through the other two at once; the same schema registered through every broker at the same moment gets
// one id, different ones distinct ids; records produced with a schema through one broker are decoded through
// another; and after kill -9 of the broker leading `_schemas` the survivors keep every schema and go on
// registering, with ids above every id handed out before.
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call, type ApiResponse } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

const MEDIA_TYPE = 'application/vnd.schemaregistry.v1+json';
const VERSION = '/subjects/{subject}/versions/{version}';
const avro = (name: string, field = 'name') =>
  JSON.stringify({ type: 'record', name, fields: [{ name: field, type: 'string' }] });

let cluster: TestCluster;
const ids: number[] = [];

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

function registry(broker: BrokerProcess, method: string, path: string, spec: string, body?: unknown) {
  return call(broker.registryUrl, method, path, { contentType: MEDIA_TYPE, spec, body });
}

/** Registers, retrying while the answer is 5xx (no leader of `_schemas` yet, as after a failover), bounded. */
async function register(broker: BrokerProcess, subject: string, schema: string): Promise<number> {
  const answer = await waitUntil<ApiResponse>(
    `registering under ${subject} through broker ${broker.port}`,
    async () => {
      const response = await registry(broker, 'POST', `/subjects/${subject}/versions`, '/subjects/{subject}/versions', {
        schema,
      }).catch(() => null);
      return response !== null && response.status < 500 ? response : null;
    },
    30_000,
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body.id as number;
}

describe('the schema registry in a cluster', () => {
  it('answers a schema registered through one broker through the other two at once', async () => {
    const [first, second, third] = cluster.brokers;
    const client = new ConfluentClient({ host: first.registryUrl });
    const id = await waitUntil(
      'the first registration',
      () =>
        client
          .register({ type: SchemaType.AVRO, schema: avro('Order') }, { subject: 'orders-value' })
          .then(({ id: registered }) => registered)
          .catch(() => null),
      30_000,
    );
    ids.push(id);
    for (const broker of [second, third]) {
      const latest = await registry(broker, 'GET', '/subjects/orders-value/versions/latest', VERSION);
      expect(latest.body).toEqual({ subject: 'orders-value', version: 1, id, schema: avro('Order') });
      const byId = await registry(broker, 'GET', `/schemas/ids/${id}`, '/schemas/ids/{id}');
      expect(byId.body).toEqual({ schema: avro('Order') });
    }
  });

  it('gives one schema registered through every broker at once one id, and different schemas distinct ids', async () => {
    const same = await Promise.all(cluster.brokers.map((broker) => register(broker, 'same-value', avro('Same'))));
    expect(new Set(same).size).toBe(1);
    const different = await Promise.all(
      cluster.brokers.map((broker, i) => register(broker, `different-${i}-value`, avro(`Different${i}`))),
    );
    expect(new Set(different).size).toBe(3);
    expect(different).not.toContain(same[0]);
    ids.push(same[0], ...different);
    const versions = await registry(
      cluster.brokers[2],
      'GET',
      '/subjects/same-value/versions',
      '/subjects/{subject}/versions',
    );
    expect(versions.body).toEqual([1]);
  });

  it('decodes through one broker the records produced with a schema through another', async () => {
    const [first, , third] = cluster.brokers;
    const clusterId = await first.clusterId();
    const created = await call(first.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'orders', partitions_count: 1, replication_factor: 3 },
    });
    expect(created.status, created.text).toBe(201);
    await new ReplicatedTopic(cluster, clusterId, 'orders').waitForIsr([1, 2, 3], 30_000);
    const sent = await call(first.url, 'POST', `/v3/clusters/${clusterId}/topics/orders/records`, {
      body: { value: { type: 'AVRO', schema: avro('Order'), data: { name: 'o-1' } } },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.value).toMatchObject({ schema_id: ids[0], subject: 'orders-value', schema_version: 1 });
    const read = await call(
      third.url,
      'GET',
      `/v3/clusters/${clusterId}/topics/orders/partitions/0/records?offset=0&format=avro`,
    );
    expect(read.status, read.text).toBe(200);
    expect(read.body.records[0]).toMatchObject({ value: { name: 'o-1' }, value_schema_id: ids[0] });
  });

  it('survives kill -9 of the broker leading _schemas: every schema kept, new ids above the old', async () => {
    const clusterId = await cluster.brokers[0].clusterId();
    const schemas = new ReplicatedTopic(cluster, clusterId, '_schemas');
    const { leader } = await schemas.waitForIsr([1, 2, 3], 30_000);
    await cluster.broker(leader).kill('SIGKILL');
    const survivors = cluster.brokers.filter((_, index) => index + 1 !== leader);
    await schemas.waitForLeader(leader, 30_000, survivors);

    const fresh = await register(survivors[0], 'after-failover-value', avro('AfterFailover'));
    expect(fresh).toBeGreaterThan(Math.max(...ids));
    for (const broker of survivors) {
      const subjects = (await registry(broker, 'GET', '/subjects', '/subjects')).body as string[];
      expect(subjects).toEqual(
        expect.arrayContaining(['orders-value', 'same-value', 'different-0-value', 'after-failover-value']),
      );
      const order = await registry(broker, 'GET', '/subjects/orders-value/versions/latest', VERSION);
      expect(order.body.id).toBe(ids[0]);
      const after = await registry(broker, 'GET', '/subjects/after-failover-value/versions/1', VERSION);
      expect(after.body.id).toBe(fresh);
    }
  });
});
