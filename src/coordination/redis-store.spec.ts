// The coordination contract against a real redis-server (no mocks), plus what only the Redis adapter has: URLs,
// a server restart, several stores on one server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RedisServerProcess } from '../local-cluster/redis-server-process.js';
import { describeCoordinationStoreContract } from './coordination-store.contract.js';
import type { WatchEvent } from './coordination-store.js';
import { RedisCoordinationStore, type RedisStoreOptions } from './redis-store.js';

const OPTIONS: RedisStoreOptions = { sweepIntervalMs: 20 };
let server: RedisServerProcess;
let namespaceCount = 0;

beforeAll(async () => {
  server = await RedisServerProcess.start();
});

afterAll(async () => {
  await server.stop();
});

/** Each test gets its own namespace on the one server: an empty store. */
function nextNamespace(): string {
  namespaceCount++;
  return `test${namespaceCount}:`;
}

describeCoordinationStoreContract('redis', async () => {
  const namespace = nextNamespace();
  let store = await RedisCoordinationStore.connect(server.url, { ...OPTIONS, namespace });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await RedisCoordinationStore.connect(server.url, { ...OPTIONS, namespace });
      return store;
    },
    cleanup: async () => {
      await store.close();
    },
  };
});

describe('RedisCoordinationStore', () => {
  it('tells watchers of one store about the writes of another', async () => {
    const namespace = nextNamespace();
    const writer = await RedisCoordinationStore.connect(server.url, { ...OPTIONS, namespace });
    const watcher = await RedisCoordinationStore.connect(server.url, { ...OPTIONS, namespace });
    try {
      const events: WatchEvent[] = [];
      const stop = watcher.watch('brokers/', (event) => events.push(event));
      await waitFor(async () => (await watcher.list('')).length === 0);
      await sleep(100);
      await writer.put('brokers/1', 'r', { ttlMs: 200 });
      await waitFor(async () => events.length >= 2);
      expect(events).toEqual([
        { key: 'brokers/1', type: 'put' },
        { key: 'brokers/1', type: 'expire' },
      ]);
      stop();
    } finally {
      await writer.close();
      await watcher.close();
    }
  });

  it('keeps working across a restart of redis-server (empty again without AOF)', async () => {
    const own = await RedisServerProcess.start();
    const store = await RedisCoordinationStore.connect(own.url, OPTIONS);
    try {
      await store.put('topics/a', 'x');
      expect(await store.raiseCounterAbove('epoch', 5)).toBe(6);
      await own.restart();
      await waitFor(async () => (await store.get('topics/a').catch(() => 'down')) === null);
      expect(await store.readCounter('epoch')).toBe(0);
      expect(await store.put('topics/a', 'y', { expectedVersion: 0 })).toEqual({ ok: true, version: 1 });
      expect(await store.raiseCounterAbove('epoch', 6)).toBe(7);
    } finally {
      await store.close();
      await own.stop();
    }
  });

  it('waits for a Redis that answers slowly at start-up (paused past a command timeout) instead of giving up', async () => {
    const own = await RedisServerProcess.start();
    try {
      await own.kill('SIGSTOP');
      setTimeout(() => void own.kill('SIGCONT'), 700);
      const store = await RedisCoordinationStore.connect(own.url, { ...OPTIONS, commandTimeoutMs: 200 });
      expect(await store.get('topics/a')).toBeNull();
      await store.close();
    } finally {
      await own.kill('SIGCONT');
      await own.stop();
    }
  });

  it('gives up on a Redis that stays silent past the start-up wait', async () => {
    const own = await RedisServerProcess.start();
    try {
      await own.kill('SIGSTOP');
      await expect(
        RedisCoordinationStore.connect(own.url, { ...OPTIONS, commandTimeoutMs: 100, startupWaitMs: 300 }),
      ).rejects.toThrow(/cannot reach Redis .*Command timed out/);
    } finally {
      await own.kill('SIGCONT');
      await own.stop();
    }
  });

  it('refuses a URL it cannot reach, naming it without the password', async () => {
    await expect(RedisCoordinationStore.connect('redis://:secret@127.0.0.1:1')).rejects.toThrow(
      /cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/,
    );
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}
