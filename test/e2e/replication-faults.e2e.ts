// The replication fault suite (issue 7): three brokers, a real redis-server, RF=3, min.insync.replicas=2, acks=all
// producers that record every acknowledged offset and a reader that records every (offset, value) it is served.
//   - kill -9 of the partition leader, again and again, during production: every acknowledged record is read back
//     at its offset, no offset is ever served with two values, no value is stored twice, and once healed the three
//     replicas are byte-identical up to the high watermark;
//   - SIGSTOP of the leader past replica.lag.time.max.ms and its broker session: a new leader takes over; after
//     SIGCONT every acknowledgement of a request sent to the paused leader names a record that is there, and the
//     records of the requests it failed are never visible;
//   - a rolling restart of all three brokers with SIGTERM (controlled shutdown) during production: no request fails.
// Each run prints its counts. Short form by default; BROOK_SOAK=1 runs the long form (more kills, more producers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { TestCluster } from './support/cluster.js';
import { countFaults, REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';
import { call } from './support/http.js';

const SOAK = process.env.BROOK_SOAK === '1';
const LEADER_KILLS = SOAK ? 20 : 5;
const PRODUCERS = SOAK ? 6 : 3;
/** Production between two kills. */
const PRODUCE_BETWEEN_KILLS_MS = SOAK ? 4_000 : 1_500;
const FAILOVER_TIMEOUT_MS = 20_000;
const REJOIN_TIMEOUT_MS = 40_000;

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
});

