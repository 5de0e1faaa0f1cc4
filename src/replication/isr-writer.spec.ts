import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { partitionStateKey } from '../coordination/cluster-keys.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { PartitionState } from '../topic/cluster-metadata.js';
import { writeIsr } from './isr-writer.js';

let dataDir: string;
let store: EmbeddedCoordinationStore;
const key = partitionStateKey('t', 0);

beforeEach(async () => {
  dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-isr-'));
  store = await EmbeddedCoordinationStore.open(dataDir, new ManualClock(), { sweepIntervalMs: 5 });
  const state: PartitionState = { leader: 1, leaderEpoch: 4, isr: [1, 2, 3], controllerEpoch: 7 };
  await store.put(key, JSON.stringify(state));
});

afterEach(async () => {
  await store.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

const request = { topic: 't', partition: 0, leaderId: 1, leaderEpoch: 4, currentIsr: [1, 2, 3], nextIsr: [1, 2] };

describe('writeIsr', () => {
  it('replaces the ISR compare-and-set, keeping leader, epochs and controller epoch', async () => {
    expect(await writeIsr(store, request)).toEqual({ ok: true, version: 2 });
    expect(JSON.parse((await store.get(key))!.value)).toEqual({
      leader: 1,
      leaderEpoch: 4,
      isr: [1, 2],
      controllerEpoch: 7,
    });
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
