// BROOK_REDIS_URL with Redis Sentinel, against real processes: a master, a replica and a Sentinel. The store
// finds the master through the Sentinel and, after the master dies and the Sentinel promotes the replica, keeps
// working against the new master (what it wrote before, once replicated, is still there).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RedisServerProcess } from '../local-cluster/redis-server-process.js';
import { RedisCoordinationStore } from './redis-store.js';

const MASTER_NAME = 'brookmaster';
let master: RedisServerProcess;
let replica: RedisServerProcess;
let sentinel: RedisServerProcess;

/** Waits until the master reports its replica in sync, so that the Sentinel finds it and WAIT can succeed. */
async function replicaOnline(masterPort: number, timeoutMs = 30_000): Promise<void> {
  const client = new Redis({ port: masterPort, lazyConnect: true });
  await client.connect();
  try {
    const deadline = performance.now() + timeoutMs;
    while (!/slave0:.*state=online/.test(await client.info('replication'))) {
      if (performance.now() > deadline) throw new Error('the replica did not come online');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.disconnect();
  }
}

beforeAll(async () => {
  master = await RedisServerProcess.start();
  replica = await RedisServerProcess.start({ replicaOfPort: master.port });
  await replicaOnline(master.port);
  sentinel = await RedisServerProcess.start({
    sentinel: { masterName: MASTER_NAME, masterPort: master.port, downAfterMs: 1_000 },
  });
}, 60_000);

afterAll(async () => {
  await sentinel?.stop();
  await replica?.stop();
  await master?.stop();
});

describe('RedisCoordinationStore through Redis Sentinel', () => {
  it('finds the master, and follows a failover to the promoted replica', async () => {
    const url = `redis+sentinel://127.0.0.1:${sentinel.port}/${MASTER_NAME}`;
    const store = await RedisCoordinationStore.connect(url, { commandTimeoutMs: 1_000 });
    try {
      expect(await store.put('topics/a', 'assignment')).toEqual({ ok: true, version: 1 });
      expect(await store.raiseCounterAbove('epoch', 4)).toBe(5);
      const direct = new Redis({ port: master.port, lazyConnect: true });
      await direct.connect();
      expect(await direct.call('WAIT', '1', '20000')).toBe(1);
      direct.disconnect();

      await master.kill('SIGKILL');
      const deadline = performance.now() + 30_000;
      let value = null;
      while (performance.now() < deadline) {
        value = await store.get('topics/a').catch(() => null);
        if (
          value !== null &&
          (await store.put('after', 'x').then(
            () => true,
            () => false,
          ))
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(value).toEqual({ value: 'assignment', version: 1 });
      expect(await store.get('after')).toEqual({ value: 'x', version: 1 });
      expect(await store.raiseCounterAbove('epoch', 0)).toBe(6);
    } finally {
      await store.close();
    }
  });
});
