// v3 admin routes end to end against a real broker; every answer is validated against openapi.yaml.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError } from './support/http.js';

const C = '/v3/clusters/{cluster_id}';
const T = `${C}/topics/{topic_name}`;
const P = `${T}/partitions/{partition_id}`;

let broker: BrokerProcess;
let url: string;
let cid: string;

beforeAll(async () => {
  broker = await BrokerProcess.start();
  url = broker.url;
  cid = await broker.clusterId();
});
afterAll(async () => {
  await broker?.stop();
});

const create = (body: unknown) => call(url, 'POST', `/v3/clusters/${cid}/topics`, { body, spec: `${C}/topics` });

describe('clusters and brokers', () => {
  it('lists and gets the cluster, with a controller relationship', async () => {
    const list = await call(url, 'GET', '/v3/clusters', { spec: '/v3/clusters' });
    expect(list.status).toBe(200);
    expect(list.body.kind).toBe('KafkaClusterList');
    expect(list.body.data).toHaveLength(1);
    const one = await call(url, 'GET', `/v3/clusters/${cid}`, { spec: C });
    expect(one.status).toBe(200);
    expect(one.body.cluster_id).toBe(cid);
    expect(one.body.controller.related).toMatch(/\/brokers\/\d+$/);
  });

  it('lists brokers, gets one by id, 404 for an unknown one', async () => {
    const list = await call(url, 'GET', `/v3/clusters/${cid}/brokers`, { spec: `${C}/brokers` });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const id = list.body.data[0].broker_id as number;
    const one = await call(url, 'GET', `/v3/clusters/${cid}/brokers/${id}`, { spec: `${C}/brokers/{broker_id}` });
    expect(one.status).toBe(200);
    expect(one.body.broker_id).toBe(id);
    expect(one.body.port).toBe(broker.port);
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/brokers/9999`, { spec: `${C}/brokers/{broker_id}` }),
      404,
      404,
    );
  });

  it('unknown cluster is 404 on cluster and nested routes', async () => {
    expectError(await call(url, 'GET', '/v3/clusters/nope', { spec: C }), 404, 404);
    expectError(await call(url, 'GET', '/v3/clusters/nope/brokers', { spec: `${C}/brokers` }), 404, 404);
    expectError(await call(url, 'GET', '/v3/clusters/nope/topics', { spec: `${C}/topics` }), 404, 404);
    expectError(await call(url, 'GET', '/v3/clusters/nope/topics/x/partitions', { spec: `${T}/partitions` }), 404, 404);
  });
});

describe('topics', () => {
  it('creates, lists, gets, grows and deletes a topic', async () => {
    const created = await create({ topic_name: 'admin-a', partitions_count: 2, replication_factor: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'KafkaTopic',
      topic_name: 'admin-a',
      partitions_count: 2,
      replication_factor: 1,
      is_internal: false,
    });
    const list = await call(url, 'GET', `/v3/clusters/${cid}/topics`, { spec: `${C}/topics` });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { topic_name: string }) => t.topic_name)).toContain('admin-a');
    const got = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-a`, { spec: T });
    expect(got.status).toBe(200);
    expect(got.body.partitions_count).toBe(2);

    const grown = await call(url, 'PATCH', `/v3/clusters/${cid}/topics/admin-a`, {
      body: { partitions_count: 4 },
      spec: T,
    });
    expect(grown.status).toBe(200);
    expect(grown.body.partitions_count).toBe(4);
    const parts = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-a/partitions`, { spec: `${T}/partitions` });
    expect(parts.body.data).toHaveLength(4);

    expectError(
      await call(url, 'PATCH', `/v3/clusters/${cid}/topics/admin-a`, { body: { partitions_count: 2 }, spec: T }),
      400,
      40002,
    );
    expectError(
      await call(url, 'PATCH', `/v3/clusters/${cid}/topics/admin-a`, { body: { partitions_count: 4 }, spec: T }),
      400,
      40002,
    );

    const deleted = await call(url, 'DELETE', `/v3/clusters/${cid}/topics/admin-a`, { spec: T });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-a`, { spec: T }), 404, 40401);
    expectError(await call(url, 'DELETE', `/v3/clusters/${cid}/topics/admin-a`, { spec: T }), 404, 40401);
    expectError(
      await call(url, 'PATCH', `/v3/clusters/${cid}/topics/admin-a`, { body: { partitions_count: 9 }, spec: T }),
      404,
      40401,
    );
  });

  it('rejects bad topic names, existing topics and an impossible replication factor with 40002', async () => {
    for (const name of ['bad name', 'bad/name', 'bäd', 'a'.repeat(250), '.', '..', '']) {
      const response = await create({ topic_name: name, partitions_count: 1 });
      expect(response.status, `topic name '${name.slice(0, 20)}'`).toBe(400);
      expect(response.body.error_code === 40002 || (name === '' && response.body.error_code === 40002)).toBe(true);
    }
    expect((await create({ topic_name: 'admin-dup', partitions_count: 1 })).status).toBe(201);
    expectError(await create({ topic_name: 'admin-dup', partitions_count: 1 }), 400, 40002, /admin-dup/);
    expectError(await create({ topic_name: 'admin-rf', partitions_count: 1, replication_factor: 2 }), 400, 40002);
    expectError(await create({ topic_name: 'admin-zero', partitions_count: 0 }), 400, 40002);
    expectError(await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-rf`, { spec: T }), 404, 40401);
  });

  it('rejects unknown configs and bad values naming the config', async () => {
    expectError(
      await create({ topic_name: 'admin-cfg', configs: [{ name: 'no.such.config', value: '1' }] }),
      400,
      40002,
      /no\.such\.config/,
    );
    expectError(
      await create({ topic_name: 'admin-cfg', configs: [{ name: 'retention.ms', value: 'soon' }] }),
      400,
      40002,
      /retention\.ms/,
    );
    expectError(
      await create({ topic_name: 'admin-cfg', configs: [{ name: 'cleanup.policy', value: 'shred' }] }),
      400,
      40002,
      /cleanup\.policy/,
    );
    expectError(await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-cfg`, { spec: T }), 404, 40401);
  });
});

