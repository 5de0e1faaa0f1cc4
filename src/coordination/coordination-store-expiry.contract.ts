// The CoordinationStore contract, part two: what time and watchers see. Keys with a time to live, leases
// (acquire, renew, release, expiry) and watches (put, delete and expiry events under a prefix). Time passes on the
// store's fake clock when the fixture has one, else in real time with short TTLs. Run through
// describeCoordinationStoreContract (coordination-store.contract.ts).
import { beforeEach, describe, expect, it } from 'vitest';

import type { CoordinationStore } from './coordination-store.js';
import { type ContractContext, TTL_MS, waitFor } from './coordination-store-contract-context.js';

export function describeExpiryAndWatchContract(context: ContractContext): void {
  const { elapse, outlive, record } = context;
  let store: CoordinationStore;
  beforeEach(() => {
    store = context.store;
  });

  describe('keys with a time to live', () => {
    it('expires a key put with ttlMs', async () => {
      await store.put('eph', 'x', { ttlMs: TTL_MS });
      expect(await store.get('eph')).toEqual({ value: 'x', version: 1 });
      await outlive(TTL_MS);
      expect(await store.get('eph')).toBeNull();
      expect(await store.put('eph', 'y', { expectedVersion: 0 })).toEqual({ ok: true, version: 1 });
    });

    it('makes a key persistent again when put without ttlMs', async () => {
      await store.put('k', 'x', { ttlMs: TTL_MS });
      expect(await store.put('k', 'y')).toEqual({ ok: true, version: 2 });
      await outlive(TTL_MS);
      expect(await store.get('k')).toEqual({ value: 'y', version: 2 });
    });
  });

  describe('leases', () => {
    it('acquires only when absent, whoever asks', async () => {
      expect(await store.acquireLease('lease', 'token-a', TTL_MS)).toBe(true);
      expect(await store.get('lease')).toEqual({ value: 'token-a', version: 1 });
      expect(await store.acquireLease('lease', 'token-b', TTL_MS)).toBe(false);
      expect(await store.acquireLease('lease', 'token-a', TTL_MS)).toBe(false);
      expect(await store.get('lease')).toEqual({ value: 'token-a', version: 1 });
    });

    it('refuses to acquire over a persistent key', async () => {
      await store.put('lease', 'data');
      expect(await store.acquireLease('lease', 'token-a', TTL_MS)).toBe(false);
      expect(await store.get('lease')).toEqual({ value: 'data', version: 1 });
    });

    it('gives a contested lease to exactly one candidate', async () => {
      const won = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.acquireLease('lease', `token-${i}`, TTL_MS)),
      );
      const winners = won.flatMap((ok, i) => (ok ? [i] : []));
      expect(winners).toHaveLength(1);
      expect((await store.get('lease'))?.value).toBe(`token-${winners[0]}`);
    });

    it('renews and releases only with the holder token', async () => {
      await store.acquireLease('lease', 'token-a', TTL_MS);
      expect(await store.renewLease('lease', 'token-b', TTL_MS)).toBe(false);
      expect(await store.releaseLease('lease', 'token-b')).toBe(false);
      expect(await store.get('lease')).toEqual({ value: 'token-a', version: 1 });
      expect(await store.renewLease('lease', 'token-a', TTL_MS)).toBe(true);
      expect(await store.get('lease')).toEqual({ value: 'token-a', version: 1 });
      expect(await store.releaseLease('lease', 'token-a')).toBe(true);
      expect(await store.get('lease')).toBeNull();
      expect(await store.releaseLease('lease', 'token-a')).toBe(false);
      expect(await store.renewLease('lease', 'token-a', TTL_MS)).toBe(false);
    });

    it('expires an unrenewed lease and hands it to the next candidate', async () => {
      await store.acquireLease('lease', 'token-a', TTL_MS);
      await outlive(TTL_MS);
      expect(await store.get('lease')).toBeNull();
      expect(await store.renewLease('lease', 'token-a', TTL_MS)).toBe(false);
      expect(await store.acquireLease('lease', 'token-b', TTL_MS)).toBe(true);
      expect(await store.releaseLease('lease', 'token-a')).toBe(false);
      expect(await store.get('lease')).toEqual({ value: 'token-b', version: 1 });
    });

    it('keeps a renewed lease for a whole TTL from the renewal', async () => {
      await store.acquireLease('lease', 'token-a', TTL_MS);
      await elapse(TTL_MS * 0.6);
      expect(await store.renewLease('lease', 'token-a', TTL_MS)).toBe(true);
      await elapse(TTL_MS * 0.6);
      expect(await store.get('lease')).toEqual({ value: 'token-a', version: 1 });
      await outlive(TTL_MS);
      expect(await store.get('lease')).toBeNull();
    });
  });

  describe('watch', () => {
    it('tells about put and delete under the prefix only', async () => {
      const { events, stop } = record('topics/');
      await store.put('topics/a', '1');
      await store.put('brokers/1', '1');
      await store.delete('topics/a');
      await waitFor(() => events.length >= 2);
      expect(events).toEqual([
        { key: 'topics/a', type: 'put' },
        { key: 'topics/a', type: 'delete' },
      ]);
      stop();
    });

    it('tells about lease acquisition, release and expiry', async () => {
      const { events, stop } = record('');
      await store.acquireLease('controller', 'token-a', TTL_MS);
      await store.releaseLease('controller', 'token-a');
      await store.acquireLease('controller', 'token-b', TTL_MS);
      await waitFor(() => events.length >= 3);
      await outlive(TTL_MS);
      await waitFor(() => events.length >= 4);
      expect(events).toEqual([
        { key: 'controller', type: 'put' },
        { key: 'controller', type: 'delete' },
        { key: 'controller', type: 'put' },
        { key: 'controller', type: 'expire' },
      ]);
      stop();
    });

    it('tells about the expiry of a key nobody reads', async () => {
      await store.put('brokers/1', 'registration', { ttlMs: TTL_MS });
      const { events, stop } = record('brokers/');
      await outlive(TTL_MS);
      await waitFor(() => events.length >= 1);
      expect(events).toEqual([{ key: 'brokers/1', type: 'expire' }]);
      stop();
    });

    it('stops telling a listener once it unsubscribes', async () => {
      const stopped = record('k');
      const sentinel = record('k');
      stopped.stop();
      await store.put('k', 'v');
      await waitFor(() => sentinel.events.length >= 1);
      expect(stopped.events).toEqual([]);
      sentinel.stop();
    });
  });
}
