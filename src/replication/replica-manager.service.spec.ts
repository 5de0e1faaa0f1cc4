import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PeerClient } from '../cluster/peer-client.js';
import { BrookError, errors } from '../common/brook-error.js';
import { ManualClock } from '../common/clock.js';
import { loadBrokerConfig, type BrokerConfig } from '../config/broker-config.js';
import { partitionStateKey } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import { Metrics } from '../metrics/metrics.service.js';
import { FileHandlePool } from '../partition-log/file-handle-pool.js';
import type { LogManager } from '../partition-log/log-manager.service.js';
import { logConfig } from '../partition-log/log-config.js';
import { PartitionLog } from '../partition-log/partition-log.js';
import { PartitionRoles } from './partition-roles.js';
import { encodeBatch } from '../partition-log/record-batch.js';
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import { HIGH_WATERMARK_CHECKPOINT_FILE } from './high-watermark-checkpoint.js';
import { ReplicaManager } from './replica-manager.service.js';
import type { ReplicaFetchRequest } from './replica-fetch-protocol.js';
import { DynamicBrokerConfigs } from '../topic/dynamic-broker-configs.service.js';

const SELF = 1;
const SELF_EPOCH = 7;
const FOLLOWER = 2;
const FOLLOWER_EPOCH = 3;
const TOPIC = 'orders';
const LAG_MS = 1_000;
const ACKS_TIMEOUT_MS = 5_000;

let dir: string;
let pool: FileHandlePool;
let clock: ManualClock;
let store: EmbeddedCoordinationStore;
let log: PartitionLog | undefined;
let topics: Map<string, TopicMetadata>;
let reloads: number;
let listener: ((topics: ReadonlyMap<string, TopicMetadata>, telling?: { retell: boolean }) => Promise<boolean>) | null;
let config: BrokerConfig;
let manager: ReplicaManager;

/** The metadata cache's port: the topics as the test sets them, and how often a reload was asked for. */
const metadata = {
  topic: (name: string) => topics.get(name),
  onChange: (next: typeof listener) => void (listener = next),
  reload: async () => void reloads++,
  mayBeStale: () => false,
} as unknown as MetadataCache;

const logs = {
  log: (topic: string, partition: number) => (topic === TOPIC && partition === 0 ? log : undefined),
  logNamed: (name: string) => (name === `${TOPIC}-0` ? log : undefined),
  setHighWatermarkSource: () => undefined,
} as unknown as LogManager;

/** No peer is reachable: a follower's fetcher fails and backs off on the manual clock. */
const peers = {
  brokerUrl: async () => null,
  fetchConnection: () => ({ close: () => undefined }),
} as unknown as PeerClient;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'brook-replica-manager-'));
  pool = new FileHandlePool();
  clock = new ManualClock();
  store = await EmbeddedCoordinationStore.open(join(dir, 'store'), clock);
  log = await PartitionLog.open(join(dir, `${TOPIC}-0`), logConfig({}), { clock, pool });
  topics = new Map();
  reloads = 0;
  listener = null;
  config = {
    ...loadBrokerConfig({ BROOK_DATA_DIR: dir, BROOK_BROKER_ID: String(SELF) }),
    replicaLagTimeMaxMs: LAG_MS,
    acksAllTimeoutMs: ACKS_TIMEOUT_MS,
  };
  manager = new ReplicaManager(
    config,
    logs,
    metadata,
    store,
    peers,
    new Metrics(),
    new DynamicBrokerConfigs(store, config),
    clock,
  );
  await manager.start(SELF_EPOCH);
});

afterEach(async () => {
  await manager.onModuleDestroy();
  await store.close();
  await pool.closeAll();
  await rm(dir, { recursive: true, force: true });
});

function state(leader: number, leaderEpoch: number, isr: number[]): PartitionState {
  return {
    leader,
    leaderEpoch,
    isr,
    isrBrokerEpochs: { [SELF]: SELF_EPOCH, [FOLLOWER]: FOLLOWER_EPOCH },
    controllerEpoch: 1,
  };
}

/**
 * The controller's decision, as the coordination store holds it and the metadata cache hands it over; what the
 * manager answered the cache (false: a role change failed, tell it again).
 */
async function decide(partitionState: PartitionState | null): Promise<boolean> {
  if (partitionState === null) {
    topics.delete(TOPIC);
  } else {
    const key = partitionStateKey(TOPIC, 0);
    const current = await store.get(key);
    const written = await store.put(
      key,
      JSON.stringify(partitionState),
      current === null ? {} : { expectedVersion: current.version },
    );
    if (!written.ok) throw new Error('the test could not write the partition state');
    topics.set(TOPIC, {
      assignment: { topicId: 't', name: TOPIC, replicas: [[SELF, FOLLOWER]] },
      states: [partitionState],
      stateVersions: [written.version],
      configs: { 'min.insync.replicas': '2' },
    });
  }
  return listener!(topics);
}