describe('configs', () => {
  const base = () => `/v3/clusters/${cid}/topics/admin-c`;
  beforeAll(async () => {
    const created = await create({
      topic_name: 'admin-c',
      partitions_count: 1,
      configs: [{ name: 'retention.ms', value: '3600000' }],
    });
    expect(created.status).toBe(201);
  });

  it('lists and gets configs', async () => {
    const list = await call(url, 'GET', `${base()}/configs`, { spec: `${T}/configs` });
    expect(list.status).toBe(200);
    const retention = list.body.data.find((c: { name: string }) => c.name === 'retention.ms');
    expect(retention).toMatchObject({ value: '3600000', is_default: false });
    const one = await call(url, 'GET', `${base()}/configs/retention.ms`, { spec: `${T}/configs/{name}` });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      kind: 'KafkaTopicConfig',
      name: 'retention.ms',
      value: '3600000',
      topic_name: 'admin-c',
    });
    expectError(await call(url, 'GET', `${base()}/configs/no.such.config`, { spec: `${T}/configs/{name}` }), 404, 404);
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/topics/nope/configs`, { spec: `${T}/configs` }),
      404,
      40401,
    );
  });

  it('puts, deletes and alters configs', async () => {
    const put = await call(url, 'PUT', `${base()}/configs/cleanup.policy`, {
      body: { value: 'compact' },
      spec: `${T}/configs/{name}`,
    });
    expect(put.status).toBe(204);
    expect(
      (await call(url, 'GET', `${base()}/configs/cleanup.policy`, { spec: `${T}/configs/{name}` })).body.value,
    ).toBe('compact');

    expectError(
      await call(url, 'PUT', `${base()}/configs/cleanup.policy`, {
        body: { value: 'shred' },
        spec: `${T}/configs/{name}`,
      }),
      400,
      40002,
      /cleanup\.policy/,
    );
    expectError(
      await call(url, 'PUT', `${base()}/configs/no.such.config`, { body: { value: '1' }, spec: `${T}/configs/{name}` }),
      400,
      40002,
      /no\.such\.config/,
    );

    const del = await call(url, 'DELETE', `${base()}/configs/cleanup.policy`, { spec: `${T}/configs/{name}` });
    expect(del.status).toBe(204);
    const after = await call(url, 'GET', `${base()}/configs/cleanup.policy`, { spec: `${T}/configs/{name}` });
    expect(after.body).toMatchObject({ value: 'delete', is_default: true });

    const alter = await call(url, 'POST', `${base()}/configs:alter`, {
      body: {
        data: [
          { name: 'retention.ms', operation: 'DELETE' },
          { name: 'max.message.bytes', value: '2000' },
        ],
      },
      spec: `${T}/configs:alter`,
    });
    expect(alter.status).toBe(204);
    const list = await call(url, 'GET', `${base()}/configs`, { spec: `${T}/configs` });
    const byName = new Map(list.body.data.map((c: { name: string }) => [c.name, c]));
    expect(byName.get('retention.ms')).toMatchObject({ is_default: true });
    expect(byName.get('max.message.bytes')).toMatchObject({ value: '2000', is_default: false });

    expectError(
      await call(url, 'POST', `${base()}/configs:alter`, {
        body: { data: [{ name: 'retention.ms', value: 'x' }] },
        spec: `${T}/configs:alter`,
      }),
      400,
      40002,
      /retention\.ms/,
    );
  });
});

describe('partitions and replicas', () => {
  beforeAll(async () => {
    expect((await create({ topic_name: 'admin-p', partitions_count: 3 })).status).toBe(201);
  });

  it('lists partitions, gets one with its leader, 40402 for an unknown one', async () => {
    const list = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions`, { spec: `${T}/partitions` });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { partition_id: number }) => p.partition_id)).toEqual([0, 1, 2]);
    const one = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/1`, { spec: P });
    expect(one.status).toBe(200);
    expect(one.body.partition_id).toBe(1);
    expect(one.body.leader.related).toMatch(/\/partitions\/1\/replicas\/\d+$/);
    expectError(await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/3`, { spec: P }), 404, 40402);
    expectError(await call(url, 'GET', `/v3/clusters/${cid}/topics/nope/partitions/0`, { spec: P }), 404, 40401);
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/topics/nope/partitions`, { spec: `${T}/partitions` }),
      404,
      40401,
    );
  });

  it('lists replicas', async () => {
    const replicas = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/0/replicas`, {
      spec: `${P}/replicas`,
    });
    expect(replicas.status).toBe(200);
    expect(replicas.body.data).toHaveLength(1);
    expect(replicas.body.data[0]).toMatchObject({ is_leader: true, is_in_sync: true, partition_id: 0 });
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/7/replicas`, { spec: `${P}/replicas` }),
      404,
      40402,
    );
  });

  it('answers earliest and latest offsets', async () => {
    const produced = await call(url, 'POST', `/v3/clusters/${cid}/topics/admin-p/records`, {
      body: { partition_id: 2, value: { type: 'STRING', data: 'x' } },
      spec: `${T}/records`,
    });
    expect(produced.status).toBe(200);
    const offset = await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/2/offset`, {
      spec: `${P}/offset`,
    });
    expect(offset.status).toBe(200);
    expect(offset.body).toMatchObject({
      kind: 'KafkaPartitionWithOffsets',
      partition_id: 2,
      earliest_offset: 0,
      latest_offset: 1,
    });
    const typed = await call(
      url,
      'GET',
      `/v3/clusters/${cid}/topics/admin-p/partitions/0/offset?offset_type=earliest_and_latest`,
      { spec: `${P}/offset` },
    );
    expect(typed.body).toMatchObject({ earliest_offset: 0, latest_offset: 0 });
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/topics/admin-p/partitions/9/offset`, { spec: `${P}/offset` }),
      404,
      40402,
    );
    expectError(
      await call(url, 'GET', `/v3/clusters/${cid}/topics/nope/partitions/0/offset`, { spec: `${P}/offset` }),
      404,
      40401,
    );
  });
});
