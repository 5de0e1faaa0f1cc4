import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ManualClock } from '../common/clock.js';
import { CoordinationStoreCorruptError, CoordinationStoreFailedError } from './coordination-errors.js';
import { COORDINATION_VALUE_BYTES_MAX } from './coordination-limits.js';
import { describeCoordinationStoreContract } from './coordination-store.contract.js';
import { EmbeddedCoordinationStore, type EmbeddedStoreOptions } from './embedded-store.js';
import { storeFilePath, TEMP_SUFFIX } from './store-file.js';

const OPTIONS: EmbeddedStoreOptions = { sweepIntervalMs: 5 };

function makeDataDir(): Promise<string> {
  return fsp.mkdtemp(join(tmpdir(), 'brook-coordination-'));
}

describeCoordinationStoreContract('embedded', async () => {
  const dataDir = await makeDataDir();
  const clock = new ManualClock();
  let store = await EmbeddedCoordinationStore.open(dataDir, clock, OPTIONS);
  return {
    store,
    advanceMs: (ms) => clock.advance(ms),
    reopen: async () => {
      await store.close();
      store = await EmbeddedCoordinationStore.open(dataDir, clock, OPTIONS);
      return store;
    },
    cleanup: async () => {
      await store.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
});

describe('EmbeddedCoordinationStore', () => {
  let dataDir: string;
  let file: string;
  let clock: ManualClock;
  let store: EmbeddedCoordinationStore;

  beforeEach(async () => {
    dataDir = await makeDataDir();
    file = storeFilePath(dataDir);
    clock = new ManualClock();
    store = await EmbeddedCoordinationStore.open(dataDir, clock, OPTIONS);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  async function reopen(): Promise<EmbeddedCoordinationStore> {
    await store.close();
    store = await EmbeddedCoordinationStore.open(dataDir, clock, OPTIONS);
    return store;
  }

  async function readFileJson(): Promise<{ entries: unknown[]; counters: unknown[] }> {
    return JSON.parse(await fsp.readFile(file, 'utf8'));
  }

  /** Counts the renames that replace store.json: one per completed atomic write. */
  function countStoreWrites(): { readonly count: number } {
    const rename = vi.spyOn(fsp, 'rename');
    return {
      get count() {
        return rename.mock.calls.filter(([, target]) => target === file).length;
      },
    };
  }

  describe('persistence', () => {
    it('starts empty without a file, and writes none until something persistent changes', async () => {
      await store.acquireLease('controller', 'token', 1000);
      await expect(fsp.access(file)).rejects.toThrow(/ENOENT/);
      expect(await store.list('')).toEqual([{ key: 'controller', value: 'token', version: 1 }]);
    });

    it('has every mutation on disk by the time its call resolves', async () => {
      await store.put('topics/a', 'config');
      expect(await readFileJson()).toMatchObject({ entries: [{ key: 'topics/a', value: 'config', version: 1 }] });
      await store.raiseCounterAbove('epoch', 4);
      expect(await readFileJson()).toMatchObject({ counters: [{ key: 'epoch', value: 5 }] });
      await store.delete('topics/a');
      expect(await readFileJson()).toMatchObject({ entries: [] });
    });

    it('reloads exactly the persistent state after a reopen', async () => {
      await store.put('topics/b', 'b');
      await store.put('topics/a', 'a1');
      await store.put('topics/a', 'a2');
      await store.put('topics/gone', 'x');
      await store.delete('topics/gone');
      await store.increment('broker-epoch');
      const before = await store.list('');
      await reopen();
      expect(await store.list('')).toEqual(before);
      expect(await store.readCounter('broker-epoch')).toBe(1);
    });

    it('does not persist TTL keys: leases and registrations die with the process', async () => {
      await store.acquireLease('controller', 'token', 60_000);
      await store.put('brokers/1', 'registration', { ttlMs: 60_000 });
      await store.put('was-persistent', 'x');
      await store.put('was-persistent', 'y', { ttlMs: 60_000 });
      await store.put('kept', 'z');
      const text = await fsp.readFile(file, 'utf8');
      expect(text).not.toContain('controller');
      expect(text).not.toContain('brokers/1');
      expect(text).not.toContain('was-persistent');
      await reopen();
      expect(await store.list('')).toEqual([{ key: 'kept', value: 'z', version: 1 }]);
    });

    it('removes a persistent key from disk when a renewal gives it a TTL', async () => {
      await store.put('k', 'token');
      await store.renewLease('k', 'token', 60_000);
      await reopen();
      expect(await store.get('k')).toBeNull();
    });

    it('removes a stale temporary file on open', async () => {
      await store.put('k', 'v');
      await store.close();
      await fsp.writeFile(file + TEMP_SUFFIX, 'half a write');
      await reopen();
      await expect(fsp.access(file + TEMP_SUFFIX)).rejects.toThrow(/ENOENT/);
      expect(await store.get('k')).toEqual({ value: 'v', version: 1 });
    });
  });

  describe('a corrupt file', () => {
    const corruptions: Array<[string, string]> = [
      ['garbage', 'not json at all'],
      ['a truncated write', '{"format":"brook-coordination-store","formatVersion":1,"entries":[{"key":"a"'],
      ['another format', '{"format":"something-else","formatVersion":1,"entries":[],"counters":[]}'],
      ['a future format version', '{"format":"brook-coordination-store","formatVersion":2,"entries":[],"counters":[]}'],
      [
        'a version 0 entry',
        '{"format":"brook-coordination-store","formatVersion":1,"entries":[{"key":"a","value":"v","version":0}],"counters":[]}',
      ],
      [
        'a negative counter',
        '{"format":"brook-coordination-store","formatVersion":1,"entries":[],"counters":[{"key":"c","value":-3}]}',
      ],
      [
        'a duplicate key',
        '{"format":"brook-coordination-store","formatVersion":1,"entries":[{"key":"a","value":"v","version":1},{"key":"a","value":"w","version":2}],"counters":[]}',
      ],
    ];

    it.each(corruptions)('stops the open with an error naming the file: %s', async (_, text) => {
      await store.close();
      await fsp.writeFile(file, text);
      const opening = EmbeddedCoordinationStore.open(dataDir, clock, OPTIONS);
      await expect(opening).rejects.toThrow(CoordinationStoreCorruptError);
      await expect(opening).rejects.toThrow(file);
      expect(await fsp.readFile(file, 'utf8')).toBe(text);
    });
  });

  describe('write coalescing', () => {
    it('writes the mutations of one tick in one file write, and awaited ones in one each', async () => {
      const writes = countStoreWrites();
      const results = await Promise.all([
        store.put('a', '1'),
        store.put('b', '2'),
        store.put('a', '3', { expectedVersion: 1 }),
        store.increment('epoch'),
        store.raiseCounterAbove('epoch', 10),
        store.delete('b'),
      ]);
      expect(results).toEqual([
        { ok: true, version: 1 },
        { ok: true, version: 1 },
        { ok: true, version: 2 },
        1,
        11,
        true,
      ]);
      expect(writes.count).toBe(1);
      await store.put('c', '4');
      await store.increment('epoch');
      expect(writes.count).toBe(3);
      await reopen();
      expect(await store.list('')).toEqual([
        { key: 'a', value: '3', version: 2 },
        { key: 'c', value: '4', version: 1 },
      ]);
      expect(await store.readCounter('epoch')).toBe(12);
    });

    it('does not write for TTL-only changes, failed conditions or refused values', async () => {
      const writes = countStoreWrites();
      await store.acquireLease('lease', 'token', 1000);
      await store.renewLease('lease', 'token', 1000);
      await store.releaseLease('lease', 'token');
      await store.put('eph', 'v', { ttlMs: 1000 });
      await store.put('k', 'v', { expectedVersion: 3 });
      await store.delete('absent');
      await expect(store.put('big', 'v'.repeat(COORDINATION_VALUE_BYTES_MAX + 1))).rejects.toThrow(/over the limit/);
      expect(writes.count).toBe(0);
    });

    it('resolves a mutation, and reads after it, only once the file write completes', async () => {
      let releaseRename!: () => void;
      const renameGate = new Promise<void>((resolve) => (releaseRename = resolve));
      const realRename = fsp.rename.bind(fsp);
      vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
        await renameGate;
        return realRename(from, to);
      });
      let putDone = false;
      let getDone = false;
      const putting = store.put('k', 'v').then(() => (putDone = true));
      const getting = store.get('k').then(() => (getDone = true));
      try {
        await sleep(50);
        expect(putDone).toBe(false);
        expect(getDone).toBe(false);
      } finally {
        releaseRename();
      }
      await Promise.all([putting, getting]);
      expect(await readFileJson()).toMatchObject({ entries: [{ key: 'k', value: 'v', version: 1 }] });
    });
  });

  describe('a failed write', () => {
    it('fails the calls it covered and every later one; what was durable survives a reopen', async () => {
      await store.put('k', 'durable');
      vi.spyOn(fsp, 'rename').mockRejectedValueOnce(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
      await expect(store.put('k', 'lost')).rejects.toThrow(CoordinationStoreFailedError);
      await expect(store.get('k')).rejects.toThrow(/disk full/);
      await expect(store.increment('epoch')).rejects.toThrow(CoordinationStoreFailedError);
      await reopen();
      expect(await store.get('k')).toEqual({ value: 'durable', version: 1 });
    });
  });

  describe('expiry', () => {
    it('expires on the injected monotonic clock, not on the wall clock', async () => {
      await store.put('eph', 'v', { ttlMs: 1000 });
      clock.advance(999);
      expect(await store.get('eph')).toEqual({ value: 'v', version: 1 });
      clock.advance(1);
      expect(await store.get('eph')).toBeNull();
    });
  });

  describe('listings', () => {
    /** Counts the walks over every key of the store that a listing makes when it has none to reuse. */
    function countWalks(): { readonly count: number } {
      const keys = vi.spyOn((store as unknown as { entries: Map<string, unknown> }).entries, 'keys');
      return {
        get count() {
          return keys.mock.calls.length;
        },
      };
    }

    it('lists a prefix again without walking the store until a key under it comes, goes or changes', async () => {
      await store.put('a/2', 'x');
      await store.put('a/1', 'y');
      await store.put('b/1', 'z');
      const walks = countWalks();
      expect(await store.list('a/')).toEqual([
        { key: 'a/1', value: 'y', version: 1 },
        { key: 'a/2', value: 'x', version: 1 },
      ]);
      const first = await store.list('a/');
      expect(walks.count).toBe(1);
      // callers get arrays of their own
      first.pop();
      await store.put('b/2', 'other prefix');
      expect(await store.list('a/')).toHaveLength(2);
      expect(walks.count).toBe(1);
      await store.put('a/2', 'x2');
      expect(await store.list('a/')).toEqual([
        { key: 'a/1', value: 'y', version: 1 },
        { key: 'a/2', value: 'x2', version: 2 },
      ]);
      await store.put('a/0', 'new');
      expect((await store.list('a/')).map((entry) => entry.key)).toEqual(['a/0', 'a/1', 'a/2']);
      await store.delete('a/1');
      expect((await store.list('a/')).map((entry) => entry.key)).toEqual(['a/0', 'a/2']);
      expect(walks.count).toBe(4);
    });

    it('walks every time for a prefix holding a key with a TTL, whose expiry is decided at the read', async () => {
      await store.put('r/1', 'persistent');
      await store.put('r/2', 'lease', { ttlMs: 1000 });
      expect(await store.list('r/')).toHaveLength(2);
      clock.advance(1000);
      expect((await store.list('r/')).map((entry) => entry.key)).toEqual(['r/1']);
    });
  });

  describe('watch listeners', () => {
    it('keeps telling the other listeners when one throws, and reports the error', async () => {
      const failures: unknown[] = [];
      await store.close();
      store = await EmbeddedCoordinationStore.open(dataDir, clock, {
        ...OPTIONS,
        onListenerError: (error) => failures.push(error),
      });
      const events: string[] = [];
      store.watch('', () => {
        throw new Error('listener bug');
      });
      store.watch('', (event) => events.push(event.type));
      await store.put('k', 'v');
      await sleep(10);
      expect(events).toEqual(['put']);
      expect(failures).toEqual([new Error('listener bug')]);
    });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
