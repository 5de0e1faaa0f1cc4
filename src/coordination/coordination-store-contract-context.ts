// The shared part of the CoordinationStore contract (coordination-store.contract.ts): the fixture an adapter's
// spec hands in, the TTLs the tests use, and the per-test context: a fresh store before each test, cleaned up after
// it, and the ways to let time pass (the store's fake clock when the fixture has one, else real time with short
// TTLs) and to record a watch's events.
import { afterEach, beforeEach } from 'vitest';
import type { CoordinationStore, WatchEvent } from './coordination-store.js';

export interface CoordinationStoreFixture {
  store: CoordinationStore;
  advanceMs?: (ms: number) => void;
  reopen?: () => Promise<CoordinationStore>;
  cleanup: () => Promise<void>;
}

/** A TTL long enough to act within in real time, short enough to wait out. */
export const TTL_MS = 400;
const REAL_TIME_SLACK_MS = 200;
const EVENT_WAIT_MS_MAX = 5_000;

export interface ContractContext {
  /** The current test's fixture and its store. */
  readonly fixture: CoordinationStoreFixture;
  readonly store: CoordinationStore;
  /** Lets part of a TTL pass: on the fake clock when there is one, else in real time. */
  elapse(ms: number): Promise<void>;
  /** Lets a whole TTL run out (plus slack in real time, as expiry there is not to the millisecond). */
  outlive(ttlMs: number): Promise<void>;
  /** Watches `prefix`, keeping every event. */
  record(prefix: string): { events: WatchEvent[]; stop: () => void };
}

/** Registers the hooks that give each test of the enclosing describe a fresh store; returns their context. */
export function contractContext(makeStore: () => Promise<CoordinationStoreFixture>): ContractContext {
  let fixture: CoordinationStoreFixture | undefined;
  beforeEach(async () => {
    fixture = await makeStore();
  });
  afterEach(async () => {
    await fixture?.cleanup();
  });
  const current = (): CoordinationStoreFixture => {
    if (fixture === undefined) throw new Error('no store outside a test');
    return fixture;
  };
  return {
    get fixture() {
      return current();
    },
    get store() {
      return current().store;
    },
    async elapse(ms) {
      const { advanceMs } = current();
      if (advanceMs) advanceMs(ms);
      else await sleep(ms);
    },
    async outlive(ttlMs) {
      const { advanceMs } = current();
      if (advanceMs) advanceMs(ttlMs);
      else await sleep(ttlMs + REAL_TIME_SLACK_MS);
    },
    record(prefix) {
      const events: WatchEvent[] = [];
      const stop = current().store.watch(prefix, (event) => events.push(event));
      return { events, stop };
    },
  };
}

/** Waits in real time until `condition` holds (a watch's events arrive asynchronously); fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = EVENT_WAIT_MS_MAX): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
