// A ProduceService over fakes, for property tests that compare two produce paths (the full one and a fast one):
// a topic of `partitions` partitions, compacted or not, one partition that may fail, a sticky partitioner from a
// given start, and a replica router that keeps the last batch appended to each partition and answers consecutive
// offsets from 10 x partition.
import 'reflect-metadata';
import fc from 'fast-check';
import { errors } from '../../src/common/brook-error.js';
import type { BrokerConfig } from '../../src/config/broker-config.js';
import type { ControllerService } from '../../src/controller-election/controller.service.js';
import type { Metrics } from '../../src/metrics/metrics.service.js';
import type { AppendInfo } from '../../src/partition-log/partition-log.js';
import type { PartitionRouter } from '../../src/replication/partition-router.service.js';
import type { Acks, ReplicaManager } from '../../src/replication/replica-manager.service.js';
import type { TopicMetadata } from '../../src/topic/cluster-metadata.js';
import type { DynamicBrokerConfigs } from '../../src/topic/dynamic-broker-configs.service.js';
import type { MetadataCache } from '../../src/topic/metadata-cache.service.js';
import { StickyPartitioner } from '../../src/topic/partitioner.js';
import { ProduceService } from '../../src/application/produce/produce.service.js';

export const NOW = 1_764_000_000_000;
export const TOPIC = 'orders';

export interface Setup {
  partitions: number;
  compacted: boolean;
  acks: Acks;
  failing: number | null;
  /** Whether the failing partition's produce fails with an unknown outcome (else: leader not available). */
  failingUnknown: boolean;
  stickyStart: number;
}

export function service(setup: Setup, batches: Map<number, Buffer>): ProduceService {
  const metadata = {
    assignment: { replicas: Array.from({ length: setup.partitions }, () => [0]) },
    states: [],
    stateVersions: [],
    configs: setup.compacted ? { 'cleanup.policy': 'compact' } : {},
  } as unknown as TopicMetadata;
  const next = new Map<number, number>();
  const replicas = {
    produce: (_topic: string, partition: number, batch: Buffer, acks: Acks): Promise<AppendInfo | null> => {
      if (partition === setup.failing) {
        const message = `"${partition}" is down`;
        return Promise.reject(
          setup.failingUnknown ? errors.outcomeUnknown(message) : errors.leaderNotAvailable(message),
        );
      }
      batches.set(partition, batch);
      const firstOffset = next.get(partition) ?? 10 * partition;
      const count = batch.readInt32BE(57);
      next.set(partition, firstOffset + count);
      if (acks === '0') return Promise.resolve(null);
      const info = { firstOffset, lastOffset: firstOffset + count - 1, logAppendTimeMs: -1, maxTimestampMs: NOW };
      return Promise.resolve({ ...info, recordCount: count });
    },
  } as unknown as PartitionRouter;
  const produce = new ProduceService(
    { autoCreateTopicsEnable: false, topicConfigDefaults: {} } as unknown as BrokerConfig,
    { topic: (name: string) => (name === TOPIC ? metadata : undefined) } as unknown as MetadataCache,
    replicas,
    {} as ControllerService,
    { produced: () => undefined } as unknown as Metrics,
    {} as ReplicaManager,
    {
      settings: () => ({ autoCreateTopicsEnable: false, topicConfigDefaults: {}, topicDefaultSources: {} }),
    } as unknown as DynamicBrokerConfigs,
  );
  (produce as unknown as { partitioners: Map<string, StickyPartitioner> }).partitioners.set(
    TOPIC,
    new StickyPartitioner(setup.stickyStart),
  );
  return produce;
}

export const setup: fc.Arbitrary<Setup> = fc.record({
  partitions: fc.integer({ min: 1, max: 4 }),
  compacted: fc.boolean(),
  acks: fc.constantFrom<Acks>('all', '1', '0'),
  failing: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null, freq: 4 }),
  failingUnknown: fc.boolean(),
  stickyStart: fc.nat(),
});
