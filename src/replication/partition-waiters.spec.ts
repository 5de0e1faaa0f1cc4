import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { PartitionWaiters, WaiterBudget } from './partition-waiters.js';

describe('PartitionWaiters', () => {
  it("resumes a waiter's caller in the first reaction after the wake-up", async () => {
    const waiters = new PartitionWaiters(new ManualClock());
    const order: string[] = [];
    const waiting = waiters.wait('t-0', 4, 60_000).then(() => order.push('woken'));
    waiters.notify('t-0', 5);
    order.push('notified');
    await Promise.resolve(); // one reaction
    expect(order).toEqual(['notified', 'woken']);
    await waiting;
  });

  it('wakes only the waiters below the offset, and each once', async () => {
    const waiters = new PartitionWaiters(new ManualClock());
    const woken: number[] = [];
    const low = waiters.wait('t-0', 3, 60_000).then(() => woken.push(3));
    const high = waiters.wait('t-0', 9, 60_000).then(() => woken.push(9));
    waiters.notify('t-0', 5);
    waiters.notify('t-0', 5);
    await low;
    expect(woken).toEqual([3]);
    expect(waiters.parked).toBe(1);
    waiters.notify('t-0', 10);
    await high;
    expect(woken).toEqual([3, 9]);
    expect(waiters.parked).toBe(0);
  });

  it("forgets a partition's set once its last waiter leaves, however it leaves", async () => {
    const clock = new ManualClock();
    const waiters = new PartitionWaiters(clock, new WaiterBudget(2));
    const abort = new AbortController();
    const notified = waiters.wait('a-0', 0, 60_000);
    const timedOut = waiters.wait('b-0', 0, 1_000);
    expect(waiters.partitionsWaitedOn).toBe(2);
    // the budget is full: the wait returns at once and parks nothing
    await waiters.wait('c-0', 0, 60_000, abort.signal);
    // and so does a wait without time, or with its signal aborted
    await waiters.wait('d-0', 0, 0);
    abort.abort();
    await waiters.wait('e-0', 0, 60_000, abort.signal);
    expect(waiters.partitionsWaitedOn).toBe(2);
    waiters.notify('a-0', 1);
    await notified;
    expect(waiters.partitionsWaitedOn).toBe(1);
    clock.advance(1_000);
    await timedOut;
    expect(waiters.partitionsWaitedOn).toBe(0);
    expect(waiters.parked).toBe(0);
  });

  it('wakes a waiter whose signal aborts, and drops its set', async () => {
    const waiters = new PartitionWaiters(new ManualClock());
    const abort = new AbortController();
    const waiting = waiters.wait('t-0', 0, 60_000, abort.signal);
    abort.abort();
    await waiting;
    expect(waiters.partitionsWaitedOn).toBe(0);
    expect(waiters.parked).toBe(0);
  });
});
