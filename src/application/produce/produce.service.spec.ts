// A request whose records all go to one partition gets the shared, frozen array 0..n-1 as its indexes (made once
// per record count): every request sees its own count's indexes, whatever the counts of the requests between.
import { effectiveBrokerSettings } from '../../config/broker-configs.js';
import type { DynamicBrokerConfigs } from '../../topic/dynamic-broker-configs.service.js';
import { describe, expect, it } from 'vitest';
import type { BrokerConfig } from '../../config/broker-config.js';
import type { ControllerService } from '../../controller-election/controller.service.js';
import { Metrics } from '../../metrics/metrics.service.js';
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import type { MetadataCache } from '../../topic/metadata-cache.service.js';
import { BATCH_HEADER_BYTES } from '../../partition-log/record-batch.js';
import type { ReplicaManager } from '../../replication/replica-manager.service.js';
import { ProduceService, type ScannedRecords } from './produce.service.js';

function service(appended: Array<{ partition: number; bytes: number }>): ProduceService {
  const metadata = {
    topic: () => ({ assignment: { replicas: [[0], [0]] }, configs: {} }),
  } as unknown as MetadataCache;
  const router = {
    produce: (_topic: string, partition: number, batch: Buffer) => {
      appended.push({ partition, bytes: batch.length });
      return Promise.resolve({ firstOffset: 0, logAppendTimeMs: -1 });
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
  );
}

/** `count` keyless records without a partition, as the v2 scanner lays them out (the bytes do not matter here). */
function scanned(count: number): ScannedRecords {
  const none = new Int32Array(count).fill(-1);
  return {
    count,
    data: Buffer.alloc(BATCH_HEADER_BYTES + count),
    end: BATCH_HEADER_BYTES + count,
    keyAt: none,
    keyLength: none,
    valueAt: none,
    valueLength: none,
    partitions: null,
    keyed: false,
    key: () => null,
  };
}

describe('ProduceService indexes', () => {
  it('gives each one-partition request the indexes of its own record count, frozen', async () => {
    const appended: Array<{ partition: number; bytes: number }> = [];
    const produce = service(appended);
    for (const count of [1000, 1000, 3, 1000, 1]) {
      const result = await produce.produceScanned('t', scanned(count), 1, 0, '1');
      expect(result.appended).toHaveLength(1);
      const { indexes, partition } = result.appended[0];
      expect(partition).toBe(1);
      expect(indexes).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(Object.isFrozen(indexes)).toBe(true);
    }
    expect(appended.map((append) => append.partition)).toEqual([1, 1, 1, 1, 1]);
  });
});
