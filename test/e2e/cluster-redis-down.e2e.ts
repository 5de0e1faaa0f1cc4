// Redis unreachable (paused with SIGSTOP, so every command times out): partitions whose leader is known keep
// taking produce and reads, also through brokers that forward to the leader; topic admin answers 503 (50302) and
// changes nothing. When Redis answers again (its TTLs may have run out meanwhile) the cluster re-forms by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { postRetrying503, SESSION_TIMEOUT_MS, TestCluster, waitUntil } from './support/cluster.js';

let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3);
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.redis.kill('SIGCONT');
  await cluster?.stop();
});

describe('a cluster whose Redis stops answering', () => {
  it('keeps serving known partitions, refuses admin with 503, and re-forms when Redis is back', async () => {
    const topics = `/v3/clusters/${clusterId}/topics`;
    await waitUntil('a controller', async () => (await cluster.controllers()).length === 1, SESSION_TIMEOUT_MS * 2);
    const created = await postRetrying503(cluster.brokers[0].url, topics, {
      topic_name: 'steady',
      partitions_count: 3,
      replication_factor: 1,
    });
    expect(created.status, created.text).toBe(201);
    const leaders = (await call(cluster.brokers[0].url, 'GET', '/topics/steady/partitions')).body.map(
      (p: { leader: number }) => p.leader,
    );
    // Every broker learns every other broker's address before Redis goes away.
    for (let partition = 0; partition < 3; partition++) {
      for (const broker of cluster.brokers) {
        const warm = await call(broker.url, 'GET', `/topics/steady/partitions/${partition}/offsets`);
        expect(warm.status, warm.text).toBe(200);
      }
    }

    await cluster.redis.kill('SIGSTOP');
    try {
      for (let partition = 0; partition < 3; partition++) {
        const via = cluster.brokers.find((_, index) => index + 1 !== leaders[partition])!;
        const produced = await call(via.url, 'POST', `${topics}/steady/records`, {
          body: { partition_id: partition, value: { type: 'STRING', data: `during-${partition}` } },
        });
        expect(produced.status, produced.text).toBe(200);
        const read = await call(
          via.url,
          'GET',
          `${topics}/steady/partitions/${partition}/records?offset=0&format=string`,
        );
        expect(read.body.records.map((r: { value: string }) => r.value)).toEqual([`during-${partition}`]);
      }
      const refused = await call(cluster.brokers[1].url, 'POST', topics, {
        body: { topic_name: 'while-down', partitions_count: 1, replication_factor: 1 },
      });
      expect(refused.status, refused.text).toBe(503);
      expect(refused.body.error_code).toBe(50302);
      const brokers = await call(cluster.brokers[1].url, 'GET', '/brokers');
      expect(brokers.status).toBe(503);
      const described = await call(cluster.brokers[1].url, 'GET', `/v3/clusters/${clusterId}`);
      expect(described.status).toBe(200);
      expect(described.body.controller).toBeNull();
    } finally {
      await cluster.redis.kill('SIGCONT');
    }

    await waitUntil(
      'topic admin works again',
      async () => {
        const answer = await call(cluster.brokers[2].url, 'POST', topics, {
          body: { topic_name: 'after-pause', partitions_count: 1, replication_factor: 1 },
        });
        return answer.status === 201;
      },
      SESSION_TIMEOUT_MS * 4,
    );
    expect((await call(cluster.brokers[0].url, 'GET', `${topics}/while-down`)).status).toBe(404);
    expect((await cluster.controllers()).length).toBe(1);
    // a broker whose registration lapsed while Redis was paused registers again at its next heartbeat
    const registered = await waitUntil(
      'every broker registered again',
      async () => {
        const brokers = await call(cluster.brokers[0].url, 'GET', '/brokers');
        return brokers.status === 200 && brokers.body.brokers.length === 3 ? brokers.body.brokers : null;
      },
      SESSION_TIMEOUT_MS * 2,
    );
    expect(registered).toEqual([1, 2, 3]);
  });
});
