// The coordination store port: what Brook needs from ZooKeeper, shaped so that each operation is one atomic
// Redis command or one Lua script (see the mapping below). Two adapters implement it: the embedded store
// (one process, persisted in the data dir) and the Redis store.
//
// Keys are plain strings chosen by callers (at most COORDINATION_KEY_BYTES_MAX UTF-8 bytes); the store gives no
// meaning to their characters. Two namespaces never meet:
//   - value keys: a string value plus a version. The version is 1 when the key is created and grows by one on
//     every write of the value (put). A deleted or expired key is absent; created again it starts at 1 again
//     (as in ZooKeeper), so a version alone does not rule out ABA across a delete: safety rests on epochs.
//   - counter keys: a non-negative integer, 0 while absent, never expiring, never decreasing.
//
// Value keys may carry a time to live (ttlMs). A key with a TTL is ephemeral: it disappears when the TTL runs out
// (watchers see 'expire') and it does not survive a restart of the embedded store. A put without ttlMs makes the
// key persistent again (like SET without KEEPTTL). Expiry is measured by the store; a lease holder must not trust
// its lease longer than ttlMs minus the time since it *sent* the request that set or renewed it (monotonic clock).
//
// Conditional writes (compare-and-set on version, like ZooKeeper's versioned setData):
//   expectedVersion undefined -> unconditional; 0 -> only if absent; N > 0 -> only if the current version is N.
//
// Fenced writes (put and delete with `fence`) also require a counter to hold an exact value, in the same atomic
// step: the controller's writes carry its epoch, so a deposed controller's late write changes nothing.
//
// Leases are value keys whose value is the holder's token:
//   acquireLease = create with TTL only if absent (SET NX PX). An existing key, even with the same token, refuses:
//                  the holder extends with renewLease.
//   renewLease   = reset the TTL only if the value equals the token. Not a write: the version does not change and
//                  watchers are not told.
//   releaseLease = delete only if the value equals the token.
//
// Watches are hints, like ZooKeeper watches and Redis pub/sub: an event may arrive late, and may be lost (Redis
// reconnects, a slow subscriber). Consumers must also reconcile periodically by reading (get/list); a lost event
// must only delay a reaction, never lose it. Events carry no value: read it.
//
// Durability: a mutating call resolves once its effect is durable as far as the adapter can make it (embedded:
// fsync'd to the data dir, for persistent keys and counters; Redis: accepted by the server, AOF per its config).
//
// Redis mapping (a sketch for the Redis adapter; all keys under one configured prefix):
//   value key   -> hash {v: value, ver: version}, PEXPIRE for a TTL, plus its name in an index sorted set
//   get         -> HMGET                            put / delete  -> Lua (check ver, write, PEXPIRE/PERSIST,
//   acquireLease-> Lua (EXISTS, HSET, PEXPIRE)                        index ZADD/ZREM, PUBLISH)
//   renewLease  -> Lua (HGET v == token, PEXPIRE)   releaseLease  -> Lua (HGET v == token, DEL, ZREM, PUBLISH)
//   increment   -> INCR      readCounter -> GET     raiseCounterAbove -> Lua (max(GET, floor) + 1, SET)
//   list        -> Lua (ZRANGEBYLEX over the index, HMGET each, skipping and pruning expired names)
//   watch       -> SUBSCRIBE to the event channel (+ keyspace notifications or a sweep for 'expire')
// list order is that of ZRANGEBYLEX: UTF-8 bytes compared as unsigned (compareCoordinationKeys).

export interface VersionedValue {
  value: string;
  version: number;
}

export interface KeyedVersionedValue extends VersionedValue {
  key: string;
}

/**
 * A fenced write happens only while counterKey still holds value (the writer's epoch); otherwise nothing is
 * written and the call rejects with CoordinationFencedError. The check and the write are one atomic step.
 */
export interface Fence {
  counterKey: string;
  value: number;
}

export interface PutOptions {
  /** Time to live in milliseconds (positive integer). Absent: the key is persistent. */
  ttlMs?: number;
  /** 0: only if absent; N: only if the current version is N; absent: unconditional. */
  expectedVersion?: number;
  /** Checked before expectedVersion. */
  fence?: Fence;
}

export interface DeleteOptions {
  /** N: only if the current version is N (0 never deletes anything); absent: unconditional. */
  expectedVersion?: number;
  fence?: Fence;
}

export type PutResult = { ok: true; version: number } | { ok: false; currentVersion: number };

export type WatchEventType = 'put' | 'delete' | 'expire';

export interface WatchEvent {
  key: string;
  type: WatchEventType;
}

export type WatchListener = (event: WatchEvent) => void;

/** Injected by class token (NestJS); the adapters extend it. */
export abstract class CoordinationStore {
  /** The current value and version, or null when absent or expired. */
  abstract get(key: string): Promise<VersionedValue | null>;

  /** Writes value; returns the new version, or the current one (0 if absent) when expectedVersion did not match. */
  abstract put(key: string, value: string, options?: PutOptions): Promise<PutResult>;

  /** True when a key was deleted. */
  abstract delete(key: string, options?: DeleteOptions): Promise<boolean>;

  /** Creates key = token with a TTL only if key is absent. */
  abstract acquireLease(key: string, token: string, ttlMs: number): Promise<boolean>;

  /** Resets the TTL to ttlMs only if key holds token. */
  abstract renewLease(key: string, token: string, ttlMs: number): Promise<boolean>;

  /** Deletes key only if it holds token. */
  abstract releaseLease(key: string, token: string): Promise<boolean>;

  /** Adds one and returns the new value (1 for an absent counter). */
  abstract increment(counterKey: string): Promise<number>;

  /** The current value, 0 when absent. */
  abstract readCounter(counterKey: string): Promise<number>;

  /** Atomically sets the counter to max(current, floor) + 1 and returns it: the fencing-epoch rule. */
  abstract raiseCounterAbove(counterKey: string, floor: number): Promise<number>;

  /** Every live value key starting with prefix ('' = all), sorted by compareCoordinationKeys. */
  abstract list(prefix: string): Promise<KeyedVersionedValue[]>;

  /**
   * Calls listener for changes of value keys starting with prefix. Hints only (see the header). Returns the
   * function that stops the watch; after it returns, listener is not called again.
   */
  abstract watch(prefix: string, listener: WatchListener): () => void;

  /** Waits for pending writes, stops timers and watches. Later calls fail. Idempotent. */
  abstract close(): Promise<void>;
}

/**
 * The order of list(): Unicode code points, which for well-formed strings is the order of their UTF-8 bytes and
 * so Redis's ZRANGEBYLEX order. (Plain `<` on UTF-16 units differs where a surrogate pair meets U+E000..U+FFFF.)
 */
export function compareCoordinationKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/** Surrogates encode code points above U+FFFF, so they rank after every other unit. */
function codeUnitRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}