function batch(count: number): Buffer {
  return encodeBatch(
    Array.from({ length: count }, (_, i) => ({ key: null, value: Buffer.from(`${i}`), timestamp: 1 })),
  );
}

function fetchAt(fetchOffset: number, overrides: Partial<ReplicaFetchRequest> = {}) {
  return manager.replicaFetch(TOPIC, 0, {
    replicaId: FOLLOWER,
    brokerEpoch: FOLLOWER_EPOCH,
    fetchOffset,
    lastFetchedEpoch: -1,
    leaderEpoch: 1,
    maxBytes: 1 << 20,
    waitMs: 0,
    ...overrides,
  });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('ReplicaManager role changes', () => {
  it('leads what the controller names it leader of, as the incarnation it runs', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    const { view } = manager.localReplica(TOPIC, 0);
    expect(view).toMatchObject({ role: 'leader', leader_epoch: 1, isr: [SELF, FOLLOWER], high_watermark: 0 });
    expect(await manager.produce(TOPIC, 0, batch(2), '1')).toMatchObject({ firstOffset: 0, lastOffset: 1 });
    expect(manager.highWatermarkOf(TOPIC, 0)).toBe(0); // the follower has not fetched yet
    expect(manager.underReplicatedCount()).toBe(0);
  });

  it('follows another leader (a fetcher runs), and then answers produce with 40404', async () => {
    await decide(state(FOLLOWER, 2, [SELF, FOLLOWER]));
    expect(manager.localReplica(TOPIC, 0).view).toMatchObject({ role: 'follower', leader_epoch: 2, isr: null });
    const error = await manager.produce(TOPIC, 0, batch(1), '1').catch((failure: BrookError) => failure);
    expect((error as BrookError).errorCode).toBe(errors.leaderNotAvailable('').errorCode);
  });

  it('answers the metadata cache false while a role change fails, so that it is told again', async () => {
    vi.spyOn(log!, 'assignEpochAtEnd').mockRejectedValueOnce(new Error('no space left on device'));
    expect(await decide(state(SELF, 1, [SELF, FOLLOWER]))).toBe(false);
    expect(manager.localReplica(TOPIC, 0).view.role).toBe('none');
    expect(await listener!(topics)).toBe(true);
    expect(manager.localReplica(TOPIC, 0).view).toMatchObject({ role: 'leader', leader_epoch: 1 });
  });

  it('serves a leadership naming an earlier incarnation as nothing', async () => {
    await decide({ ...state(SELF, 1, [SELF, FOLLOWER]), isrBrokerEpochs: { [SELF]: SELF_EPOCH - 1 } });
    expect(manager.localReplica(TOPIC, 0).view.role).toBe('none');
  });

  it('refuses metadata older than what it acted on, and leaves the role as it is', async () => {
    await decide(state(FOLLOWER, 5, [SELF, FOLLOWER]));
    await decide(state(FOLLOWER, 4, [SELF, FOLLOWER]));
    expect(manager.localReplica(TOPIC, 0).view).toMatchObject({ role: 'follower', leader_epoch: 5 });
  });

  it('a change that does not touch a partition leaves its role alone; a retelling applies it again', async () => {
    const applies = vi.spyOn(PartitionRoles.prototype, 'apply');
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    expect(applies).toHaveBeenCalledTimes(1);
    // another partition's change (here: the same entries, told as a change) does not apply this one again
    expect(await listener!(topics, { retell: false })).toBe(true);
    expect(applies).toHaveBeenCalledTimes(1);
    expect(await listener!(topics, { retell: true })).toBe(true);
    expect(applies).toHaveBeenCalledTimes(2);
    // its own change does
    await decide(state(FOLLOWER, 2, [SELF, FOLLOWER]));
    expect(applies).toHaveBeenCalledTimes(3);
    expect(manager.localReplica(TOPIC, 0).view).toMatchObject({ role: 'follower', leader_epoch: 2 });
    // a follower whose fetcher went away is applied again on the next change, even one that did not touch it
    const fetchers = (
      manager as unknown as { fetchers: { stop(key: string): Promise<void>; get(key: string): unknown } }
    ).fetchers;
    await fetchers.stop(`${TOPIC}-0`);
    expect(fetchers.get(`${TOPIC}-0`)).toBeUndefined();
    await listener!(topics, { retell: false });
    expect(applies).toHaveBeenCalledTimes(4);
    expect(fetchers.get(`${TOPIC}-0`)).toBeDefined();
  });

  it('drops a partition no longer hosted: a parked acks=all request learns its outcome is unknown', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    const waiting = manager.produce(TOPIC, 0, batch(1), 'all').catch((failure: BrookError) => failure);
    await settle();
    log = undefined;
    await decide(null);
    const error = await waiting;
    expect((error as BrookError).errorCode).toBe(errors.outcomeUnknown('').errorCode);
  });
});

