// A randomised fault schedule drawn from a seed (issue 16; BROOK_FAULT_SEED replays one): three brokers, a real
// redis-server, a topic of three partitions with RF 3 and min.insync.replicas=2, six acks=all producers (each
// request sent once) and a reader per partition, through faults one after another, each followed by a wait until
// every partition has its three replicas in sync again: kill -9 of a leader and of the controller, SIGSTOP of a
// leader past its session, power loss (segment tails cut above the recovery point), redis-server restarted empty
// and paused, two brokers down at once, torn segment tails. The short form runs every kind once in a seeded order;
// BROOK_SOAK=1 draws FAULTS_SOAK of them. The checks are those of the power-loss nemesis (fault-checks.ts); each
// fault prints the availability after it: how long until every partition acknowledged a request sent after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { TestCluster } from './support/cluster.js';
import { formatVerdict, verify, waitForFullIsr } from './support/fault-checks.js';
import { FaultWorkload } from './support/fault-workload.js';
import { FAULT_KINDS, type FaultKind, Nemesis } from './support/nemesis.js';
import { REPLICATION_ENV } from './support/replication.js';
import { SeededRandom } from './support/seeded-random.js';

const SOAK = process.env.BROOK_SOAK === '1';
const FAULTS_SOAK = 64;
const PRODUCERS = 6;
const PARTITIONS = 3;
const TOPIC = 'fault-schedule';
const PRODUCE_BETWEEN_FAULTS_MS = SOAK ? 3_000 : 1_000;
/** Long enough for a Redis that came back empty: one session for the brokers to re-register, then the restore. */
const HEAL_TIMEOUT_MS = 60_000;

let cluster: TestCluster;
let clusterId: string;
const random = SeededRandom.fromEnvironment();

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
  const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${clusterId}/topics`, {
    body: {
      topic_name: TOPIC,
      partitions_count: PARTITIONS,
      replication_factor: 3,
      configs: [{ name: 'min.insync.replicas', value: '2' }],
    },
  });
  if (created.status !== 201) throw new Error(`create ${TOPIC}: ${created.status} ${created.text}`);
  await waitForFullIsr(cluster, TOPIC, PARTITIONS, HEAL_TIMEOUT_MS);
});

afterAll(async () => {
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a randomised fault schedule under acks=all load (RF 3, min.insync.replicas=2)', () => {
  it(
    'loses nothing acknowledged, serves nothing twice or backwards, and becomes writable again after every fault',
    async () => {
      const schedule: FaultKind[] = SOAK
        ? Array.from({ length: FAULTS_SOAK }, () => random.pick(FAULT_KINDS))
        : random.shuffled(FAULT_KINDS);
      const workload = new FaultWorkload(cluster, clusterId, TOPIC, PARTITIONS, PRODUCERS);
      const nemesis = new Nemesis(cluster, TOPIC, PARTITIONS, random);
      const faults: Array<{ kind: FaultKind; what: string; at: number }> = [];
      const startedAt = performance.now();
      workload.start();
      try {
        for (const kind of schedule) {
          await sleep(PRODUCE_BETWEEN_FAULTS_MS);
          const at = performance.now();
          faults.push({ kind, what: await nemesis.inject(kind), at });
          await waitForFullIsr(cluster, TOPIC, PARTITIONS, HEAL_TIMEOUT_MS);
        }
        await sleep(PRODUCE_BETWEEN_FAULTS_MS);
      } finally {
        await workload.stop();
      }
      const verdict = await verify(cluster, clusterId, workload, HEAL_TIMEOUT_MS);
      const availability = faults.map(({ kind, what, at }) => ({ kind, what, ms: workload.availabilityAfter(at) }));
      const byKind = FAULT_KINDS.map((kind) => {
        const times = availability.filter((a) => a.kind === kind && a.ms !== null).map((a) => a.ms!);
        return times.length === 0 ? null : `${kind} max ${Math.max(...times)} ms (x${times.length})`;
      }).filter((line) => line !== null);
      console.log(
        `[faults] schedule x${schedule.length} (seed ${random.seed}, ${Math.round((performance.now() - startedAt) / 1000)} s): ` +
          `${formatVerdict(verdict)} reads=${workload.reads} ` +
          `failed: not-appended=${workload.failures('not-appended')} outcome-unknown=${workload.failures('outcome-unknown')} ` +
          `no-answer=${workload.failures('no-answer')} other=${workload.failures('other')}\n` +
          availability
            .map((a, i) => `  #${i + 1} ${a.what}; every partition writable after ${a.ms ?? '?'} ms`)
            .join('\n') +
          `\n  availability by kind: ${byKind.join(', ')}` +
          (workload.highWatermarkDecreases.length > 0
            ? `\n  hw decreases: ${workload.highWatermarkDecreases.join('; ')}`
            : ''),
      );
      expect(verdict.acknowledged).toBeGreaterThan(schedule.length * 20);
      expect(availability.every((a) => a.ms !== null)).toBe(true);
      expect(verdict).toMatchObject({
        lost: 0,
        duplicated: 0,
        divergent: 0,
        vanished: 0,
        failedButVisible: 0,
        failedButVisibleAnswers: [],
        offsetsAckedTwice: 0,
        highWatermarkDecreases: 0,
        replicasIdentical: true,
      });
    },
    SOAK ? 7_200_000 : 300_000,
  );
});
