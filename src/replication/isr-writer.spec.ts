import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { brokerKey, partitionStateKey } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { PartitionState } from '../topic/cluster-metadata.js';
import { writeIsr } from './isr-writer.js';

let dataDir: string;
let store: EmbeddedCoordinationStore;
const key = partitionStateKey('t', 0);

beforeEach(async () => {
  dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-isr-'));
  store = await EmbeddedCoordinationStore.open(dataDir, new ManualClock(), { sweepIntervalMs: 5 });
  const state: PartitionState = {
    leader: 1,
    leaderEpoch: 4,
    isr: [1, 2, 3],
    isrBrokerEpochs: { 1: 10, 2: 20, 3: 30 },
    controllerEpoch: 7,
  };
  await store.put(key, JSON.stringify(state));
});

afterEach(async () => {
  await store.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

const request = {
  topic: 't',
  partition: 0,
  leaderId: 1,
  leaderEpoch: 4,
  currentIsr: [1, 2, 3],
  change: { kind: 'shrink' as const, isr: [1, 2] },
};

/** Broker 4 registered as incarnation `brokerEpoch`. */
async function register4(brokerEpoch: number): Promise<void> {
  await store.put(
    brokerKey(4),
    JSON.stringify({ brokerId: 4, url: 'http://b4', brokerEpoch, highestControllerEpochSeen: 0 }),
  );
}

describe('writeIsr', () => {
  it('replaces the ISR compare-and-set, keeping leader, epochs and controller epoch', async () => {
    expect(await writeIsr(store, request)).toEqual({ ok: true, version: 2 });
    expect(JSON.parse((await store.get(key))!.value)).toEqual({
      leader: 1,
      leaderEpoch: 4,
      isr: [1, 2],
      isrBrokerEpochs: { 1: 10, 2: 20 },
      controllerEpoch: 7,
    });
  });

  it('admits a follower as the incarnation whose fetches caught up, while that incarnation is registered', async () => {
    await register4(41);
    const expand = { kind: 'expand' as const, replica: 4, brokerEpoch: 41, isr: [1, 2, 3, 4] };
    expect(await writeIsr(store, { ...request, change: expand })).toEqual({ ok: true, version: 2 });
    expect(JSON.parse((await store.get(key))!.value)).toMatchObject({
      isr: [1, 2, 3, 4],
      isrBrokerEpochs: { 1: 10, 2: 20, 3: 30, 4: 41 },
    });
  });

  it('refuses to admit an incarnation that is not the registered one (it restarted, or its registration lapsed)', async () => {
    const expand = { kind: 'expand' as const, replica: 4, brokerEpoch: 41, isr: [1, 2, 3, 4] };
    expect(await writeIsr(store, { ...request, change: expand })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is not registered/),
    });
    await register4(42);
    expect(await writeIsr(store, { ...request, change: expand })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/registered as incarnation 42/),
    });
    expect((await store.get(key))!.version).toBe(1);
  });

  it('refuses when another leader or epoch was elected, or the ISR is not the one the leader believes', async () => {
    expect(await writeIsr(store, { ...request, leaderEpoch: 3 })).toMatchObject({ ok: false });
    expect(await writeIsr(store, { ...request, leaderId: 2 })).toMatchObject({ ok: false });
    expect(await writeIsr(store, { ...request, currentIsr: [1, 2] })).toMatchObject({ ok: false });
    expect((await store.get(key))!.version).toBe(1);
  });

  it('refuses when the state changed between its read and its write (the version moved)', async () => {
    const racing = {
      get: (k: string) => store.get(k),
      put: async (k: string, value: string, options: Parameters<EmbeddedCoordinationStore['put']>[2]) => {
        // the controller writes first: a new leader epoch lands between the leader's read and its write
        await store.put(k, JSON.stringify({ leader: 2, leaderEpoch: 5, isr: [2, 3], controllerEpoch: 8 }));
        return store.put(k, value, options);
      },
    } as unknown as EmbeddedCoordinationStore;
    expect(await writeIsr(racing, request)).toMatchObject({ ok: false });
    expect(JSON.parse((await store.get(key))!.value)).toMatchObject({ leader: 2, leaderEpoch: 5 });
  });
});
