import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import type { WatchListener } from './coordination-store.js';
import { PrefixReconciler } from './prefix-reconciler.js';

/** The one thing the reconciler asks of a store: watches, fired by the test. */
class FakeWatches {
  readonly listeners = new Map<string, WatchListener>();
  watch(prefix: string, listener: WatchListener): () => void {
    this.listeners.set(prefix, listener);
    return () => void this.listeners.delete(prefix);
  }
  fire(prefix: string): void {
    this.listeners.get(prefix)?.({ type: 'put', key: `${prefix}x` });
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function setUp(reload: () => Promise<void> = async () => undefined) {
  const clock = new ManualClock();
  const store = new FakeWatches();
  const errors: string[] = [];
  let reloads = 0;
  const reconciler = new PrefixReconciler(store, 'brook/things/', {
    reload: () => {
      reloads++;
      return reload();
    },
    intervalMs: 5_000,
    clock,
    onError: (error) => errors.push(error.message),
  });
  return { clock, store, errors, reconciler, reloads: () => reloads };
}

describe('PrefixReconciler', () => {
  it('loads once at start, then reloads on each watch event under its prefix', async () => {
    const { store, reconciler, reloads } = setUp();
    await reconciler.start();
    expect(reloads()).toBe(1);
    expect([...store.listeners.keys()]).toEqual(['brook/things/']);
    store.fire('brook/things/');
    store.fire('brook/things/');
    expect(reloads()).toBe(3);
  });

  it('reloads every interval on the clock even when no event comes (a lost event is caught up)', async () => {
    const { clock, reconciler, reloads } = setUp();
    await reconciler.start();
    clock.advance(4_999);
    expect(reloads()).toBe(1);
    clock.advance(1);
    expect(reloads()).toBe(2);
    clock.advance(10_000);
    expect(reloads()).toBe(4);
  });

  it('reports a failed reload after start and goes on reconciling', async () => {
    let failing = false;
    const { clock, store, errors, reconciler, reloads } = setUp(async () => {
      if (failing) throw new Error('store unreachable');
    });
    await reconciler.start();
    failing = true;
    store.fire('brook/things/');
    clock.advance(5_000);
    await flush();
    expect(errors).toEqual(['store unreachable', 'store unreachable']);
    failing = false;
    clock.advance(5_000);
    await flush();
    expect(reloads()).toBe(4);
    expect(errors).toHaveLength(2);
  });

  it("leaves the first load's failure to the caller, with nothing watched or scheduled", async () => {
    const { clock, store, errors, reconciler } = setUp(async () => {
      throw new Error('no store yet');
    });
    await expect(reconciler.start()).rejects.toThrow('no store yet');
    expect(store.listeners.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    expect(errors).toEqual([]);
  });

  it('stops watching and cancels its timer on stop', async () => {
    const { clock, store, reconciler, reloads } = setUp();
    await reconciler.start();
    expect(clock.pendingTimers).toBe(1);
    reconciler.stop();
    expect(store.listeners.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(60_000);
    store.fire('brook/things/');
    expect(reloads()).toBe(1);
    reconciler.stop();
  });
});
