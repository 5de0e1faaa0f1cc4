// The broker coordinating a consumer group is killed (kill -9) while the group consumes and commits, in a cluster
// of three with __consumer_offsets and the data topic replicated three times: the offsets partition's new leader
// loads the group (after its high watermark has reached its log end), the REST instance is still there (its
// state is in __consumer_offsets), no committed offset is lost, and consumption resumes after the last commit.
// A WebSocket group member held by a broker that is not the coordinator works through it (internal ws-groups
// routes), and when the coordinator is killed it joins the new coordinator and carries on from where it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetsPartitionFor } from '../../src/group-coordinator/group-records.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { REPLICATION_ENV } from './support/replication.js';
import { WsClient } from './support/ws-client.js';

const V2 = 'application/vnd.kafka.v2+json';
const GROUP = 'failover-group';
const PATH = `/consumers/${GROUP}/instances/survivor`;
/** WebSocket members heartbeat on pongs (every 500 ms here); a member not heard of for this long is dropped. */
const WS_SESSION_TIMEOUT_MS = 3_000;
let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3, {
    ...REPLICATION_ENV,
    BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '200',
    BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '3',
    BROOK_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
    BROOK_WS_PING_INTERVAL_MS: '500',
    BROOK_WS_GROUP_SESSION_TIMEOUT_MS: String(WS_SESSION_TIMEOUT_MS),
  });
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

async function coordinatorOf(through: string, groupId = GROUP): Promise<number> {
  const group = await call(through, 'GET', `/v3/clusters/${clusterId}/consumer-groups/${groupId}`);
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

  it('keeps a WebSocket group member on another broker consuming and committing across a coordinator kill', async () => {
    for (const broker of cluster.brokers) if (broker.child === null) await broker.restart();
    const [b1] = cluster.brokers;
    const group = 'ws-failover-group';
    const created = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'ws-work', partitions_count: 1, replication_factor: 3 },
    });
    expect(created.status, created.text).toBe(201);
    for (let i = 0; i < 20; i++) {
      const produced = await call(b1.url, 'POST', `/v3/clusters/${clusterId}/topics/ws-work/records`, {
        body: { partition_id: 0, value: { type: 'STRING', data: `w${i}` } },
      });
      expect(produced.status, produced.text).toBe(200);
    }
    const offsetsPartition = offsetsPartitionFor(group, 3);
    const coordinator = await waitUntil(
      'a leader for the group offsets partition',
      async () => {
        const partitions = await call(b1.url, 'GET', '/topics/__consumer_offsets/partitions');
        const leader = (partitions.body as Array<{ partition: number; leader: number }>).find(
          (p) => p.partition === offsetsPartition,
        )?.leader;
        return leader !== undefined && leader > 0 ? leader : null;
      },
      15_000,
    );
    const holder = cluster.brokers.find((_, index) => index + 1 !== coordinator)!;
    const client = await WsClient.connect(holder.url);
    const subscribed = await client.request(
      { op: 'subscribe', id: 'w', topics: ['ws-work'], group, from: 'earliest', credits: 10 },
      20_000,
    );
    expect(subscribed.op, JSON.stringify(subscribed)).toBe('subscribed');
    const assigned = await client.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 15_000);
    expect((await client.waitForRecords('w', 10)).map((record) => record.value)).toEqual(
      Array.from({ length: 10 }, (_, i) => `w${i}`),
    );
    const commit = { op: 'commit', id: 'w', offsets: [{ topic: 'ws-work', partition: 0, offset: 10 }] };
    expect(await client.request(commit, 10_000)).toEqual({ op: 'committed', id: 'w' });
    expect(await coordinatorOf(holder.url, group)).toBe(coordinator);

    await cluster.broker(coordinator).kill('SIGKILL');
    // The member moves to the new coordinator (which loaded the group from __consumer_offsets) and keeps its
    // partition: it consumes on, its commits land there, and its heartbeats keep it in the group well past its
    // session timeout.
    client.send({ op: 'credit', id: 'w', n: 10 });
    expect((await client.waitForRecords('w', 20, 20_000)).map((record) => record.value)).toEqual(
      Array.from({ length: 20 }, (_, i) => `w${i}`),
    );
    const commitAt20 = { ...commit, offsets: [{ ...commit.offsets[0], offset: 20 }] };
    const committed = await waitUntil(
      'a commit accepted by the new coordinator',
      async () => {
        const answer = await client.request(commitAt20, 10_000);
        return answer.op === 'committed' ? answer : null;
      },
      20_000,
    );
    expect(committed).toEqual({ op: 'committed', id: 'w' });
    expect(await coordinatorOf(holder.url, group)).not.toBe(coordinator);
    // (commits sent while no coordinator answered got retriable 50003 errors; nothing else may go wrong)
    const errorFrames = () => client.frames.filter((frame) => frame.op === 'error');
    expect(errorFrames().every((frame) => frame.error_code === 50003)).toBe(true);
    const errorsSoFar = errorFrames().length;
    await new Promise((resolve) => setTimeout(resolve, 2 * WS_SESSION_TIMEOUT_MS));
    expect(await client.request(commitAt20, 10_000)).toEqual({ op: 'committed', id: 'w' });
    expect(errorFrames().length).toBe(errorsSoFar);
    expect(client.frames.filter((frame) => frame.op === 'assigned').at(-1)?.partitions).toEqual(assigned.partitions);
    const lags = await call(holder.url, 'GET', `/v3/clusters/${clusterId}/consumer-groups/${group}/lags`);
    expect(lags.status, lags.text).toBe(200);
    expect(lags.body.data).toEqual([expect.objectContaining({ topic_name: 'ws-work', current_offset: 20, lag: 0 })]);
    client.close();
  });
});
