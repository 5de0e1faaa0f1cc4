// The controller lease's validity rule on a manual clock: the holder trusts the lease until the moment it *sent*
// the request that took or renewed it plus the TTL, however long the answer took, and resigns once it cannot be
// sure any more (renewal refused or failing).
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ManualClock } from '../common/clock.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { brokerKey, CONTROLLER_KEY } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import { ControllerElection } from './controller-election.service.js';

const TTL_MS = 9_000;

describe('ControllerElection lease validity', () => {
  let dataDir: string;
  let clock: ManualClock;
  let store: EmbeddedCoordinationStore;
  let election: ControllerElection;
  let resigned: number[];

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-election-'));
    clock = new ManualClock();
    store = await EmbeddedCoordinationStore.open(dataDir, clock);
    const config = loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' });
    election = new ControllerElection(store, config, clock);
    resigned = [];
    election.onResigned((epoch) => resigned.push(epoch));
    await election.start();
  });

  afterEach(async () => {
    await election.onModuleDestroy();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  /** One heartbeat, as the clock's interval timer runs it. */
  const heartbeat = () => (election as unknown as { tick(): Promise<void> }).tick();

  it('trusts a new lease for exactly one TTL from when it was requested', () => {
    expect(election.isController()).toBe(true);
    clock.advance(TTL_MS - 1);
    expect(election.isController()).toBe(true);
    clock.advance(1);
    expect(election.isController()).toBe(false);
    expect(() => election.assertController()).toThrow(/not the controller/);
  });

  it('counts a renewal from when it was sent, not from when the answer came', async () => {
    clock.advance(1_000);
    const renew = store.renewLease.bind(store);
    store.renewLease = async (key, token, ttlMs) => {
      clock.advance(3_000); // the request spends 3 s on the way
      return renew(key, token, ttlMs);
    };
    await heartbeat();
    // Sent at 1 000 ms: valid until 10 000 ms, although the answer arrived at 4 000 ms (or later).
    clock.advance(10_000 - clock.monotonicMs() - 1);
    expect(election.isController()).toBe(true);
    clock.advance(1);
    expect(election.isController()).toBe(false);
  });

  it('resigns when the store refuses the renewal', async () => {
    const epoch = election.currentControllerEpoch();
    await store.delete(CONTROLLER_KEY);
    await store.acquireLease(CONTROLLER_KEY, 'someone-else', TTL_MS);
    await heartbeat();
    expect(election.isController()).toBe(false);
    expect(resigned).toEqual([epoch]);
  });

  it('resigns once the lease may have lapsed while renewals fail', async () => {
    const epoch = election.currentControllerEpoch();
    store.renewLease = async () => {
      throw new Error('Redis is unreachable');
    };
    await heartbeat();
    expect(resigned).toEqual([]);
    clock.advance(TTL_MS); // the heartbeat's timer (on the clock) runs the ticks that find the lease lapsed
    await vi.waitFor(() => expect(resigned).toEqual([epoch]));
  });
});

describe('ControllerElection broker registration', () => {
  let dataDir: string;
  let clock: ManualClock;
  let store: EmbeddedCoordinationStore;
  let election: ControllerElection;
  let taken: string[];

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-registration-'));
    clock = new ManualClock();
    store = await EmbeddedCoordinationStore.open(dataDir, clock);
    election = new ControllerElection(
      store,
      loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' }),
      clock,
    );
    taken = [];
    election.onIdTaken((message) => taken.push(message));
    await election.start();
  });

  afterEach(async () => {
    await election.onModuleDestroy();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  const heartbeat = () => (election as unknown as { tick(): Promise<void> }).tick();

  it('keeps its registration when an update landed but its answer was lost', async () => {
    const key = brokerKey(1);
    const current = await store.get(key);
    // this incarnation's registration under a value the process did not record (the put's answer timed out)
    const landed = JSON.stringify({ ...JSON.parse(current!.value), highestControllerEpochSeen: 99 });
    await store.put(key, landed, { ttlMs: TTL_MS, expectedVersion: current!.version });
    await heartbeat();
    await heartbeat();
    expect(taken).toEqual([]);
    expect((await store.get(key))?.value).toContain(`"brokerEpoch":${election.brokerEpoch}`);
  });

  it('stops when another incarnation holds its id', async () => {
    const key = brokerKey(1);
    const current = await store.get(key);
    const other = JSON.stringify({ ...JSON.parse(current!.value), brokerEpoch: election.brokerEpoch + 1 });
    await store.put(key, other, { ttlMs: TTL_MS, expectedVersion: current!.version });
    await heartbeat();
    expect(taken).toEqual([expect.stringMatching(/broker id 1 is now registered by another broker process/)]);
  });

  it('takes a lost registration again as the same incarnation: the same process keeps its broker epoch', async () => {
    const epoch = election.brokerEpoch;
    await store.delete(brokerKey(1));
    await heartbeat();
    expect(taken).toEqual([]);
    expect(election.brokerEpoch).toBe(epoch);
    expect(JSON.parse((await store.get(brokerKey(1)))!.value)).toMatchObject({ brokerId: 1, brokerEpoch: epoch });
  });

  it('a restart on the same data dir replaces the live registration at once, with a higher broker epoch', async () => {
    const before = JSON.parse((await store.get(brokerKey(1)))!.value) as { brokerEpoch: number; directoryId: string };
    const config = loadBrokerConfig({ BROOK_DATA_DIR: dataDir, BROOK_BROKER_ID: '1' });
    // the previous process died without releasing anything: its registration is still live
    const next = new ControllerElection(store, config, clock);
    await next.start();
    try {
      const after = JSON.parse((await store.get(brokerKey(1)))!.value) as typeof before;
      expect(after.directoryId).toBe(before.directoryId);
      expect(after.brokerEpoch).toBeGreaterThan(before.brokerEpoch);
      expect(next.brokerEpoch).toBe(after.brokerEpoch);
      expect(clock.monotonicMs()).toBe(0); // it did not wait for the old registration to lapse
      // and the old incarnation, were it still running, finds its id taken and stops
      await heartbeat();
      expect(taken).toEqual([expect.stringMatching(/now registered by another broker process/)]);
    } finally {
      await next.onModuleDestroy();
    }
  });

  it("waits for another directory's registration of its id to lapse, then refuses to start", async () => {
    const otherDir = await fsp.mkdtemp(join(tmpdir(), 'brook-registration-other-'));
    const other = new ControllerElection(
      store,
      loadBrokerConfig({ BROOK_DATA_DIR: otherDir, BROOK_BROKER_ID: '1', BROOK_BROKER_HEARTBEAT_INTERVAL_MS: '500' }),
      clock,
    );
    // time passes while the broker holding the id keeps renewing its registration
    const sleeping = setInterval(() => {
      clock.advance(1_000);
      void heartbeat();
    }, 1);
    try {
      await expect(other.start()).rejects.toThrow(/already registered by a live broker/);
    } finally {
      clearInterval(sleeping);
      await fsp.rm(otherDir, { recursive: true, force: true });
    }
  });
});
