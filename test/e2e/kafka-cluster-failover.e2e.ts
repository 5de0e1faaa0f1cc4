// kafkajs 2.2.4 against three real brokers and a real redis-server: producers with acks=-1 (all) write to an RF=3,
// min.insync.replicas=2 topic while its leader is killed with kill -9, then restarted, after which the controller
// gives the preferred replica its leadership back (the interim leader then answers NOT_LEADER_OR_FOLLOWER).
// Checked: every acknowledged record is read back, over REST and by a kafkajs consumer, at exactly the offset its
// acknowledgement named; the producers go on being acknowledged after the kill (they follow the new leader through
// a metadata refresh) and after the move back (through NOT_LEADER_OR_FOLLOWER and a metadata refresh); kafkajs's
// own metadata names the new leaders. Duplicates (a retried request whose first try was stored, as a producer
// without idempotence may write) are counted and printed, not failed. BROOK_SOAK=1 runs longer.
import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster, waitUntil } from './support/cluster.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

const SOAK = process.env.BROOK_SOAK === '1';
const PRODUCERS = SOAK ? 6 : 3;
/** Production in each phase: before the kill, after the new leader is acknowledging, after the move back. */
const PHASE_MS = SOAK ? 8_000 : 2_000;
const FAILOVER_TIMEOUT_MS = 25_000;
const TOPIC = 'kafkajs-failover';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3, { ...REPLICATION_ENV, BROOK_LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: '1' });
});

