// The broker coordinating a consumer group is killed (kill -9) while the group consumes and commits, in a cluster
// of three with __consumer_offsets and the data topic replicated three times: the offsets partition's new leader
// loads the group (after its high watermark has reached its log end), the REST instance is still there (its
// state is in __consumer_offsets), no committed offset is lost, and consumption resumes after the last commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { REPLICATION_ENV } from './support/replication.js';

const V2 = 'application/vnd.kafka.v2+json';
const GROUP = 'failover-group';
const PATH = `/consumers/${GROUP}/instances/survivor`;
let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3, {
    ...REPLICATION_ENV,
    BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '200',
    BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '3',
    BROOK_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
  });
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

async function coordinatorOf(through: string): Promise<number> {
  const group = await call(through, 'GET', `/v3/clusters/${clusterId}/consumer-groups/${GROUP}`);
  expect(group.status, group.text).toBe(200);
  return Number(group.body.coordinator.related.split('/').pop());
}

describe('group coordinator failover', () => {
  it('keeps the instance and every committed offset when the coordinator is killed', async () => {
    const [b1] = cluster.brokers;
    const created = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'work', partitions_count: 1, replication_factor: 3 },
    });
    expect(created.status, created.text).toBe(201);
    for (let i = 0; i < 20; i++) {
      const produced = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics/work/records`, {
        body: { partition_id: 0, value: { type: 'STRING', data: `r${i}` } },
      });
      expect(produced.status, produced.text).toBe(200);
    }
    const instance = await call(b1.url, 'POST', `/consumers/${GROUP}`, {
      body: { name: 'survivor', format: 'binary', 'auto.offset.reset': 'earliest', 'auto.commit.enable': 'false' },
      contentType: V2,
    });
    expect(instance.status, instance.text).toBe(200);
    const subscribed = await call(b1.url, 'POST', `${PATH}/subscription`, {
      body: { topics: ['work'] },
      contentType: V2,
    });
    expect(subscribed.status, subscribed.text).toBe(204);

    // consume and commit the first 10 records, one commit per record
    let next = 0;
    while (next < 10) {
      const polled = await call(b1.url, 'GET', `${PATH}/records?timeout=500&max_bytes=1`, {
        accept: 'application/vnd.kafka.binary.v2+json',
      });
      expect(polled.status, polled.text).toBe(200);
      for (const record of polled.body as Array<{ offset: number }>) {
        expect(record.offset).toBe(next);
        const commit = await call(b1.url, 'POST', `${PATH}/offsets`, {
          body: { offsets: [{ topic: 'work', partition: 0, offset: record.offset }] },
          contentType: V2,
        });
        expect(commit.status, commit.text).toBe(200);
        next = record.offset + 1;
      }
    }

    const coordinator = await coordinatorOf(b1.url);
    await cluster.broker(coordinator).kill('SIGKILL');
    const survivor = cluster.brokers.find((_, index) => index + 1 !== coordinator)!;

    const committed = await waitUntil(
      'the group served again by a new coordinator',
      async () => {
        const answer = await call(survivor.url, 'GET', `${PATH}/offsets?partition=work:0`);
        return answer.status === 200 ? answer.body : null;
      },
      30_000,
    );
    expect(committed).toEqual({ offsets: [{ topic: 'work', partition: 0, offset: 10, metadata: '' }] });
    expect(await coordinatorOf(survivor.url)).not.toBe(coordinator);

    const resumed: number[] = [];
    const deadline = Date.now() + 30_000;
    while (resumed.length < 10 && Date.now() < deadline) {
      const polled = await call(survivor.url, 'GET', `${PATH}/records?timeout=500`, {
        accept: 'application/vnd.kafka.binary.v2+json',
      });
      if (polled.status === 200) resumed.push(...(polled.body as Array<{ offset: number }>).map((r) => r.offset));
    }
    expect(resumed).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });
});
