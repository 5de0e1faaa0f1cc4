import { describe, expect, it } from 'vitest';
import { ManualClock, sleep } from './clock.js';

describe('ManualClock timers', () => {
  it('fires timers in due order as advance passes them, reading each due time', () => {
    const clock = new ManualClock(1_000, 0);
    const fired: string[] = [];
    clock.setTimer(30, () => fired.push(`b@${clock.monotonicMs()}`));
    clock.setTimer(10, () => fired.push(`a@${clock.monotonicMs()}`));
    clock.setTimer(31, () => fired.push('late'));
    clock.advance(30);
    expect(fired).toEqual(['a@10', 'b@30']);
    expect(clock.nowMs()).toBe(1_030);
    expect(clock.pendingTimers).toBe(1);
  });

  it('fires timers set by callbacks when they fall due within the same advance', () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    const tick = () => {
      fired.push(clock.monotonicMs());
      clock.setTimer(10, tick);
    };
    clock.setTimer(10, tick);
    clock.advance(35);
    expect(fired).toEqual([10, 20, 30]);
    expect(clock.monotonicMs()).toBe(35);
  });

  it('does not fire a cancelled timer', () => {
    const clock = new ManualClock();
    let fired = false;
    const cancel = clock.setTimer(5, () => (fired = true));
    cancel();
    clock.advance(10);
    expect(fired).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('sleep resolves on the timer or at abort', async () => {
    const clock = new ManualClock();
    let done = false;
    const slept = sleep(clock, 100).then(() => (done = true));
    clock.advance(99);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await slept;
    const abort = new AbortController();
    const aborted = sleep(clock, 1_000, abort.signal);
    abort.abort();
    await aborted;
    expect(clock.pendingTimers).toBe(0);
  });
});
