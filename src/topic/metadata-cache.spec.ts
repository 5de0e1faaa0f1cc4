// The metadata cache never takes an emptied coordination store for a cluster without topics: it keeps (and keeps
// persisted) what it applied last until a controller writes a new metadata incarnation.
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ManualClock } from '../common/clock.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { METADATA_INCARNATION_KEY, partitionStateKey, topicConfigKey, topicKey } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { TopicMetadata } from './cluster-metadata.js';
import { LISTENERS_RETELL_INTERVAL_MS, MetadataCache } from './metadata-cache.service.js';
import { readSnapshot } from './metadata-snapshot.js';

async function writeTopic(store: EmbeddedCoordinationStore, name: string): Promise<void> {
  await store.put(topicConfigKey(name), '{}');
  await store.put(
    partitionStateKey(name, 0),
    JSON.stringify({ leader: 1, leaderEpoch: 0, isr: [1], controllerEpoch: 1 }),
  );
  await store.put(topicKey(name), JSON.stringify({ topicId: `${name}-id`, name, replicas: [[1]] }));
}

describe('MetadataCache and a store that lost its data', () => {
  let dataDir: string;
  let store: EmbeddedCoordinationStore;
  let cache: MetadataCache;
  let applied: string[][];

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-metadata-'));
    store = await EmbeddedCoordinationStore.open(dataDir);
    cache = new MetadataCache(store, loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' }));
    applied = [];
    cache.onChange((topics) => {
      applied.push([...topics.keys()]);
    });
  });

  afterEach(async () => {
    cache.onModuleDestroy();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('holds the last applied metadata while the incarnation is missing, and applies a restored store', async () => {
    await writeTopic(store, 'a');
    await writeTopic(store, 'b');
    await store.put(METADATA_INCARNATION_KEY, 'first');
    await cache.start();
    expect([...cache.allTopics().keys()]).toEqual(['a', 'b']);
    expect((await readSnapshot(dataDir))?.incarnation).toBe('first');

    for (const entry of await store.list('')) await store.delete(entry.key);
    await cache.reload();
    expect([...cache.allTopics().keys()]).toEqual(['a', 'b']);
    expect(applied.at(-1)).toEqual(['a', 'b']);
    expect(cache.snapshot().topics.map((topic: TopicMetadata) => topic.assignment.name)).toEqual(['a', 'b']);

    await writeTopic(store, 'a');
    await store.put(METADATA_INCARNATION_KEY, 'second');
    await cache.reload();
    expect([...cache.allTopics().keys()]).toEqual(['a']);
    expect((await readSnapshot(dataDir))?.incarnation).toBe('second');
  });

  it('starts from its snapshot when the store has nothing', async () => {
    await writeTopic(store, 'kept');
    await store.put(METADATA_INCARNATION_KEY, 'first');
    await cache.start();
    cache.onModuleDestroy();
    for (const entry of await store.list('')) await store.delete(entry.key);

    const restarted = new MetadataCache(store, loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' }));
    const seen: string[][] = [];
    restarted.onChange((topics) => {
      seen.push([...topics.keys()]);
    });
    await restarted.start();
    expect(seen).toEqual([['kept']]);
    restarted.onModuleDestroy();
  });
});

describe('MetadataCache stall detection during a long first load', () => {
  let dataDir: string;
  let store: EmbeddedCoordinationStore;

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-metadata-stall-'));
    store = await EmbeddedCoordinationStore.open(dataDir);
  });

  afterEach(async () => {
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('beats through a first load longer than a broker session: no stall, and no second load for one', async () => {
    await writeTopic(store, 'a');
    const clock = new ManualClock();
    const config = loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' });
    const cache = new MetadataCache(store, config, clock);
    let loads = 0;
    let releaseFirstLoad!: () => void;
    const firstLoadReleased = new Promise<void>((resolve) => (releaseFirstLoad = resolve));
    // the first load's listener (the log manager opening every log, at start-up) takes three broker sessions
    cache.onChange(async () => {
      if (++loads === 1) await firstLoadReleased;
    });
    const started = cache.start();
    while (loads === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let elapsedMs = 0; elapsedMs < 3 * config.brokerSessionTimeoutMs; elapsedMs += 100) {
      clock.advance(100);
      expect(cache.mayBeStale()).toBe(false);
    }
    releaseFirstLoad();
    await started;
    clock.advance(1_000);
    await cache.reload({ retell: true });
    expect(cache.mayBeStale()).toBe(false);
    // one load at start and the one asked for above: a stall would have added one in between
    expect(loads).toBe(2);
    cache.onModuleDestroy();
  });
});

describe('MetadataCache telling its listeners', () => {
  let dataDir: string;
  let store: EmbeddedCoordinationStore;
  let clock: ManualClock;
  let cache: MetadataCache;
  let told: number;
  /** Each telling's `retell`: listeners that act only on what changed act on everything when it is true. */
  let retells: boolean[];
  let answer: boolean | undefined;

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-metadata-tell-'));
    store = await EmbeddedCoordinationStore.open(dataDir);
    clock = new ManualClock();
    cache = new MetadataCache(store, loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' }), clock);
    told = 0;
    retells = [];
    answer = undefined;
    cache.onChange((_topics, telling) => {
      told++;
      retells.push(telling.retell);
      return answer;
    });
    await writeTopic(store, 'a');
    await store.put(METADATA_INCARNATION_KEY, 'first');
    await cache.start();
  });

  afterEach(async () => {
    cache.onModuleDestroy();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('tells them after a reload that changed the metadata, not after one that did not', async () => {
    expect(told).toBe(1);
    await cache.reload();
    await cache.reload();
    expect(told).toBe(1);
    // a new leader epoch: the partition state's value and version change
    await store.put(
      partitionStateKey('a', 0),
      JSON.stringify({ leader: 1, leaderEpoch: 1, isr: [1], controllerEpoch: 1 }),
    );
    await cache.reload();
    expect(told).toBe(2);
    expect(cache.topic('a')?.states[0].leaderEpoch).toBe(1);
    await cache.reload();
    expect(told).toBe(2);
    // the same value written again is a new version (a compare-and-set version the listeners are given)
    await store.put(topicConfigKey('a'), '{}');
    await cache.reload();
    expect(told).toBe(3);
    // the first telling is a retelling (nothing was told before), the changes are not
    expect(retells).toEqual([true, false, false]);
  });

  it('tells them again when asked, after a failed telling, and every LISTENERS_RETELL_INTERVAL_MS', async () => {
    await cache.reload({ retell: true });
    expect(told).toBe(2);
    answer = false; // some of the listener's work failed: it wants the next reload
    await cache.reload({ retell: true });
    answer = undefined;
    await cache.reload();
    expect(told).toBe(4);
    await cache.reload();
    expect(told).toBe(4);
    clock.advance(LISTENERS_RETELL_INTERVAL_MS - 1);
    await cache.reload();
    expect(told).toBe(4);
    clock.advance(1);
    await cache.reload();
    expect(told).toBe(5);
    expect(retells).toEqual([true, true, true, true, true]);
  });
});
