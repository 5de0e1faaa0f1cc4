// Two brokers' DynamicBrokerConfigs over one coordination store: a change made through one is what both act on,
// per broker or cluster-wide, and a refused change writes nothing.
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrookError } from '../common/brook-error.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { BROKER_CONFIGS_DEFAULT_KEY, brokerConfigsKey } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import { DynamicBrokerConfigs } from './dynamic-broker-configs.service.js';

async function eventually(check: () => void, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('DynamicBrokerConfigs', () => {
  let dataDir: string;
  let store: EmbeddedCoordinationStore;
  let one: DynamicBrokerConfigs;
  let two: DynamicBrokerConfigs;
  let changes: number;

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-broker-configs-'));
    store = await EmbeddedCoordinationStore.open(dataDir);
    one = new DynamicBrokerConfigs(store, loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' }));
    two = new DynamicBrokerConfigs(
      store,
      loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '2', BROOK_NUM_PARTITIONS: '5' }),
    );
    await one.onModuleInit();
    await two.onModuleInit();
    changes = 0;
    two.onChange(() => changes++);
  });

  afterEach(async () => {
    one.onModuleDestroy();
    two.onModuleDestroy();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it("applies a cluster-wide change on every broker, below a broker's own value", async () => {
    expect(two.settings().numPartitions).toBe(5);
    await one.alter({ kind: 'default' }, [{ name: 'num.partitions', value: '3', operation: 'SET' }], false);
    expect(one.settings().numPartitions).toBe(3);
    await eventually(() => expect(two.settings().numPartitions).toBe(3));
    expect(changes).toBeGreaterThan(0);

    await one.alter({ kind: 'broker', brokerId: 2 }, [{ name: 'num.partitions', value: '7', operation: 'SET' }], false);
    await eventually(() => expect(two.settings().numPartitions).toBe(7));
    expect(one.settings().numPartitions).toBe(3);

    await one.alter(
      { kind: 'broker', brokerId: 2 },
      [{ name: 'num.partitions', value: null, operation: 'DELETE' }],
      false,
    );
    await eventually(() => expect(two.settings().numPartitions).toBe(3));
    expect(await store.get(brokerConfigsKey(2))).toBeNull();
  });

  it('describes another broker from what it published at start-up', async () => {
    expect((await one.startLayerOf(2))?.['num.partitions']).toEqual({ value: '5', fromEnv: true });
    expect(await one.startLayerOf(9)).toBeNull();
  });

  it('writes nothing for a refused or validate-only change', async () => {
    const refused = one.alter(
      { kind: 'default' },
      [
        { name: 'num.partitions', value: '4', operation: 'SET' },
        { name: 'log.retention.ms', value: 'later', operation: 'SET' },
      ],
      false,
    );
    await expect(refused).rejects.toBeInstanceOf(BrookError);
    await expect(refused).rejects.toMatchObject({ status: 400, errorCode: 40002 });
    await one.alter({ kind: 'default' }, [{ name: 'num.partitions', value: '4', operation: 'SET' }], true);
    expect(await store.get(BROKER_CONFIGS_DEFAULT_KEY)).toBeNull();
    expect(one.settings().numPartitions).toBe(1);
  });
});
