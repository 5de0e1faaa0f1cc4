// Idempotency-Key requests whose records spread over partitions (partition-appends.ts), through ProduceService
// against one real PartitionLog per partition (a router that appends to them as their leader): clients send one of
// a few bodies per key, each body's records going to named partitions, by key, or to the key's home partition, so
// that two bodies of one key often share no partition. The model: the first body of a key appends its records
// once; the same body again replays the original offsets and appends nothing; another body is 42291 and appends
// nothing on any partition; a home partition that is down fails the request before any other partition is tried.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, T0 } from '../../../test/support/log-fixtures.js';
import { BrookError } from '../../common/brook-error.js';
import { ManualClock } from '../../common/clock.js';
import { effectiveBrokerSettings } from '../../config/broker-configs.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import type { ControllerService } from '../../controller-election/controller.service.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { FileHandlePool } from '../../partition-log/file-handle-pool.js';
import { logConfig } from '../../partition-log/log-config.js';
import { PartitionLog } from '../../partition-log/partition-log.js';
import { batchesIn, decodeRecords } from '../../partition-log/record-batch.js';
import { translate } from '../../replication/leader-partition.js';
import type { PartitionRouter, RoutedProduceOptions } from '../../replication/partition-router.service.js';
import type { ReplicaManager } from '../../replication/replica-manager.service.js';
import type { DynamicBrokerConfigs } from '../../topic/dynamic-broker-configs.service.js';
import type { MetadataCache } from '../../topic/metadata-cache.service.js';
import { bodyDigest, keyProducer } from '../idempotence/idempotency-key.js';
import { homePartition } from './partition-appends.js';
import { ProduceService, type ProduceInput, type ProduceOutcome } from './produce.service.js';

const PARTITIONS = 4;
const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 200 : 20;

/** A record's placement: a named partition, a record key, or neither (the key's home partition). */
type Place = { partition: number } | { key: string } | Record<string, never>;

interface Body {
  places: Place[];
}

interface World {
  logs: PartitionLog[];
  pool: FileHandlePool;
  clock: ManualClock;
  /** Partitions whose leader is away: their appends fail with 40404, nothing appended. */
  down: Set<number>;
  /** Every partition an append was asked of, in order. */
  asked: number[];
}

function produceService(world: World): ProduceService {
  const metadata = {
    topic: () => ({ assignment: { replicas: Array.from({ length: PARTITIONS }, () => [0]) }, configs: {} }),
  } as unknown as MetadataCache;
  const router = {
    produce: async (_topic: string, partition: number, batch: Buffer, _acks: string, options: RoutedProduceOptions) => {
      world.asked.push(partition);
      if (world.down.has(partition)) throw new BrookError(404, 40404, `partition ${partition} has no leader`);
      try {
        return await world.logs[partition].appendAsLeader(batch, 0, {
          keyProducers: options.keyProducers,
          sequenceGaps: options.sequenceGaps,
        });
      } catch (error) {
        throw translate(error);
      }
    },
  } as unknown as PartitionRouter;
  const config = {
    autoCreateTopicsEnable: false,
    numPartitions: 1,
    defaultReplicationFactor: 1,
    topicConfigDefaults: {},
  } as unknown as BrokerConfig;
  return new ProduceService(
    config,
    metadata,
    router,
    {} as ControllerService,
    new Metrics(),
    {} as ReplicaManager,
    { settings: () => effectiveBrokerSettings(config, {}, {}) } as unknown as DynamicBrokerConfigs,
    world.clock,
  );
}

function inputs(body: Body, tag: string, nowMs: number): ProduceInput[] {
  return body.places.map((place, i) => ({
    key: 'key' in place ? Buffer.from(place.key) : null,
    value: Buffer.from(`${tag}-${i}`),
    timestamp: nowMs,
    partition: 'partition' in place ? place.partition : null,
  }));
}

async function send(
  service: ProduceService,
  key: string,
  body: Body,
  tag: string,
  nowMs: number,
): Promise<ProduceOutcome[] | BrookError> {
  const producer = keyProducer(
    { principal: 'User:alice', topic: 't', key, position: null },
    bodyDigest('test', JSON.stringify(body)),
  );
  try {
    return await service.produce('t', inputs(body, tag, nowMs), '1', producer);
  } catch (error) {
    if (error instanceof BrookError) return error;
    throw error;
  }
}

const place: fc.Arbitrary<Place> = fc.oneof(
  fc.record({ partition: fc.integer({ min: 0, max: PARTITIONS - 1 }) }),
  fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
  fc.constant({}),
);
const body: fc.Arbitrary<Body> = fc.record({ places: fc.array(place, { minLength: 1, maxLength: 4 }) });

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

