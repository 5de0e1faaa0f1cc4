import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import { EffectExecutor } from './effect-executor.js';
import { effects } from './partition-effects.js';
import type { Partition } from './partition.js';
import { OffsetWaiters, PartitionWaiters, WaiterBudget } from './partition-waiters.js';

const KEY = 'orders-0';

function setUp() {
  const clock = new ManualClock();
  const followerFetches = new PartitionWaiters(clock);
  const readers = new PartitionWaiters(clock);
  const acks = new OffsetWaiters(clock, new WaiterBudget());
  const executor = new EffectExecutor({
    store: {} as CoordinationStore,
    readers,
    followerFetches,
    progress: new OffsetWaiters(clock, new WaiterBudget()),
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    onIsrChanged: () => undefined,
    reloadMetadata: () => undefined,
  });
  const partition = { key: KEY, acks, leader: null } as unknown as Partition;
  return { followerFetches, readers, acks, executor, partition };
}

/** Whether `promise` has settled, after the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

const nextCheckPhase = () => new Promise((resolve) => setImmediate(resolve));

describe('EffectExecutor', () => {
  it("wakes a follower's long poll at the end of the loop turn of the leader's appends, with all of them", async () => {
    const { followerFetches, executor, partition } = setUp();
    const parked = followerFetches.wait(KEY, 10, 60_000);
    const past = followerFetches.wait(KEY, 30, 60_000);
    executor.execute(partition, effects({ leaderEndOffset: 20 }));
    // not at once: another I/O callback of this turn may append more for the same answer
    expect(await settled(parked)).toBe(false);
    executor.execute(partition, effects({ leaderEndOffset: 25 }));
    await nextCheckPhase();
    expect(await settled(parked)).toBe(true);
    expect(await settled(past)).toBe(false); // 25 does not pass 30
    executor.execute(partition, effects({ leaderEndOffset: 31 }));
    await nextCheckPhase();
    expect(await settled(past)).toBe(true);
    expect(followerFetches.parked).toBe(0);
  });

  it('wakes readers and acks=all requests at once, and every waiter at once when the role is given up', async () => {
    const { followerFetches, readers, acks, executor, partition } = setUp();
    const read = readers.wait(KEY, 5, 60_000);
    const produced = acks.wait(5, 60_000);
    executor.execute(partition, effects({ highWatermark: 6 }));
    expect(await settled(read)).toBe(true);
    expect(await settled(produced)).toBe(true);
    const fetched = followerFetches.wait(KEY, 10, 60_000);
    executor.execute(partition, effects({ leaderEndOffset: 11 }));
    executor.execute(partition, effects({ released: true }));
    expect(await settled(fetched)).toBe(true);
    await nextCheckPhase(); // the wake scheduled before the release finds nobody
    expect(followerFetches.parked).toBe(0);
  });

  it('schedules nothing when no follower is parked', async () => {
    const { followerFetches, executor, partition } = setUp();
    executor.execute(partition, effects({ leaderEndOffset: 20 }));
    // a fetch after the append finds the log end past its offset and does not park for it; one at the log end does
    const atEnd = followerFetches.wait(KEY, 20, 60_000);
    await nextCheckPhase();
    expect(await settled(atEnd)).toBe(false);
  });
});
