// A randomised fault schedule drawn from a seed (issue 16; BROOK_FAULT_SEED replays one): three brokers, a real
// redis-server, a topic of three partitions with RF 3 and min.insync.replicas=2, six acks=all producers (each
// request sent once) and a reader per partition, through faults one after another, each followed by a wait until
// every partition has its three replicas in sync again: kill -9 of a leader and of the controller, SIGSTOP of a
// leader past its session, power loss (segment tails cut above the recovery point), redis-server restarted empty
// and paused, two brokers down at once, torn segment tails. The short form runs every kind once in a seeded order;
// BROOK_SOAK=1 draws FAULTS_SOAK of them. The checks are those of the power-loss nemesis (fault-checks.ts); each
// fault prints the availability after it: how long until every partition acknowledged a request sent after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster } from './support/cluster.js';
import { createFaultTopic, expectSafe, FAULT_RUN_PARTITIONS, formatRun, runFaults } from './support/fault-run.js';
import { FAULT_KINDS, type FaultKind, Nemesis } from './support/nemesis.js';
import { REPLICATION_ENV } from './support/replication.js';
import { SeededRandom } from './support/seeded-random.js';

const SOAK = process.env.BROOK_SOAK === '1';
const FAULTS_SOAK = 64;
const TOPIC = 'fault-schedule';
const PRODUCE_BETWEEN_FAULTS_MS = SOAK ? 3_000 : 1_000;

let cluster: TestCluster;
let clusterId: string;
const random = SeededRandom.fromEnvironment();

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
  await createFaultTopic(cluster, clusterId, TOPIC);
});

afterAll(async () => {
  await cluster?.stop();
});

describe('a randomised fault schedule under acks=all load (RF 3, min.insync.replicas=2)', () => {
  it(
    'loses nothing acknowledged, serves nothing twice or backwards, and becomes writable again after every fault',
    async () => {
      const schedule: FaultKind[] = SOAK
        ? Array.from({ length: FAULTS_SOAK }, () => random.pick(FAULT_KINDS))
        : random.shuffled(FAULT_KINDS);
      const nemesis = new Nemesis(cluster, TOPIC, FAULT_RUN_PARTITIONS, random);
      const run = await runFaults(
        cluster,
        clusterId,
        TOPIC,
        schedule.map((kind) => ({ label: kind, inject: () => nemesis.inject(kind) })),
        PRODUCE_BETWEEN_FAULTS_MS,
      );
      const byKind = FAULT_KINDS.map((kind) => {
        const times = run.faults
          .filter((f) => f.label === kind && f.availabilityMs !== null)
          .map((f) => f.availabilityMs!);
        return times.length === 0 ? null : `${kind} max ${Math.max(...times)} ms (x${times.length})`;
      }).filter((line) => line !== null);
      console.log(`${formatRun('schedule', random.seed, run)}\n  availability by kind: ${byKind.join(', ')}`);
      expect(run.faults.every((f) => f.availabilityMs !== null)).toBe(true);
      expectSafe(run);
    },
    SOAK ? 7_200_000 : 300_000,
  );
});