describe('ReplicaManager effects', () => {
  it('an acks=all produce and a long-polling read wake when a follower fetch advances the HW', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    const produced = manager.produce(TOPIC, 0, batch(3), 'all');
    // the append goes through real files: wait for it (a fetch at 3 before it would find nothing to acknowledge)
    await vi.waitFor(() => expect(manager.localReplica(TOPIC, 0).view.log_end_offset).toBe(3));
    const read = manager.read(TOPIC, 0, 0, { maxBytes: 1 << 20, waitMs: 10_000 });
    await settle();
    await fetchAt(3);
    expect(await produced).toMatchObject({ lastOffset: 2 });
    expect((await read).highWatermark).toBe(3);
  });

  it("a follower's long poll at the log end wakes when the leader appends", async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    const polled = fetchAt(0, { waitMs: 10_000 });
    await settle();
    await manager.produce(TOPIC, 0, batch(1), '1');
    expect((await polled).batches.length).toBeGreaterThan(0);
  });

  it('answers follower fetches from the appends it kept with the bytes its log holds, and drops them once fetched', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    for (const count of [2, 3, 1]) await manager.produce(TOPIC, 0, batch(count), '1');
    const fromMemory = await fetchAt(0);
    expect(fromMemory.batches).toHaveLength(3); // the kept batches, not one read of the file
    const stored = await log!.read(0, { maxBytes: 1 << 20, minOneBatch: true });
    expect(Buffer.concat(fromMemory.batches)).toEqual(stored.batches);
    expect(Buffer.concat((await fetchAt(2)).batches)).toEqual(stored.batches.subarray(fromMemory.batches[0].length));
    await fetchAt(6); // the HW is at the log end: what the follower fetched is dropped
    const fromFile = await fetchAt(0);
    expect(fromFile.batches).toHaveLength(1);
    expect(fromFile.batches[0]).toEqual(stored.batches);
  });

  it('the lag timer shrinks the ISR through the coordination store, compare-and-set, then reloads the metadata', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    clock.advance(LAG_MS * 2);
    await vi.waitFor(() => expect(manager.localReplica(TOPIC, 0).view.isr).toEqual([SELF]));
    const stored = JSON.parse((await store.get(partitionStateKey(TOPIC, 0)))!.value) as PartitionState;
    expect(stored.isr).toEqual([SELF]);
    expect(reloads).toBeGreaterThan(0);
    const error = await manager.produce(TOPIC, 0, batch(1), 'all').catch((failure: BrookError) => failure);
    expect((error as BrookError).errorCode).toBe(errors.notEnoughReplicas('').errorCode);
  });

  it('a refused ISR write changes nothing and reloads the metadata', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    // another controller moved on: the stored state names another epoch
    await store.put(partitionStateKey(TOPIC, 0), JSON.stringify(state(FOLLOWER, 2, [FOLLOWER])));
    clock.advance(LAG_MS * 2);
    await vi.waitFor(() => expect(reloads).toBeGreaterThan(0));
    expect(manager.localReplica(TOPIC, 0).view.isr).toEqual([SELF, FOLLOWER]);
  });

  it('a controlled shutdown drains once the followers caught up, woken by their fetch', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    await manager.produce(TOPIC, 0, batch(2), '1');
    let drained = false;
    const draining = manager.drainLeadership().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    await fetchAt(2);
    await draining;
    const error = await manager.offsets(TOPIC, 0).catch((failure: BrookError) => failure);
    expect((error as BrookError).errorCode).toBe(errors.leaderNotAvailable('').errorCode);
  });

  it('checkpoints the HW at shutdown', async () => {
    await decide(state(SELF, 1, [SELF, FOLLOWER]));
    await manager.produce(TOPIC, 0, batch(4), '1');
    await fetchAt(4);
    await manager.onModuleDestroy();
    expect(await readFile(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE), 'utf8')).toBe(`0\n1\n${TOPIC} 0 4\n`);
  });
});
