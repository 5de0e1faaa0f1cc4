// The power-loss nemesis (issue 16): three brokers, a real redis-server, a topic of three partitions with RF 3 and
// min.insync.replicas=2, six acks=all producers (each request sent once) and a reader per partition. Again and
// again a broker's machine crashes: kill -9, then every partition's newest segment loses its tail from a random
// point at or above its recovery point (the writes not yet fsynced, which a power loss may drop), then the broker
// starts again at once. The victim is a partition leader, a follower and the controller, ROUNDS_PER_ROLE times
// each, in a seeded random order (BROOK_FAULT_SEED replays one). After every crash the run waits until every
// partition has its three replicas in sync again. The checks (fault-checks.ts): no acknowledged record lost,
// replicas byte-identical up to the high watermark, no offset served with two values, no value served that later
// vanishes, the high watermark never lower than one the same reader saw before, and no record stored whose
// produce failed saying nothing was appended. Each crash prints its damage and the availability after it (how long
// until every partition acknowledged a request sent after the crash). BROOK_SOAK=1 runs the long form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { TestCluster } from './support/cluster.js';
import { formatVerdict, verify, waitForFullIsr } from './support/fault-checks.js';
import { FaultWorkload } from './support/fault-workload.js';
import { Nemesis, type Role } from './support/nemesis.js';
import { REPLICATION_ENV } from './support/replication.js';
import { SeededRandom } from './support/seeded-random.js';

const SOAK = process.env.BROOK_SOAK === '1';
const ROUNDS_PER_ROLE = SOAK ? 20 : 5;
const PRODUCERS = 6;
const PARTITIONS = 3;
const TOPIC = 'power-loss';
/** Production between a heal and the next crash. */
const PRODUCE_BETWEEN_FAULTS_MS = SOAK ? 3_000 : 700;
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

describe('power loss of a broker under acks=all load (RF 3, min.insync.replicas=2)', () => {
  it(
    `loses no acknowledged record over ${ROUNDS_PER_ROLE} power losses each of a leader, a follower and the controller`,
    async () => {
      const workload = new FaultWorkload(cluster, clusterId, TOPIC, PARTITIONS, PRODUCERS);
      const nemesis = new Nemesis(cluster, TOPIC, PARTITIONS, random);
      const roles = random.shuffled(
        (['leader', 'follower', 'controller'] as Role[]).flatMap((role) => Array<Role>(ROUNDS_PER_ROLE).fill(role)),
      );
      const crashes: Array<{ what: string; at: number }> = [];
      const startedAt = performance.now();
      workload.start();
      try {
        for (const role of roles) {
          await sleep(PRODUCE_BETWEEN_FAULTS_MS);
          const at = performance.now();
          crashes.push({ what: await nemesis.powerLoss(role), at });
          await waitForFullIsr(cluster, TOPIC, PARTITIONS, HEAL_TIMEOUT_MS);
        }
        await sleep(PRODUCE_BETWEEN_FAULTS_MS);
      } finally {
        await workload.stop();
      }
      const verdict = await verify(cluster, clusterId, workload, HEAL_TIMEOUT_MS);
      const lines = crashes.map(({ what, at }, i) => {
        const availability = workload.availabilityAfter(at);
        return `  #${i + 1} ${what}; every partition writable after ${availability ?? '?'} ms`;
      });
      console.log(
        `[faults] power loss x${roles.length} (seed ${random.seed}, ${Math.round((performance.now() - startedAt) / 1000)} s): ` +
          `${formatVerdict(verdict)} reads=${workload.reads} ` +
          `failed: not-appended=${workload.failures('not-appended')} outcome-unknown=${workload.failures('outcome-unknown')} ` +
          `no-answer=${workload.failures('no-answer')} other=${workload.failures('other')}\n${lines.join('\n')}` +
          (workload.highWatermarkDecreases.length > 0
            ? `\n  hw decreases: ${workload.highWatermarkDecreases.join('; ')}`
            : ''),
      );
      expect(verdict.acknowledged).toBeGreaterThan(roles.length * 20);
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
    SOAK ? 3_600_000 : 300_000,
  );
});
