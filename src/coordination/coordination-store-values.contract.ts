// The CoordinationStore contract, part one: what the store keeps. Values and their versions, compare-and-set,
// fenced writes, counters, listing, the bounds on keys, values and arguments, and the lifecycle (close, reopen).
// Run through describeCoordinationStoreContract (coordination-store.contract.ts).
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';

import {
  CoordinationFencedError,
  CoordinationLimitError,
  CoordinationStoreClosedError,
} from './coordination-errors.js';
import { COORDINATION_KEY_BYTES_MAX, COORDINATION_VALUE_BYTES_MAX } from './coordination-limits.js';
import type { CoordinationStore } from './coordination-store.js';
import { type ContractContext, TTL_MS } from './coordination-store-contract-context.js';

export function describeStoredValuesContract(context: ContractContext): void {
  const { outlive } = context;
  let store: CoordinationStore;
  beforeEach(() => {
    store = context.store;
  });

  describe('values and versions', () => {
    it('reads null for an absent key', async () => {
      expect(await store.get('absent')).toBeNull();
    });

    it('starts a key at version 1 and adds one per write', async () => {
      expect(await store.put('k', 'a')).toEqual({ ok: true, version: 1 });
      expect(await store.put('k', 'b')).toEqual({ ok: true, version: 2 });
      expect(await store.put('k', 'b')).toEqual({ ok: true, version: 3 });
      expect(await store.get('k')).toEqual({ value: 'b', version: 3 });
    });

    it('keeps keys apart and stores any string value, the empty one included', async () => {
      await store.put('k1', '');
      await store.put('k2', 'ünïcødé ✓ \u{1F600}\n{"json":true}');
      expect(await store.get('k1')).toEqual({ value: '', version: 1 });
      expect(await store.get('k2')).toEqual({ value: 'ünïcødé ✓ \u{1F600}\n{"json":true}', version: 1 });
    });

    it('deletes, and a key created again starts over at version 1', async () => {
      await store.put('k', 'a');
      await store.put('k', 'b');
      expect(await store.delete('k')).toBe(true);
      expect(await store.get('k')).toBeNull();
      expect(await store.delete('k')).toBe(false);
      expect(await store.put('k', 'c')).toEqual({ ok: true, version: 1 });
    });
  });

  describe('compare-and-set', () => {
    it('expectedVersion 0 creates only when absent', async () => {
      expect(await store.put('k', 'a', { expectedVersion: 0 })).toEqual({ ok: true, version: 1 });
      expect(await store.put('k', 'b', { expectedVersion: 0 })).toEqual({ ok: false, currentVersion: 1 });
      expect(await store.get('k')).toEqual({ value: 'a', version: 1 });
    });

    it('expectedVersion N writes only over version N', async () => {
      await store.put('k', 'a');
      expect(await store.put('k', 'b', { expectedVersion: 1 })).toEqual({ ok: true, version: 2 });
      expect(await store.put('k', 'c', { expectedVersion: 1 })).toEqual({ ok: false, currentVersion: 2 });
      expect(await store.put('k', 'c', { expectedVersion: 3 })).toEqual({ ok: false, currentVersion: 2 });
      expect(await store.get('k')).toEqual({ value: 'b', version: 2 });
    });

    it('reports currentVersion 0 when the key is absent', async () => {
      expect(await store.put('k', 'a', { expectedVersion: 4 })).toEqual({ ok: false, currentVersion: 0 });
      expect(await store.get('k')).toBeNull();
    });

    it('lets exactly one of many concurrent writers of the same version win', async () => {
      await store.put('k', 'start');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.put('k', `writer-${i}`, { expectedVersion: 1 })),
      );
      const winners = results.flatMap((result, i) => (result.ok ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const result of results) if (!result.ok) expect(result.currentVersion).toBe(2);
      expect(await store.get('k')).toEqual({ value: `writer-${winners[0]}`, version: 2 });
    });

    it('deletes only at the expected version', async () => {
      await store.put('k', 'a');
      await store.put('k', 'b');
      expect(await store.delete('k', { expectedVersion: 1 })).toBe(false);
      expect(await store.delete('k', { expectedVersion: 0 })).toBe(false);
      expect(await store.get('k')).toEqual({ value: 'b', version: 2 });
      expect(await store.delete('k', { expectedVersion: 2 })).toBe(true);
      expect(await store.get('k')).toBeNull();
    });
  });

  describe('fenced writes', () => {
    it('writes and deletes only while the fence counter holds the given value', async () => {
      const epoch = await store.increment('epoch');
      const fence = { counterKey: 'epoch', value: epoch };
      expect(await store.put('k', 'a', { fence })).toEqual({ ok: true, version: 1 });
      expect(await store.put('k', 'b', { fence, expectedVersion: 1 })).toEqual({ ok: true, version: 2 });
      await store.raiseCounterAbove('epoch', epoch);
      await expect(store.put('k', 'c', { fence })).rejects.toThrow(CoordinationFencedError);
      await expect(store.put('new', 'c', { fence, expectedVersion: 0 })).rejects.toThrow(CoordinationFencedError);
      await expect(store.delete('k', { fence })).rejects.toThrow(CoordinationFencedError);
      expect(await store.get('k')).toEqual({ value: 'b', version: 2 });
      expect(await store.get('new')).toBeNull();
      const current = { counterKey: 'epoch', value: epoch + 1 };
      expect(await store.delete('k', { fence: current })).toBe(true);
    });

    it('lets no fenced write through once a concurrent raise has moved the counter', async () => {
      const fence = { counterKey: 'epoch', value: 0 };
      const [raised, ...writes] = await Promise.allSettled([
        store.raiseCounterAbove('epoch', 0),
        ...Array.from({ length: 5 }, (_, i) => store.put(`k${i}`, 'v', { fence })),
      ]);
      expect(raised.status).toBe('fulfilled');
      for (const write of writes) {
        if (write.status === 'rejected') expect(write.reason).toBeInstanceOf(CoordinationFencedError);
      }
      const written = (await store.list('k')).length;
      expect(written).toBe(writes.filter((write) => write.status === 'fulfilled').length);
      await expect(store.put('late', 'v', { fence })).rejects.toThrow(CoordinationFencedError);
    });
  });

  describe('counters', () => {
    it('reads 0 when absent and counts up from 1', async () => {
      expect(await store.readCounter('epoch')).toBe(0);
      expect(await store.increment('epoch')).toBe(1);
      expect(await store.increment('epoch')).toBe(2);
      expect(await store.readCounter('epoch')).toBe(2);
      expect(await store.readCounter('other')).toBe(0);
    });

    it('hands out distinct values to concurrent increments', async () => {
      const values = await Promise.all(Array.from({ length: 20 }, () => store.increment('epoch')));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await store.readCounter('epoch')).toBe(20);
    });

    it('raises to max(current, floor) + 1', async () => {
      expect(await store.raiseCounterAbove('epoch', 0)).toBe(1);
      expect(await store.raiseCounterAbove('epoch', 41)).toBe(42);
      expect(await store.raiseCounterAbove('epoch', 7)).toBe(43);
      expect(await store.raiseCounterAbove('epoch', 43)).toBe(44);
      expect(await store.readCounter('epoch')).toBe(44);
    });

    it('never goes backwards under any mix of increments and raises', async () => {
      let model = 0;
      const step = fc.oneof(fc.constant(null), fc.nat({ max: 1_000_000 }));
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
          for (const floor of steps) {
            const before = await store.readCounter('epoch');
            const value =
              floor === null ? await store.increment('epoch') : await store.raiseCounterAbove('epoch', floor);
            model = Math.max(model, floor ?? 0) + 1;
            expect(value).toBe(model);
            expect(value).toBeGreaterThan(before);
          }
        }),
        { numRuns: 30 },
      );
    });

    it('gives concurrent raises distinct values ending above every floor', async () => {
      const floors = [5, 100, 3, 100, 57, 0, 99];
      const values = await Promise.all(floors.map((floor) => store.raiseCounterAbove('epoch', floor)));
      expect(new Set(values).size).toBe(floors.length);
      values.forEach((value, i) => expect(value).toBeGreaterThan(floors[i]));
      expect(await store.readCounter('epoch')).toBe(Math.max(...values));
    });

    it('keeps counters apart from value keys of the same name', async () => {
      await store.put('same', 'value');
      expect(await store.increment('same')).toBe(1);
      expect(await store.get('same')).toEqual({ value: 'value', version: 1 });
      expect(await store.list('')).toEqual([{ key: 'same', value: 'value', version: 1 }]);
    });
  });

  describe('list', () => {
    it('lists live keys under a prefix, sorted by key', async () => {
      for (const key of ['topics/b', 'topics/a', 'topicsx', 'brokers/1', 'topics/a/0']) await store.put(key, key);
      await store.put('topics/eph', 'x', { ttlMs: TTL_MS });
      await outlive(TTL_MS);
      expect(await store.list('topics/')).toEqual([
        { key: 'topics/a', value: 'topics/a', version: 1 },
        { key: 'topics/a/0', value: 'topics/a/0', version: 1 },
        { key: 'topics/b', value: 'topics/b', version: 1 },
      ]);
      expect((await store.list('')).map((entry) => entry.key)).toEqual([
        'brokers/1',
        'topics/a',
        'topics/a/0',
        'topics/b',
        'topicsx',
      ]);
      expect(await store.list('nothing/')).toEqual([]);
    });

    it('sorts by code point (UTF-8 byte order), not by UTF-16 unit', async () => {
      const keys = ['k\u{1F600}', 'k\uE000', 'kz', 'k\u00E9', 'k'];
      for (const key of keys) await store.put(key, 'v');
      expect((await store.list('k')).map((entry) => entry.key)).toEqual([
        'k',
        'kz',
        'k\u00E9',
        'k\uE000',
        'k\u{1F600}',
      ]);
    });
  });

  describe('bounds and arguments', () => {
    it('refuses empty and oversized keys', async () => {
      await expect(store.put('', 'v')).rejects.toThrow(CoordinationLimitError);
      const longKey = 'k'.repeat(COORDINATION_KEY_BYTES_MAX + 1);
      await expect(store.put(longKey, 'v')).rejects.toThrow(/over the limit of 1024/);
      await expect(store.increment(longKey)).rejects.toThrow(CoordinationLimitError);
      expect(() => store.watch(longKey, () => undefined)).toThrow(CoordinationLimitError);
      expect(await store.put('k'.repeat(COORDINATION_KEY_BYTES_MAX), 'v')).toEqual({ ok: true, version: 1 });
    });

    it('refuses values over the limit, counted in UTF-8 bytes, and stores nothing', async () => {
      const atLimit = 'v'.repeat(COORDINATION_VALUE_BYTES_MAX);
      expect(await store.put('k', atLimit)).toEqual({ ok: true, version: 1 });
      await expect(store.put('k', atLimit + 'v')).rejects.toThrow(CoordinationLimitError);
      const twoByteChars = '\u00E9'.repeat(COORDINATION_VALUE_BYTES_MAX / 2 + 1);
      await expect(store.put('k', twoByteChars)).rejects.toThrow(/over the limit of 1048576/);
      await expect(store.acquireLease('lease', atLimit + 'v', TTL_MS)).rejects.toThrow(CoordinationLimitError);
      expect(await store.get('k')).toEqual({ value: atLimit, version: 1 });
      expect(await store.get('lease')).toBeNull();
    });

    it('refuses bad TTLs, versions and floors', async () => {
      for (const ttlMs of [0, -1, 1.5, Number.NaN]) {
        await expect(store.put('k', 'v', { ttlMs })).rejects.toThrow(CoordinationLimitError);
        await expect(store.acquireLease('k', 't', ttlMs)).rejects.toThrow(CoordinationLimitError);
      }
      await expect(store.put('k', 'v', { expectedVersion: -1 })).rejects.toThrow(CoordinationLimitError);
      await expect(store.raiseCounterAbove('epoch', -1)).rejects.toThrow(CoordinationLimitError);
      expect(await store.get('k')).toBeNull();
      expect(await store.readCounter('epoch')).toBe(0);
    });
  });

  describe('lifecycle', () => {
    it('refuses operations after close, and closes twice quietly', async () => {
      await store.close();
      await store.close();
      await expect(store.get('k')).rejects.toThrow(CoordinationStoreClosedError);
      await expect(store.put('k', 'v')).rejects.toThrow(CoordinationStoreClosedError);
      await expect(store.increment('c')).rejects.toThrow(CoordinationStoreClosedError);
    });

    it('keeps values, versions and counters across a reopen', async (test) => {
      if (!context.fixture.reopen) return test.skip('this adapter cannot reopen');
      await store.put('topics/a', 'config', { expectedVersion: 0 });
      await store.put('topics/a', 'config-2', { expectedVersion: 1 });
      await store.increment('epoch');
      await store.raiseCounterAbove('epoch', 9);
      store = await context.fixture.reopen();
      expect(await store.get('topics/a')).toEqual({ value: 'config-2', version: 2 });
      expect(await store.readCounter('epoch')).toBe(10);
      expect(await store.put('topics/a', 'config-3', { expectedVersion: 2 })).toEqual({ ok: true, version: 3 });
      expect(await store.raiseCounterAbove('epoch', 0)).toBe(11);
    });
  });
}
