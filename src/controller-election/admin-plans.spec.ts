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
});
