// Replication on three brokers and a real redis-server, RF=3 and min.insync.replicas=2: followers copy the
// leader's bytes, the HW bounds reads, acks=all holds with one follower down and refuses before appending with two
// down (v3 and v2), followers that return catch up and rejoin the ISR, stale leader epochs are refused, and an
// out-of-sync replica is elected only with unclean.leader.election.enable, and a follower restarted with a garbage
// tail truncates it and rejoins, a live follower that cannot fetch leaves the ISR by the leader's lag check and
// rejoins, and a replica restarted while its partition is offline starts from the high
// watermark it had checkpointed (replication-offset-checkpoint).
import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions } from './support/http.js';
import { SECRET_HEADER, TestCluster, waitUntil } from './support/cluster.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
});

afterAll(async () => {
  await cluster?.stop();
});

describe('replication with RF=3 and min.insync.replicas=2', () => {
  it('copies every acknowledged record to every replica, byte for byte, with the leader epochs', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'copied');
    const acknowledged = new Map<string, number>();
    for (let i = 0; i < 30; i++) {
      const through = cluster.brokers[i % 3];
      const result = await topic.produce(through, `v${i}`);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
      if (result.ok) acknowledged.set(`v${i}`, result.offset);
    }
    const { highWatermark, bytes } = await topic.healedReplicas(15_000);
    expect(highWatermark).toBe(30);
    expect(bytes[0].length).toBeGreaterThan(0);
    expect(bytes[1].equals(bytes[0])).toBe(true);
    expect(bytes[2].equals(bytes[0])).toBe(true);
    const read = await topic.readAll(cluster.brokers[2]);
    for (const [value, offset] of acknowledged) expect(read.get(offset)).toBe(value);
    for (const broker of cluster.brokers)
      expect((await topic.replica(broker)).epochs).toEqual([{ epoch: 0, startOffset: 0 }]);
  });

  it('keeps acks=all working with one follower down, refuses with two down before appending, and heals', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'min-isr');
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const leader = cluster.broker(leaderId);
    const followers = [1, 2, 3].filter((id) => id !== leaderId);
    expect((await topic.produce(leader, 'before')).ok).toBe(true);

    await cluster.broker(followers[0]).kill('SIGKILL');
    for (let i = 0; i < 5; i++) {
      const result = await topic.produce(leader, `one-down-${i}`);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true, offset: i + 1 });
    }
    await topic.waitForIsr([leaderId, followers[1]], 15_000, leader);

    await cluster.broker(followers[1]).kill('SIGKILL');
    await topic.waitForIsr([leaderId], 15_000, leader);
    const refused = await topic.produce(leader, 'two-down');
    expect(refused, JSON.stringify(refused)).toMatchObject({ ok: false, status: 503, errorCode: 50003 });
    expect(refused.ok ? '' : refused.message).toMatch(/not enough replicas/i);
    const v2 = await call(leader.url, 'POST', `/topics/min-isr/partitions/0`, {
      body: { records: [{ value: 'two-down-v2' }] },
      contentType: 'application/vnd.kafka.json.v2+json',
    });
    expect(v2.status, v2.text).toBe(200);
    expect(v2.body.offsets[0]).toMatchObject({ partition: 0, offset: null, error_code: 50003 });
    expect(v2.body.offsets[0].error).toMatch(/not enough replicas/i);
    // acks=1 is only as safe as Kafka's: it still appends with one replica
    expect(await topic.produce(leader, 'acks-1', '1')).toMatchObject({ ok: true, offset: 6 });

    await cluster.broker(followers[0]).restart();
    await cluster.broker(followers[1]).restart();
    await topic.waitForIsr([1, 2, 3], 20_000, leader);
    expect(await topic.produce(leader, 'healed')).toMatchObject({ ok: true, offset: 7 });
    const { highWatermark, bytes } = await topic.healedReplicas(15_000);
    expect(highWatermark).toBe(8);
    expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
    const values = [...(await topic.readAll(cluster.brokers[0])).values()];
    expect(values).toEqual(['before', ...[0, 1, 2, 3, 4].map((i) => `one-down-${i}`), 'acks-1', 'healed']);
  });

  it('after a failover, refuses a produce or a fetch with the old leader epoch; the old leader says who leads', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'fenced');
    const oldLeaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const oldLeader = cluster.broker(oldLeaderId);
    expect(await topic.produce(oldLeader, 'epoch-0')).toMatchObject({ ok: true, offset: 0 });
    await oldLeader.kill('SIGKILL');
    const newLeaderId = await topic.waitForLeader(oldLeaderId, 15_000);
    const newLeader = cluster.broker(newLeaderId);
    await oldLeader.restart();
    await topic.waitForIsr([1, 2, 3], 20_000, newLeader);
    const epoch = (await topic.replica(newLeader)).leader_epoch;
    expect(epoch).toBe(1);
    expect((await topic.replica(oldLeader)).epochs).toEqual([{ epoch: 0, startOffset: 0 }]);

    const internal = (broker: typeof oldLeader, path: string, options: CallOptions = {}) =>
      call(broker.url, options.rawBody === undefined ? 'GET' : 'POST', `/internal/v1/partitions/fenced/0/${path}`, {
        ...options,
        headers: { [SECRET_HEADER]: cluster.secret, ...(options.headers ?? {}) },
      });
    const brokerEpoch = (await cluster.status(oldLeader))!.broker_epoch;
    const fetchQuery = (leaderEpoch: number, asIncarnation = brokerEpoch) =>
      `replica-fetch?replica_id=${oldLeaderId}&broker_epoch=${asIncarnation}&fetch_offset=1&last_fetched_epoch=0` +
      `&leader_epoch=${leaderEpoch}&max_bytes=1024&wait_ms=0`;
    // a fetch of the incarnation before the restart (KIP-903): refused, it counts for nothing
    const oldIncarnation = await internal(newLeader, fetchQuery(1, brokerEpoch - 1));
    expect(oldIncarnation.status).toBe(409);
    expect(oldIncarnation.body.error_code).toBe(40910);
    const stale = await internal(newLeader, fetchQuery(0));
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe(40905);
    expect((await internal(newLeader, fetchQuery(2))).status).toBe(503);
    const current = await internal(newLeader, fetchQuery(1));
    expect(current.status).toBe(200);
    expect(current.headers.get('x-brook-leader-epoch')).toBe('1');
    const notLeader = await internal(oldLeader, fetchQuery(0));
    expect(notLeader.status).toBe(404);
    expect(notLeader.body.message).toMatch(new RegExp(`broker ${newLeaderId} does`));
    const staleProduce = await internal(newLeader, 'records?acks=all&leader_epoch=0', {
      contentType: 'application/vnd.brook.batches',
      rawBody: Buffer.alloc(1),
    });
    expect(staleProduce.status).toBe(409);
    expect((await topic.replica(newLeader)).log_end_offset).toBe(1);
    // through any broker, produce still lands on the new leader, in epoch 1
    expect(await topic.produce(oldLeader, 'epoch-1')).toMatchObject({ ok: true, offset: 1 });
    const { bytes } = await topic.healedReplicas(15_000);
    expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
    expect((await topic.replica(oldLeader)).epochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 1 },
    ]);
  });

  for (const unclean of [false, true]) {
    it(`with unclean.leader.election.enable=${unclean}, ${unclean ? 'elects an out-of-sync replica, losing what only the old leader had' : 'keeps the partition offline until an in-sync replica returns'}`, async () => {
      const name = unclean ? 'unclean' : 'clean';
      const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], name, {
        'min.insync.replicas': '2',
        'unclean.leader.election.enable': String(unclean),
      });
      const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
      const leader = cluster.broker(leaderId);
      const [first, second] = [1, 2, 3].filter((id) => id !== leaderId).map((id) => cluster.broker(id));
      expect(await topic.produce(leader, 'replicated')).toMatchObject({ ok: true, offset: 0 });
      await first.kill('SIGKILL');
      await second.kill('SIGKILL');
      await topic.waitForIsr([leaderId], 15_000, leader);
      expect(await topic.produce(leader, 'only-on-the-leader', '1')).toMatchObject({ ok: true, offset: 1 });
      await leader.kill('SIGKILL');
      await first.restart();
      if (unclean) {
        const newLeader = await topic.waitForLeader(leaderId, 15_000, [first]);
        expect(newLeader).toBe(cluster.brokers.indexOf(first) + 1);
        // alone in the ISR: acks=all is refused (min.insync.replicas=2), acks=1 is taken
        expect(await topic.produceRetrying(first, 'refused')).toMatchObject({ ok: false, errorCode: 50003 });
        expect(await topic.produceRetrying(first, 'after-unclean', '1')).toMatchObject({ ok: true, offset: 1 });
      } else {
        await new Promise((resolve) => setTimeout(resolve, 3_000)); // time for a (wrong) election to happen
        expect((await topic.view(first))?.leader).toBe(-1);
        expect(await topic.produce(first, 'refused')).toMatchObject({ ok: false, errorCode: 40404 });
      }
      await leader.restart();
      await second.restart();
      await topic.waitForIsr([1, 2, 3], 30_000);
      const { bytes } = await topic.healedReplicas(20_000);
      expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
      expect([...(await topic.readAll(first)).values()]).toEqual(
        unclean ? ['replicated', 'after-unclean'] : ['replicated', 'only-on-the-leader'],
      );
    });
  }

  it('a follower restarted with a garbage tail truncates it, catches up and rejoins the ISR', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'garbage-tail');
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const leader = cluster.broker(leaderId);
    const follower = cluster.brokers.find((_, index) => index + 1 !== leaderId)!;
    for (let i = 0; i < 10; i++) expect(await topic.produce(leader, `r${i}`)).toMatchObject({ ok: true, offset: i });
    await topic.healedReplicas(15_000);
    await follower.kill('SIGKILL');
    const segment = join(follower.dataDir, 'logs', 'garbage-tail-0', `${'0'.repeat(20)}.log`);
    await appendFile(segment, randomBytes(300));
    for (let i = 10; i < 15; i++) expect(await topic.produce(leader, `r${i}`)).toMatchObject({ ok: true, offset: i });
    await topic.waitForIsr(
      [1, 2, 3].filter((id) => id !== cluster.brokers.indexOf(follower) + 1),
      15_000,
      leader,
    );
    await follower.restart();
    await topic.waitForIsr([1, 2, 3], 20_000, leader);
    const { highWatermark, bytes } = await topic.healedReplicas(15_000);
    expect(highWatermark).toBe(15);
    expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
    expect([...(await topic.readAll(follower)).values()]).toEqual(Array.from({ length: 15 }, (_, i) => `r${i}`));
  });

  it('a replica restarted while its partition is offline starts from its checkpointed high watermark', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'hw-checkpoint');
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const leader = cluster.broker(leaderId);
    const followers = [1, 2, 3].filter((id) => id !== leaderId).map((id) => cluster.broker(id));
    for (let i = 0; i < 10; i++) expect(await topic.produce(leader, `r${i}`)).toMatchObject({ ok: true, offset: i });
    await topic.healedReplicas(15_000);
    for (const broker of cluster.brokers) {
      await waitUntil(
        `broker at ${broker.url} checkpointed HW 10`,
        async () =>
          (await readFile(join(broker.dataDir, 'replication-offset-checkpoint'), 'utf8').catch(() => '')).includes(
            '\nhw-checkpoint 0 10\n',
          ),
        5_000,
      );
    }
    // The followers die, the ISR shrinks to the leader, then the leader dies: the partition is offline (no unclean
    // election), so a follower restarted now takes no role and learns no HW from anyone. Without the checkpoint it
    // would know none (-1); with it, it starts from the 10 it had.
    for (const follower of followers) await follower.kill('SIGKILL');
    await topic.waitForIsr([leaderId], 15_000, leader);
    await leader.kill('SIGKILL');
    await followers[0].restart();
    const view = await waitUntil(
      'the restarted follower sees the partition offline (once the dead leader has expired)',
      async () => {
        const replica = await topic.replica(followers[0]).catch(() => null);
        return replica?.role === 'none' ? replica : null;
      },
      20_000,
    );
    expect(view.log_end_offset).toBe(10);
    expect(view.high_watermark).toBe(10);
    await leader.restart();
    await followers[1].restart();
    await topic.waitForIsr([1, 2, 3], 20_000, leader);
    expect([...(await topic.readAll(leader)).values()]).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
  });

  it('a live follower that cannot fetch leaves the ISR after replica.lag.time.max.ms, and rejoins once it can', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'slow-follower');
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const leader = cluster.broker(leaderId);
    const slowId = [1, 2, 3].find((id) => id !== leaderId)!;
    const slow = cluster.broker(slowId);
    expect(await topic.produce(leader, 'before')).toMatchObject({ ok: true, offset: 0 });
    // Restarted with a wrong cluster secret, the follower stays registered (alive to the controller) but every
    // fetch it sends is refused: only the leader's lag check can take it out of the ISR.
    await slow.restart('SIGKILL', { BROOK_CLUSTER_SECRET: 'x'.repeat(48) });
    for (let i = 1; i <= 3; i++) expect(await topic.produce(leader, `lagging-${i}`)).toMatchObject({ ok: true });
    const shrunk = await topic.waitForIsr(
      [1, 2, 3].filter((id) => id !== slowId),
      15_000,
      leader,
    );
    expect(shrunk.leader).toBe(leaderId);
    const clusterId = await leader.clusterId();
    const brokers = await call(leader.url, 'GET', `/v3/clusters/${clusterId}/brokers`);
    expect((brokers.body.data as Array<{ broker_id: number }>).map((broker) => broker.broker_id)).toContain(slowId);
    expect((await topic.replica(leader)).isr).not.toContain(slowId);
    await slow.restart();
    await topic.waitForIsr([1, 2, 3], 20_000, leader);
    const { highWatermark, bytes } = await topic.healedReplicas(15_000);
    expect(highWatermark).toBe(4);
    expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
  });
});
