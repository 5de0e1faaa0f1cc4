// Redis restarted without persistence comes back empty. The cluster must re-form from what the brokers kept:
// brokers re-register within a heartbeat, a controller is elected with a higher epoch than any before (the epoch
// never goes down), and every topic, with its partition assignment and configs, is restored and writable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import {
  HEARTBEAT_INTERVAL_MS,
  postRetrying503,
  SESSION_TIMEOUT_MS,
  TestCluster,
  waitUntil,
} from './support/cluster.js';

let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3);
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('a cluster whose Redis restarts empty', () => {
  it('keeps every topic, its assignment and its records, and never lowers the epoch', async () => {
    const topics = `/v3/clusters/${clusterId}/topics`;
    const [controller] = await waitUntil(
      'a controller',
      async () => ((await cluster.controllers()).length === 1 ? cluster.controllers() : null),
      SESSION_TIMEOUT_MS * 2,
    );
    const created = await postRetrying503(cluster.brokers[1].url, topics, {
      topic_name: 'survivor',
      partitions_count: 3,
      replication_factor: 1,
      configs: [{ name: 'retention.ms', value: '123456789' }],
    });
    expect(created.status, created.text).toBe(201);
    for (let partition = 0; partition < 3; partition++) {
      const produced = await call(cluster.brokers[0].url, 'POST', `${topics}/survivor/records`, {
        body: { partition_id: partition, value: { type: 'STRING', data: `before-${partition}` } },
      });
      expect(produced.status, produced.text).toBe(200);
    }
    const assignmentBefore = (await call(cluster.brokers[0].url, 'GET', '/topics/survivor')).body.partitions;

    await cluster.redis.restart();
    const restartedAt = performance.now();

    await waitUntil(
      'every broker registered again',
      async () => {
        const answer = await call(cluster.brokers[2].url, 'GET', '/brokers').catch(() => null);
        return answer?.status === 200 && JSON.stringify(answer.body.brokers) === '[1,2,3]';
      },
      HEARTBEAT_INTERVAL_MS * 2 + 2_000,
    );
    expect(performance.now() - restartedAt).toBeLessThan(HEARTBEAT_INTERVAL_MS * 2 + 2_000);

    const [successor] = await waitUntil(
      'a controller after the restart',
      async () => {
        const found = await cluster.controllers();
        return found.length === 1 && found[0].controller_epoch > 0 ? found : null;
      },
      SESSION_TIMEOUT_MS * 3 + 5_000,
    );
    expect(successor.controller_epoch).toBeGreaterThan(controller.controller_epoch);

    for (const broker of cluster.brokers) {
      const topic = await waitUntil(
        'the topic restored',
        async () => {
          const answer = await call(broker.url, 'GET', '/topics/survivor');
          return answer.status === 200 && answer.body.partitions.every((p: { leader: number }) => p.leader >= 0)
            ? answer.body
            : null;
        },
        SESSION_TIMEOUT_MS * 2,
      );
      expect(topic.partitions.map((p: { replicas: unknown }) => p.replicas)).toEqual(
        assignmentBefore.map((p: { replicas: unknown }) => p.replicas),
      );
      expect(topic.configs['retention.ms']).toBe('123456789');
    }

    // A broker with an empty data dir knows only what is in the store: the restore really wrote it back.
    const newcomer = await cluster.startBroker(4);
    try {
      const seen = await waitUntil(
        'the newcomer sees the restored topic',
        async () => {
          const answer = await call(newcomer.url, 'GET', '/topics/survivor');
          return answer.status === 200 ? answer.body : null;
        },
        SESSION_TIMEOUT_MS,
      );
      expect(seen.partitions.length).toBe(3);
      expect(seen.configs['retention.ms']).toBe('123456789');
    } finally {
      await newcomer.stop();
    }

    for (let partition = 0; partition < 3; partition++) {
      const produced = await waitUntil(
        'produce after the restart',
        async () => {
          const answer = await call(cluster.brokers[2].url, 'POST', `${topics}/survivor/records`, {
            body: { partition_id: partition, value: { type: 'STRING', data: `after-${partition}` } },
          });
          return answer.status === 200 ? answer : null;
        },
        5_000,
      );
      expect(produced.body.offset).toBe(1);
      const read = await call(
        cluster.brokers[1].url,
        'GET',
        `${topics}/survivor/partitions/${partition}/records?offset=0&format=string`,
      );
      expect(read.body.records.map((r: { value: string }) => r.value)).toEqual([
        `before-${partition}`,
        `after-${partition}`,
      ]);
    }

    const created2 = await postRetrying503(cluster.brokers[0].url, topics, {
      topic_name: 'after-restart',
      partitions_count: 1,
      replication_factor: 1,
    });
    expect(created2.status, created2.text).toBe(201);
    for (const broker of cluster.brokers) {
      await waitUntil(
        'every broker keeps the new epoch as the highest seen',
        async () => ((await cluster.status(broker))?.highest_controller_epoch_seen ?? 0) >= successor.controller_epoch,
        HEARTBEAT_INTERVAL_MS * 2 + 2_000,
      );
    }
  });
});
