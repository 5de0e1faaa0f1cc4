// A request whose records all go to one partition gets the shared, frozen array 0..n-1 as its indexes (made once
// per record count): every request sees its own count's indexes, whatever the counts of the requests between.
import { describe, expect, it } from 'vitest';
import type { BrokerConfig } from '../config/broker-config.js';
import type { ControllerService } from '../controller-election/controller.service.js';
import { Metrics } from '../metrics/metrics.service.js';
import type { PartitionRouter } from '../replication/partition-router.service.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import { ProduceService } from './produce.service.js';
import { scanV2BinaryBody } from './v2-binary-body.js';

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
  const config = { autoCreateTopicsEnable: false, topicConfigDefaults: {} } as unknown as BrokerConfig;
  return new ProduceService(config, metadata, router, {} as ControllerService, new Metrics());
}

const body = (count: number) =>
  Buffer.from(JSON.stringify({ records: Array.from({ length: count }, (_, i) => ({ value: btoa(`v${i}`) })) }));

describe('ProduceService indexes', () => {
  it('gives each one-partition request the indexes of its own record count, frozen', async () => {
    const appended: Array<{ partition: number; bytes: number }> = [];
    const produce = service(appended);
    for (const count of [1000, 1000, 3, 1000, 1]) {
      const records = scanV2BinaryBody(body(count))!;
      expect(records).not.toBeNull();
      const result = await produce.produceScanned('t', records, 1, 0, '1');
      expect(result.appended).toHaveLength(1);
      const { indexes, partition } = result.appended[0];
      expect(partition).toBe(1);
      expect(indexes).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(Object.isFrozen(indexes)).toBe(true);
    }
    expect(appended.map((append) => append.partition)).toEqual([1, 1, 1, 1, 1]);
  });
});
