import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ADMIN_PLANS_PREFIX, CONTROLLER_EPOCH_KEY } from '../coordination/cluster-keys.js';
import { CoordinationFencedError } from '../coordination/coordination-errors.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import { type AdminPlan, executePlan, resumePlans } from './admin-plans.js';
import { epochFence } from './epoch-fence.js';

const plan: AdminPlan = {
  description: 'create topic t',
  writes: [
    { key: 'brook/topic-configs/t', value: '{}' },
    { key: 'brook/partition-state/t/0', value: '{"leader":1}' },
    { key: 'brook/topics/t', value: '{"name":"t"}' },
    { key: 'brook/old', value: null },
  ],
};

describe('admin plans', () => {
  let dataDir: string;
  let store: CoordinationStore;

  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(join(tmpdir(), 'brook-plans-'));
    store = await EmbeddedCoordinationStore.open(dataDir);
    await store.put('brook/old', 'x');
  });

  afterEach(async () => {
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('applies every write in order and leaves no plan behind', async () => {
    const epoch = await store.increment(CONTROLLER_EPOCH_KEY);
    await executePlan(store, plan, epochFence(epoch));
    expect((await store.list('brook/')).map((entry) => entry.key)).toEqual([
      'brook/partition-state/t/0',
      'brook/topic-configs/t',
      'brook/topics/t',
    ]);
  });

  it('lets the next controller finish a plan its predecessor left half-done', async () => {
    const first = await store.increment(CONTROLLER_EPOCH_KEY);
    // The first controller stored the plan and made one write, then died.
    await store.put(`${ADMIN_PLANS_PREFIX}p1`, JSON.stringify(plan), { fence: epochFence(first) });
    await store.put(plan.writes[0].key, plan.writes[0].value!, { fence: epochFence(first) });
    const second = await store.raiseCounterAbove(CONTROLLER_EPOCH_KEY, first);
    await expect(store.put(plan.writes[1].key, 'late', { fence: epochFence(first) })).rejects.toThrow(
      CoordinationFencedError,
    );

    expect(await resumePlans(store, epochFence(second))).toEqual(['create topic t']);
    expect(await store.get('brook/topics/t')).toEqual({ value: '{"name":"t"}', version: 1 });
    expect(await store.get('brook/partition-state/t/0')).toEqual({ value: '{"leader":1}', version: 1 });
    expect(await store.get('brook/old')).toBeNull();
    expect(await store.list(ADMIN_PLANS_PREFIX)).toEqual([]);
    expect(await resumePlans(store, epochFence(second))).toEqual([]);
  });

  it('applies a run of partition states together, after the write before it and before the write after it', async () => {
    const epoch = await store.increment(CONTROLLER_EPOCH_KEY);
    const states = [0, 1, 2].map((p) => ({ key: `brook/partition-state/t/${p}`, value: '{}' }));
    const events: string[] = [];
    let inFlight = 0;
    let inFlightMax = 0;
    const recording = new Proxy(store, {
      get(target, property, receiver) {
        const original = Reflect.get(target, property, receiver) as unknown;
        if ((property !== 'put' && property !== 'delete') || typeof original !== 'function') return original;
        return async (key: string, ...rest: unknown[]) => {
          events.push(`start ${key}`);
          inFlightMax = Math.max(inFlightMax, ++inFlight);
          try {
            return await (original as (...args: unknown[]) => Promise<unknown>).call(target, key, ...rest);
          } finally {
            inFlight--;
            events.push(`end ${key}`);
          }
        };
      },
    });
    const writes = [{ key: 'brook/topic-configs/t', value: '{}' }, ...states, { key: 'brook/topics/t', value: '{}' }];
    await executePlan(recording, { description: 'create topic t', writes }, epochFence(epoch));

    const body = events.filter((event) => !event.includes(ADMIN_PLANS_PREFIX));
    expect(body.slice(0, 2)).toEqual(['start brook/topic-configs/t', 'end brook/topic-configs/t']);
    expect(body.slice(2, 5).sort()).toEqual(states.map((state) => `start ${state.key}`).sort());
    expect(body.slice(5, 8).sort()).toEqual(states.map((state) => `end ${state.key}`).sort());
    expect(body.slice(8)).toEqual(['start brook/topics/t', 'end brook/topics/t']);
    expect(inFlightMax).toBe(states.length);
    expect(await store.list('brook/partition-state/')).toHaveLength(states.length);
  });
});