afterAll(async () => {
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What kafkajs's producers reported failing before a retry, by kind. */
class RetryLog {
  readonly kinds = new Map<string, number>();

  readonly logCreator = () => (entry: LogEntry) => {
    const message = String(entry.log.message);
    if (!message.startsWith('Failed to send messages')) return;
    const kind = /not the leader/i.test(message)
      ? 'NOT_LEADER_OR_FOLLOWER'
      : /no leader/i.test(message)
        ? 'LEADER_NOT_AVAILABLE'
        : /connect|closed|ECONN/i.test(message)
          ? 'connection'
          : /timed? ?out/i.test(message)
            ? 'timeout'
            : message.slice('Failed to send messages: '.length, 80);
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
  };

  count(kind: string): number {
    return this.kinds.get(kind) ?? 0;
  }
}

describe('kafkajs on a three-broker cluster (RF=3, min.insync.replicas=2, acks=-1)', () => {
  it('loses no acknowledged record over a kill -9 of the leader and follows the leadership as it moves', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], TOPIC);
    const firstLeaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const firstLeader = cluster.broker(firstLeaderId);
    const retries = new RetryLog();
    const kafka = new Kafka({
      clientId: 'e2e-failover',
      brokers: cluster.brokers.map((broker) => broker.kafkaBootstrap),
      logLevel: logLevel.ERROR,
      logCreator: retries.logCreator,
      retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 2_000 },
      connectionTimeout: 1_000,
      requestTimeout: 20_000,
    });

    type Phase = 'before' | 'failover' | 'after-kill' | 'after-return';
    let phase: Phase = 'before';
    const acknowledged = new Map<string, number>();
    const ackedIn = new Map<Phase, number>();
    const failures: string[] = [];
    let stopping = false;

    const producers = await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        const producer = kafka.producer({ allowAutoTopicCreation: false });
        await producer.connect();
        return producer;
      }),
    );
    const loops = producers.map(async (producer, index) => {
      for (let sequence = 0; !stopping; sequence++) {
        const value = `p${index}-${sequence}`;
        const sentIn = phase;
        try {
          const [answer] = await producer.send({ topic: TOPIC, acks: -1, messages: [{ value }] });
          expect(answer.errorCode).toBe(0);
          acknowledged.set(value, Number(answer.baseOffset));
          // a record sent before a phase began and acknowledged in it counts for the phase it was sent in
          ackedIn.set(sentIn, (ackedIn.get(sentIn) ?? 0) + 1);
        } catch (error) {
          failures.push(`${value}: ${(error as Error).message}`);
          await sleep(100);
        }
      }
    });

    try {
      await sleep(PHASE_MS);
      phase = 'failover';
      await firstLeader.kill('SIGKILL');
      const newLeaderId = await topic.waitForLeader(firstLeaderId, FAILOVER_TIMEOUT_MS);
      phase = 'after-kill';
      const ackedBeforeKill = acknowledged.size;
      await waitUntil(
        'acknowledgements from the new leader',
        async () => acknowledged.size > ackedBeforeKill + 20,
        20_000,
      );
      await sleep(PHASE_MS);

      await firstLeader.restart();
      await waitUntil(
        'the preferred replica leads again',
        async () => (await topic.view(cluster.brokers[0]))?.leader === firstLeaderId,
        FAILOVER_TIMEOUT_MS,
      );
      phase = 'after-return';
      const ackedBeforeReturn = acknowledged.size;
      await waitUntil(
        'acknowledgements after the move back',
        async () => acknowledged.size > ackedBeforeReturn + 20,
        20_000,
      );
      await sleep(PHASE_MS);
      stopping = true;
      await Promise.all(loops);

      // kafkajs's own view of the partition follows the moves
      const admin = kafka.admin();
      await admin.connect();
      try {
        const metadata = await admin.fetchTopicMetadata({ topics: [TOPIC] });
        expect(metadata.topics[0].partitions[0].leader).toBe(firstLeaderId);
      } finally {
        await admin.disconnect();
      }

      // read back: over REST from the restarted broker once every replica has caught up, and by a kafkajs consumer
      const { highWatermark } = await topic.healedReplicas(FAILOVER_TIMEOUT_MS);
      const stored = await topic.readAll(firstLeader);
      const consumed = await consumeAll(kafka, highWatermark);
      const lost = [...acknowledged].filter(([value, offset]) => stored.get(offset) !== value);
      const lostByConsumer = [...acknowledged].filter(([value, offset]) => consumed.get(offset) !== value);
      const copies = new Map<string, number>();
      for (const value of stored.values()) copies.set(value, (copies.get(value) ?? 0) + 1);
      const duplicated = [...copies.values()].filter((count) => count > 1).length;
      const counts = {
        producers: PRODUCERS,
        acknowledged: acknowledged.size,
        ackedBeforeKill: ackedIn.get('before') ?? 0,
        ackedSentDuringFailover: ackedIn.get('failover') ?? 0,
        ackedAfterKill: ackedIn.get('after-kill') ?? 0,
        ackedAfterReturn: ackedIn.get('after-return') ?? 0,
        failedSends: failures.length,
        stored: stored.size,
        highWatermark,
        lost: lost.length,
        lostByConsumer: lostByConsumer.length,
        duplicated,
        leaders: [firstLeaderId, newLeaderId, firstLeaderId],
        retriesByKind: Object.fromEntries(retries.kinds),
      };
      console.log(`kafkajs failover counts: ${JSON.stringify(counts)}`);

      expect(lost.slice(0, 5)).toEqual([]);
      expect(lostByConsumer.slice(0, 5)).toEqual([]);
      expect(stored.size).toBe(highWatermark);
      expect(failures.slice(0, 5)).toEqual([]);
      expect(counts.ackedAfterKill).toBeGreaterThan(20);
      expect(counts.ackedAfterReturn).toBeGreaterThan(20);
      // the kill is seen as lost connections. The move back is seen as NOT_LEADER_OR_FOLLOWER from the old leader or
      // through a metadata refresh kafkajs makes first (after its timeouts during the kill it refreshes on its own:
      // a CI run saw no NOT_LEADER_OR_FOLLOWER at all), so that count is logged, not asserted; that the client follows
      // is shown by the acknowledgements after the move back (only the leader acknowledges) and its metadata above.
      expect(retries.count('connection')).toBeGreaterThan(0);
    } finally {
      stopping = true;
      await Promise.allSettled(loops);
      await Promise.allSettled(producers.map((producer) => producer.disconnect()));
    }
  }, 180_000);
});

/** Every record of partition 0 up to `highWatermark`, as a kafkajs consumer group member reads it (values by offset). */
async function consumeAll(kafka: Kafka, highWatermark: number): Promise<Map<number, string>> {
  const consumer = kafka.consumer({ groupId: 'e2e-failover-reader', maxWaitTimeInMs: 200 });
  const values = new Map<number, string>();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        values.set(Number(message.offset), message.value?.toString() ?? '');
      },
    });
    await waitUntil('the consumer reads to the high watermark', async () => values.size >= highWatermark, 30_000);
  } finally {
    await consumer.disconnect();
  }
  return values;
}
