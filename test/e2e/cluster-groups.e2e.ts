// Consumer groups in a cluster of three brokers on a real redis-server: a group lives on its coordinator (the
// leader of its __consumer_offsets partition), and every v2 instance and v3 group request works through any
// broker (forwarded to the coordinator); an instance reads partitions led by other brokers. WebSocket and SSE
// streams of partitions led elsewhere work through any broker too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from './support/http.js';
import { TestCluster } from './support/cluster.js';
import { WsClient } from './support/ws-client.js';

const V2 = 'application/vnd.kafka.v2+json';
let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3, {
    BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '200',
    BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '6',
  });
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('consumer groups in a cluster', () => {
  it('serves an instance through every broker and reads partitions led by other brokers', async () => {
    const [b1, b2, b3] = cluster.brokers;
    const created = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'spread', partitions_count: 3, replication_factor: 1 },
    });
    expect(created.status, created.text).toBe(201);
    const partitions = await call(b1.url, 'GET', '/topics/spread/partitions');
    expect(new Set(partitions.body.map((p: { leader: number }) => p.leader)).size).toBe(3);
    for (let i = 0; i < 30; i++) {
      const produced = await call(
        cluster.brokers[i % 3].url,
        'POST',
        `/v3/clusters/${clusterId}/topics/spread/records`,
        {
          body: { partition_id: i % 3, value: { type: 'STRING', data: `v${i}` } },
        },
      );
      expect(produced.status, produced.text).toBe(200);
    }

    const instance = await call(b1.url, 'POST', '/consumers/spread-group', {
      body: { name: 'only', format: 'binary', 'auto.offset.reset': 'earliest', 'auto.commit.enable': 'false' },
      contentType: V2,
      spec: '/consumers/{group_name}',
    });
    expect(instance.status, instance.text).toBe(200);
    const path = '/consumers/spread-group/instances/only';
    const subscribed = await call(b2.url, 'POST', `${path}/subscription`, {
      body: { topics: ['spread'] },
      contentType: V2,
    });
    expect(subscribed.status, subscribed.text).toBe(204);

    const values = new Set<string>();
    const deadline = Date.now() + 20_000;
    let round = 0;
    while (values.size < 30 && Date.now() < deadline) {
      const through = cluster.brokers[round++ % 3];
      const polled = await call(through.url, 'GET', `${path}/records?timeout=300`, {
        accept: 'application/vnd.kafka.binary.v2+json',
        spec: '/consumers/{group_name}/instances/{instance}/records',
      });
      expect(polled.status, polled.text).toBe(200);
      for (const record of polled.body) values.add(Buffer.from(record.value, 'base64').toString());
    }
    expect(values.size).toBe(30);
    const committed = await call(b3.url, 'POST', `${path}/offsets`, { contentType: V2 });
    expect(committed.status, committed.text).toBe(200);

    // the group, its coordinator and its lags, seen from each broker
    for (const broker of cluster.brokers) {
      const group = await call(broker.url, 'GET', `/v3/clusters/${clusterId}/consumer-groups/spread-group`, {
        spec: '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}',
      });
      expect(group.status, group.text).toBe(200);
      expect(group.body.state).toBe('STABLE');
      const lags = await call(broker.url, 'GET', `/v3/clusters/${clusterId}/consumer-groups/spread-group/lags`, {
        spec: '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lags',
      });
      expect(lags.body.data.map((l: { current_offset: number; lag: number }) => [l.current_offset, l.lag])).toEqual([
        [10, 0],
        [10, 0],
        [10, 0],
      ]);
      const list = await call(broker.url, 'GET', `/v3/clusters/${clusterId}/consumer-groups`, {
        spec: '/v3/clusters/{cluster_id}/consumer-groups',
      });
      expect(list.body.data.map((g: { consumer_group_id: string }) => g.consumer_group_id)).toEqual(['spread-group']);
    }
    const deleted = await call(b2.url, 'DELETE', path, { contentType: V2 });
    expect(deleted.status, deleted.text).toBe(204);
    expectError(await call(b3.url, 'GET', `${path}/assignments`), 404, 40403);
  });

  it('streams partitions led by other brokers over WebSocket and SSE, and produces through any broker', async () => {
    const [b1] = cluster.brokers;
    const created = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'streamed', partitions_count: 3, replication_factor: 1 },
    });
    expect(created.status, created.text).toBe(201);
    const leaders = (await call(b1.url, 'GET', '/topics/streamed/partitions')).body.map(
      (p: { leader: number }) => p.leader,
    );
    expect(new Set(leaders).size).toBe(3);
    const client = await WsClient.connect(b1.url);
    const assign = [0, 1, 2].map((partition) => ({ topic: 'streamed', partition }));
    const subscribed = await client.request({ op: 'subscribe', id: 's', assign, from: 'earliest', credits: 100 });
    expect(subscribed.op, JSON.stringify(subscribed)).toBe('subscribed');
    const ack = await client.request({
      op: 'produce',
      id: 'p',
      topic: 'streamed',
      records: [0, 1, 2].map((partition) => ({ value: `to-${partition}`, partition })),
    });
    expect(ack.offsets).toEqual([0, 1, 2].map((partition) => ({ partition, offset: 0 })));
    const records = await client.waitForRecords('s', 3);
    expect(records.map((r) => r.value).sort()).toEqual(['to-0', 'to-1', 'to-2']);
    client.socket.close();

    const sse = await fetch(
      `${b1.url}/v3/clusters/${clusterId}/topics/streamed/records:stream?from=earliest&format=string`,
      {
        signal: AbortSignal.timeout(10_000),
      },
    );
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    let text = '';
    while ((text.match(/^data:/gm) ?? []).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    for (const partition of [0, 1, 2]) expect(text).toContain(`id: ${partition}:0`);
  });
});
