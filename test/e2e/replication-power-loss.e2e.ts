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
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TestCluster } from './support/cluster.js';
import { createFaultTopic, expectSafe, FAULT_RUN_PARTITIONS, formatRun, runFaults } from './support/fault-run.js';
import { Nemesis, type Role } from './support/nemesis.js';
import { REPLICATION_ENV } from './support/replication.js';
import { SeededRandom } from './support/seeded-random.js';

const SOAK = process.env.BROOK_SOAK === '1';
const ROUNDS_PER_ROLE = SOAK ? 20 : 5;
const TOPIC = 'power-loss';
/** Production between a heal and the next crash. */
const PRODUCE_BETWEEN_FAULTS_MS = SOAK ? 3_000 : 700;

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

describe('power loss of a broker under acks=all load (RF 3, min.insync.replicas=2)', () => {
  it(
    `loses no acknowledged record over ${ROUNDS_PER_ROLE} power losses each of a leader, a follower and the controller`,
    async () => {
      const nemesis = new Nemesis(cluster, TOPIC, FAULT_RUN_PARTITIONS, random);
      const roles = random.shuffled(
        (['leader', 'follower', 'controller'] as Role[]).flatMap((role) => Array<Role>(ROUNDS_PER_ROLE).fill(role)),
      );
      const run = await runFaults(
        cluster,
        clusterId,
        TOPIC,
        roles.map((role) => ({ label: role, inject: () => nemesis.powerLoss(role) })),
        PRODUCE_BETWEEN_FAULTS_MS,
      );
      console.log(formatRun('power loss', random.seed, run));
      expectSafe(run);
    },
    SOAK ? 3_600_000 : 300_000,
  );
});