afterAll(async () => {
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

describe('replication faults (RF=3, min.insync.replicas=2, acks=all)', () => {
  it(`loses no acknowledged record over ${LEADER_KILLS} kill -9 of the leader during production`, async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'killed-leaders');
    const acknowledged = new Map<string, number>();
    const ackedOffsets = new Map<number, string>();
    const seen = new Map<number, Set<string>>();
    let offsetAckedTwice = 0;
    let failed = 0;
    let stopping = false;

    const producers = Array.from({ length: PRODUCERS }, async (_, producer) => {
      for (let sequence = 0; !stopping; sequence++) {
        const value = `p${producer}-${sequence}`;
        const result = await topic.produce(pick(topic.running()), value);
        if (!result.ok) {
          failed++;
          await sleep(50);
          continue;
        }
        if (ackedOffsets.has(result.offset)) offsetAckedTwice++;
        ackedOffsets.set(result.offset, value);
        acknowledged.set(value, result.offset);
      }
    });
    const reader = (async () => {
      let offset = 0;
      while (!stopping) {
        try {
          const through = pick(topic.running());
          const response = await call<{ records: Array<{ offset: number; value: string }>; next_offset: number }>(
            through.url,
            'GET',
            `/v3/clusters/${topic.clusterId}/topics/${topic.name}/partitions/0/records` +
              `?offset=${offset}&format=string&wait_ms=200`,
            { timeoutMs: 5_000 },
          );
          if (response.status !== 200) throw new Error(String(response.status));
          const body = response.body;
          for (const record of body.records) {
            let values = seen.get(record.offset);
            if (values === undefined) seen.set(record.offset, (values = new Set()));
            values.add(record.value);
          }
          offset = body.next_offset;
        } catch {
          await sleep(100);
        }
      }
    })();

    for (let kill = 0; kill < LEADER_KILLS; kill++) {
      await sleep(PRODUCE_BETWEEN_KILLS_MS);
      const leaderId = await topic.waitForLeader(-1, FAILOVER_TIMEOUT_MS);
      const victim = cluster.broker(leaderId);
      await victim.kill('SIGKILL');
      await topic.waitForLeader(leaderId, FAILOVER_TIMEOUT_MS);
      await sleep(500);
      await victim.restart();
      await topic.waitForIsr([1, 2, 3], REJOIN_TIMEOUT_MS);
    }
    await sleep(PRODUCE_BETWEEN_KILLS_MS);
    stopping = true;
    await Promise.all([...producers, reader]);

    const { highWatermark, bytes } = await topic.healedReplicas(REJOIN_TIMEOUT_MS);
    const finalRead = await topic.readAll(cluster.brokers[0]);
    const counts = countFaults(acknowledged, finalRead, seen);
    const identical = bytes.every((replica) => replica.equals(bytes[0]));
    console.log(
      `[faults] leader kill -9 x${LEADER_KILLS}: acknowledged=${counts.acknowledged} read=${counts.read} ` +
        `lost=${counts.lost} duplicated=${counts.duplicated} divergent=${counts.divergent} ` +
        `offsets-acked-twice=${offsetAckedTwice} failed-requests=${failed} high-watermark=${highWatermark} ` +
        `replicas-identical=${identical}`,
    );
    expect(counts.acknowledged).toBeGreaterThan(LEADER_KILLS * 10);
    expect(counts).toMatchObject({ lost: 0, duplicated: 0, divergent: 0 });
    expect(offsetAckedTwice).toBe(0);
    expect(finalRead.size).toBe(highWatermark);
    expect(identical).toBe(true);
  });

  it('a leader paused past its lag time and session never acknowledges late, and its writes never show', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'paused-leader');
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const paused = cluster.broker(leaderId);
    for (let i = 0; i < 5; i++) expect(await topic.produce(paused, `before-${i}`)).toMatchObject({ ok: true });

    paused.signal('SIGSTOP');
    // requests sent to the paused leader wait in its socket backlog until it wakes
    const late = Array.from({ length: 5 }, (_, i) => topic.produce(paused, `late-${i}`));
    const others = cluster.brokers.filter((broker) => broker !== paused);
    const newLeaderId = await topic.waitForLeader(leaderId, FAILOVER_TIMEOUT_MS, others);
    const newLeader = cluster.broker(newLeaderId);
    for (let i = 0; i < 5; i++) {
      const result = await topic.produceRetrying(newLeader, `after-${i}`);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true, offset: 5 + i });
    }
    paused.signal('SIGCONT');
    const lateResults = await Promise.all(late);

    await topic.waitForIsr([1, 2, 3], REJOIN_TIMEOUT_MS, newLeader);
    const { highWatermark, bytes } = await topic.healedReplicas(REJOIN_TIMEOUT_MS);
    const finalRead = await topic.readAll(newLeader);
    const visible = new Set(finalRead.values());
    let lateAcked = 0;
    let lateAckedMissing = 0;
    let lateFailedVisible = 0;
    lateResults.forEach((result, i) => {
      if (result.ok) {
        lateAcked++;
        if (finalRead.get(result.offset) !== `late-${i}`) lateAckedMissing++;
      } else if (visible.has(`late-${i}`)) {
        lateFailedVisible++;
      }
    });
    const identical = bytes.every((replica) => replica.equals(bytes[0]));
    console.log(
      `[faults] leader SIGSTOP: late requests=${lateResults.length} acknowledged=${lateAcked} ` +
        `acknowledged-but-missing=${lateAckedMissing} failed-but-visible=${lateFailedVisible} ` +
        `read=${finalRead.size} high-watermark=${highWatermark} replicas-identical=${identical} ` +
        `failures=${JSON.stringify(lateResults.filter((result) => !result.ok).map((result) => !result.ok && result.errorCode))}`,
    );
    expect(lateAckedMissing).toBe(0);
    expect(lateFailedVisible).toBe(0);
    expect([...finalRead.values()].slice(0, 10)).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `before-${i}`),
      ...[0, 1, 2, 3, 4].map((i) => `after-${i}`),
    ]);
    expect(identical).toBe(true);
    expect((await topic.replica(paused)).role).toBe('follower');
  });

  it('a rolling restart of the three brokers with SIGTERM during acks=all production fails no request', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'rolling-restart');
    const acknowledged = new Map<string, number>();
    const failures: string[] = [];
    let restarting: BrokerProcess | null = null;
    let stopping = false;
    const producers = Array.from({ length: PRODUCERS }, async (_, producer) => {
      for (let sequence = 0; !stopping; sequence++) {
        // a client of a rolling restart uses the brokers that are up (a load balancer would)
        const through = pick(cluster.brokers.filter((broker) => broker !== restarting && broker.child !== null));
        const value = `p${producer}-${sequence}`;
        const result = await topic.produce(through, value);
        if (result.ok) acknowledged.set(value, result.offset);
        else failures.push(`${value}: ${result.status} ${result.errorCode} ${result.message}`);
      }
    });
    for (const broker of cluster.brokers) {
      await sleep(PRODUCE_BETWEEN_KILLS_MS);
      restarting = broker;
      await sleep(100); // requests already sent through it finish before it stops taking new ones
      await broker.restart('SIGTERM');
      restarting = null;
      await topic.waitForIsr([1, 2, 3], REJOIN_TIMEOUT_MS);
    }
    await sleep(PRODUCE_BETWEEN_KILLS_MS);
    stopping = true;
    await Promise.all(producers);
    const { bytes } = await topic.healedReplicas(REJOIN_TIMEOUT_MS);
    const finalRead = await topic.readAll(cluster.brokers[0]);
    const counts = countFaults(acknowledged, finalRead, new Map());
    console.log(
      `[faults] rolling restart (SIGTERM x3): acknowledged=${counts.acknowledged} failed=${failures.length} ` +
        `read=${counts.read} lost=${counts.lost} duplicated=${counts.duplicated} ` +
        `replicas-identical=${bytes.every((replica) => replica.equals(bytes[0]))}` +
        (failures.length > 0 ? `\n  ${failures.slice(0, 10).join('\n  ')}` : ''),
    );
    expect(failures).toEqual([]);
    expect(counts).toMatchObject({ lost: 0, duplicated: 0 });
    expect(counts.acknowledged).toBeGreaterThan(30);
  });
});