async function openWorld(): Promise<World> {
  const clock = new ManualClock(T0);
  const pool = new FileHandlePool(16);
  const logs: PartitionLog[] = [];
  for (let p = 0; p < PARTITIONS; p++) {
    const dir = await makeTempDir(`brook-partition-appends-${p}-`);
    dirs.push(dir);
    logs.push(await PartitionLog.open(dir, logConfig({ retentionMs: -1, retentionBytes: -1 }), { clock, pool }));
  }
  return { logs, pool, clock, down: new Set(), asked: [] };
}

async function closeWorld(world: World): Promise<void> {
  for (const log of world.logs) await log.close();
  await world.pool.closeAll();
}

const logEnds = (world: World) => world.logs.map((log) => log.logEndOffset);

describe('Idempotency-Key requests over several partitions', () => {
  it('another body with the same key is 42291 and appends nothing, whatever partitions either body writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.constantFrom('k1', 'k2', 'k3'), body: fc.integer({ min: 0, max: 2 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        fc.array(body, { minLength: 3, maxLength: 3 }),
        async (steps, bodies) => {
          const world = await openWorld();
          const service = produceService(world);
          const first = new Map<string, { body: number; outcomes: ProduceOutcome[] }>();
          try {
            for (const [n, step] of steps.entries()) {
              const before = logEnds(world);
              const answer = await send(service, step.key, bodies[step.body], `${step.key}/${n}`, world.clock.nowMs());
              const kept = first.get(step.key);
              const sameBody =
                kept !== undefined && JSON.stringify(bodies[kept.body]) === JSON.stringify(bodies[step.body]);
              if (kept === undefined) {
                expect(answer).toBeInstanceOf(Array);
                const outcomes = answer as ProduceOutcome[];
                for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true });
                expect(outcomes.some((outcome) => outcome.ok && outcome.replayed === true)).toBe(false);
                first.set(step.key, { body: step.body, outcomes });
              } else if (sameBody) {
                expect(answer).toBeInstanceOf(Array);
                const outcomes = answer as ProduceOutcome[];
                for (const [i, outcome] of outcomes.entries()) {
                  const original = kept.outcomes[i] as Extract<ProduceOutcome, { ok: true }>;
                  expect(outcome).toMatchObject({ ok: true, partition: original.partition, offset: original.offset });
                  expect(outcome.ok && outcome.replayed).toBe(true);
                }
                expect(logEnds(world)).toEqual(before);
              } else {
                expect(answer).toBeInstanceOf(BrookError);
                expect((answer as BrookError).errorCode).toBe(42291);
                expect(logEnds(world)).toEqual(before);
              }
              world.clock.advance(1);
            }
          } finally {
            await closeWorld(world);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);

  it('writes the home partition first, a marker there when no record goes there, and stops when it fails', async () => {
    const world = await openWorld();
    const service = produceService(world);
    try {
      const key = 'order-1';
      const home = homePartition(
        keyProducer({ principal: 'User:alice', topic: 't', key, position: null }, 0).producerId,
        PARTITIONS,
      );
      const elsewhere = (home + 1) % PARTITIONS;
      const body: Body = { places: [{ partition: elsewhere }, { partition: elsewhere }] };

      world.down.add(home);
      const failed = (await send(service, key, body, 'a', world.clock.nowMs())) as ProduceOutcome[];
      expect(failed.map((outcome) => !outcome.ok && outcome.error.errorCode)).toEqual([50003, 50003]);
      expect(world.asked).toEqual([home]);
      expect(logEnds(world)).toEqual([0, 0, 0, 0]);

      world.down.clear();
      world.asked.length = 0;
      const appended = (await send(service, key, body, 'a', world.clock.nowMs())) as ProduceOutcome[];
      expect(appended.map((outcome) => outcome.ok && outcome.offset)).toEqual([0, 1]);
      expect(world.asked).toEqual([home, elsewhere]);
      // the marker took one offset of the home partition and holds no record
      expect(world.logs[home].logEndOffset).toBe(1);
      const read = await world.logs[home].read(0, { maxBytes: 1 << 20 });
      expect(read.nextOffset).toBe(1);
      const batches = [...batchesIn(read.batches)];
      expect(batches.map(({ header }) => [header.recordCount, header.lastOffsetDelta])).toEqual([[0, 0]]);
      expect(decodeRecords(read.batches)).toEqual([]);

      const replayed = (await send(service, key, body, 'a', world.clock.nowMs())) as ProduceOutcome[];
      expect(replayed.map((outcome) => outcome.ok && outcome.replayed)).toEqual([true, true]);
      // another body whose only partition is one the first never wrote
      const third = (home + 2) % PARTITIONS;
      const other = await send(service, key, { places: [{ partition: third }] }, 'b', world.clock.nowMs());
      expect(other).toMatchObject({ errorCode: 42291 });
      expect(world.logs[third].logEndOffset).toBe(0);
    } finally {
      await closeWorld(world);
    }
  });
});
