// Safety never rests on the lease alone (DESIGN.md §1): two controllers built on one real redis-server. When
// Redis drops the controller key early (a TTL cut short, a failover), a second broker is elected while the first
// still believes its lease valid; the first one's writes are then refused by the epoch fence, and it resigns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControllerStack, startControllerStack } from '../../test/support/controller-stack.js';

import { BrookError } from '../common/brook-error.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { CONTROLLER_EPOCH_KEY, CONTROLLER_KEY, topicKey } from '../coordination/cluster-keys.js';
import { RedisCoordinationStore } from '../coordination/redis-store.js';
import { RedisServerProcess } from '../local-cluster/redis-server-process.js';

let redis: RedisServerProcess;
const dataDirs: string[] = [];

beforeAll(async () => {
  redis = await RedisServerProcess.start();
});

afterAll(async () => {
  await redis.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

type Broker = ControllerStack<RedisCoordinationStore>;

async function startBroker(brokerId: number): Promise<Broker> {
  const dataDir = mkdtempSync(join(tmpdir(), 'brook-fencing-'));
  dataDirs.push(dataDir);
  const config = loadBrokerConfig({
    BROOK_DATA_DIR: dataDir,
    BROOK_BROKER_ID: String(brokerId),
    BROOK_REDIS_URL: redis.url,
    BROOK_CLUSTER_SECRET: 'fencing-test-secret-0123456789',
    BROOK_BROKER_SESSION_TIMEOUT_MS: '30000',
    // Nothing listens there: the controller's metadata pushes to the other broker fail fast and are ignored.
    BROOK_ADVERTISED_URL: 'http://127.0.0.1:1',
  });
  return startControllerStack(await RedisCoordinationStore.connect(redis.url), config);
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('controller fencing on Redis', () => {
  it("refuses a deposed controller's writes by epoch, and it resigns", async () => {
    const first = await startBroker(1);
    const second = await startBroker(2);
    try {
      expect(first.election.isController()).toBe(true);
      await until(() => first.cluster.ready);
      const firstEpoch = first.election.currentControllerEpoch();
      await first.controller.createTopic({ name: 'before', partitions: 1, replicationFactor: 1, configs: [] });

      // Redis loses the controller key long before the first controller's lease would run out on its clock.
      await first.store.delete(CONTROLLER_KEY);
      await (second.election as unknown as { standIfAllowed(): Promise<void> }).standIfAllowed();
      expect(second.election.isController()).toBe(true);
      expect(second.election.currentControllerEpoch()).toBeGreaterThan(firstEpoch);
      expect(await second.store.readCounter(CONTROLLER_EPOCH_KEY)).toBe(second.election.currentControllerEpoch());

      // The first still believes it holds the lease: only the epoch stops it.
      expect(first.election.isController()).toBe(true);
      const refused = first.controller.createTopic({ name: 'stale', partitions: 1, replicationFactor: 1, configs: [] });
      await expect(refused).rejects.toBeInstanceOf(BrookError);
      await expect(refused).rejects.toMatchObject({ status: 503, errorCode: 50302 });
      expect(first.election.isController()).toBe(false);
      expect(await first.store.get(topicKey('stale'))).toBeNull();
      expect(await first.store.get(topicKey('before'))).not.toBeNull();

      // The new controller runs concurrent commands one at a time: one creation of a name wins.
      await until(() => second.cluster.ready);
      const request = { name: 'contested', partitions: 2, replicationFactor: 1, configs: [] };
      const outcomes = await Promise.allSettled([
        second.controller.createTopic(request),
        second.controller.createTopic(request),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
