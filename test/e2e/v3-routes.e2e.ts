// The v3 routes of Confluent's spec that Brook lacked, against a broker process, each answer validated against
// openapi.yaml: every topic's configs (`topics/-/configs`, where `-` was taken as a topic name), one replica of a
// partition, the replicas a broker holds, one partition of a consumer's assignment, and ACLs created in a batch;
// on a secured broker, the lists show what the caller may describe and a batch needs ALTER on the cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { ADMIN, ALICE, aliceAcl, SecuredBroker } from './support/secured-broker.js';
import { waitUntil } from './support/cluster.js';
import { call, expectError } from './support/http.js';
import { V2Consumer } from './support/v2-consumer.js';

const C = '/v3/clusters/{cluster_id}';

describe('v3 routes of Confluent spec', () => {
  const suite = brokerForSuite({ env: { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' } });
  const c = (path: string) => `/v3/clusters/${suite.clusterId}${path}`;

  async function createTopic(name: string, partitions: number, configs: Record<string, string> = {}) {
    const created = await call(suite.url, 'POST', c('/topics'), {
      body: {
        topic_name: name,
        partitions_count: partitions,
        configs: Object.entries(configs).map(([key, value]) => ({ name: key, value })),
      },
    });
    expect(created.status, created.text).toBe(201);
  }

  it("lists every topic's configs at topics/-/configs", async () => {
    await createTopic('alpha', 1, { 'retention.ms': '1000' });
    await createTopic('beta', 2);
    const all = await call(suite.url, 'GET', c('/topics/-/configs'), { spec: `${C}/topics/-/configs` });
    expect(all.status, all.text).toBe(200);
    expect(all.body.kind).toBe('KafkaTopicConfigList');
    expect(all.body.metadata.self).toBe(`${suite.url}${c('/topics/-/configs')}`);
    const topics = new Set(all.body.data.map((config: { topic_name: string }) => config.topic_name));
    expect([...topics].sort()).toEqual(['alpha', 'beta']);
    const one = await call(suite.url, 'GET', c('/topics/alpha/configs'));
    expect(all.body.data.filter((config: { topic_name: string }) => config.topic_name === 'alpha')).toEqual(
      one.body.data,
    );
    expect(all.body.data).toContainEqual(
      expect.objectContaining({ topic_name: 'alpha', name: 'retention.ms', value: '1000' }),
    );
  });

  it('gets one replica of a partition, and the replicas a broker holds', async () => {
    const replica = await call(suite.url, 'GET', c('/topics/beta/partitions/1/replicas/0'), {
      spec: `${C}/topics/{topic_name}/partitions/{partition_id}/replicas/{broker_id}`,
    });
    expect(replica.status, replica.text).toBe(200);
    expect(replica.body).toMatchObject({
      kind: 'KafkaReplica',
      topic_name: 'beta',
      partition_id: 1,
      broker_id: 0,
      is_leader: true,
      is_in_sync: true,
    });
    expect(replica.body.metadata.self).toBe(`${suite.url}${c('/topics/beta/partitions/1/replicas/0')}`);
    const missing = await call(suite.url, 'GET', c('/topics/beta/partitions/1/replicas/7'), {
      spec: `${C}/topics/{topic_name}/partitions/{partition_id}/replicas/{broker_id}`,
    });
    expectError(missing, 404, 404);
    expectError(await call(suite.url, 'GET', c('/topics/beta/partitions/1/replicas/x')), 400, 400);

    const held = await call(suite.url, 'GET', c('/brokers/0/partition-replicas'), {
      spec: `${C}/brokers/{broker_id}/partition-replicas`,
    });
    expect(held.status, held.text).toBe(200);
    expect(held.body.kind).toBe('KafkaReplicaList');
    const names = held.body.data.map(
      (r: { topic_name: string; partition_id: number }) => `${r.topic_name}-${r.partition_id}`,
    );
    expect(names).toEqual(expect.arrayContaining(['alpha-0', 'beta-0', 'beta-1']));
    expect(held.body.data.every((r: { broker_id: number }) => r.broker_id === 0)).toBe(true);
    const unknown = await call(suite.url, 'GET', c('/brokers/9/partition-replicas'), {
      spec: `${C}/brokers/{broker_id}/partition-replicas`,
    });
    expectError(unknown, 404, 404);
  });

  it("gets one partition of a consumer's assignment", async () => {
    const consumer = await V2Consumer.create(suite.url, 'routes-group', 'member-1');
    await consumer.subscribe(['beta']);
    await waitUntil('beta assigned to member-1', async () => (await consumer.assignment()).length === 2, 15_000);
    const path = '/consumer-groups/routes-group/consumers/member-1/assignments';
    const spec = `${C}/consumer-groups/{consumer_group_id}/consumers/{consumer_id}/assignments/{topic_name}/partitions/{partition_id}`;
    const listed = await call(suite.url, 'GET', c(path));
    const one = await call(suite.url, 'GET', c(`${path}/beta/partitions/1`), { spec });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({
      kind: 'KafkaConsumerAssignment',
      consumer_group_id: 'routes-group',
      consumer_id: 'member-1',
      topic_name: 'beta',
      partition_id: 1,
    });
    expect(listed.body.data).toContainEqual(one.body);
    expect(one.body.metadata.self).toBe(`${suite.url}${c(`${path}/beta/partitions/1`)}`);
    expectError(await call(suite.url, 'GET', c(`${path}/alpha/partitions/0`), { spec }), 404, 404);
    await consumer.delete();
  });

  it('creates ACLs in a batch, and refuses the whole batch for one bad entry', async () => {
    const acl = {
      resource_type: 'TOPIC',
      resource_name: 'alpha',
      pattern_type: 'LITERAL',
      principal: 'User:alice',
      host: '*',
      permission: 'ALLOW',
    };
    const spec = `${C}/acls:batch`;
    const refused = await call(suite.url, 'POST', c('/acls:batch'), {
      body: {
        data: [
          { ...acl, operation: 'READ' },
          { ...acl, operation: 'FLY' },
        ],
      },
      spec,
    });
    expectError(refused, 400, 40002, /data\[1\]/);
    const none = await call(suite.url, 'GET', c('/acls?principal=User:alice'));
    expect(none.body.data).toEqual([]);
    const created = await call(suite.url, 'POST', c('/acls:batch'), {
      body: {
        data: [
          { ...acl, operation: 'READ' },
          { ...acl, operation: 'DESCRIBE' },
        ],
      },
      spec,
    });
    expect(created.status, created.text).toBe(201);
    const listed = await call(suite.url, 'GET', c('/acls?principal=User:alice'));
    expect(listed.body.data.map((entry: { operation: string }) => entry.operation).sort()).toEqual([
      'DESCRIBE',
      'READ',
    ]);
    expectError(await call(suite.url, 'POST', c('/acls:batch'), { body: { acls: [] }, spec }), 400, 40002);
  });
});

describe('v3 routes of Confluent spec, secured', () => {
  let secured: SecuredBroker;
  beforeAll(async () => {
    secured = await SecuredBroker.create();
    await secured.createTopic('hidden');
  });
  afterAll(async () => {
    await secured?.stop();
  });

  it("lists only the topics' configs and replicas the caller may see, and refuses a batch without ALTER", async () => {
    const topicsOf = (body: { data: Array<{ topic_name: string }> }) => [
      ...new Set(body.data.map((e) => e.topic_name)),
    ];
    // alice has DESCRIBE on topic a, no DESCRIBE_CONFIGS anywhere
    const none = await secured.as(ALICE, 'GET', '/v3/clusters/{c}/topics/-/configs', { spec: `${C}/topics/-/configs` });
    expect(none.status, none.text).toBe(200);
    expect(none.body.data).toEqual([]);
    await secured.acl('POST', aliceAcl('TOPIC', 'a', 'DESCRIBE_CONFIGS'));
    const some = await secured.as(ALICE, 'GET', '/v3/clusters/{c}/topics/-/configs');
    expect(topicsOf(some.body)).toEqual(['a']);
    const all = await secured.as(ADMIN, 'GET', '/v3/clusters/{c}/topics/-/configs');
    expect(topicsOf(all.body)).toEqual(expect.arrayContaining(['a', 'hidden']));

    const replicas = await secured.as(ALICE, 'GET', '/v3/clusters/{c}/brokers/0/partition-replicas', {
      spec: `${C}/brokers/{broker_id}/partition-replicas`,
    });
    expect(topicsOf(replicas.body)).toEqual(['a']);
    expectError(await secured.as(ALICE, 'GET', '/v3/clusters/{c}/topics/hidden/partitions/0/replicas/0'), 403, 40301);

    const batch = await secured.as(ALICE, 'POST', '/v3/clusters/{c}/acls:batch', {
      body: { data: [aliceAcl('TOPIC', 'hidden', 'READ')] },
      spec: `${C}/acls:batch`,
    });
    expectError(batch, 403, 40301);
    const listed = await secured.as(ADMIN, 'GET', '/v3/clusters/{c}/acls?resource_name=hidden');
    expect(listed.body.data).toEqual([]);
  });
});
