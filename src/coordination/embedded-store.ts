// The coordination store inside one broker process: a Map, with TTLs on an injected clock, persisted to
// <data-dir>/coordination/store.json (format in store-file.ts) so a single broker needs nothing else.
//
// - TTL keys expire lazily when touched and by a sweep timer (unref'd) that tells watchers 'expire'. Deadlines
//   are on the monotonic clock. TTL keys are never persisted: leases and registrations die with the process.
// - Persistent keys and counters are written after each mutation; the mutations of one tick share one write
//   (CoalescingWriter), and each call resolves only once its effect is on disk. The file is rewritten whole, but
//   each entry keeps its part of the text (store-file.ts) and the key order is kept until a key comes or goes, so
//   a write after one change serializes that entry only, and writes it in chunks (at 10,000 partition states a
//   write made ~5 MB of garbage, ~2 MB of it one large string). Every call, reads included, also
//   waits for the writes requested before it, so nobody is ever handed state that a crash could take back.
// - Watch events are published after that wait, in the order of the operations.
// - A failed write stops the store (CoordinationStoreFailedError): memory may be ahead of disk.
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../common/atomic-file.js';
import { DATA_DIR_MODE } from '../common/file-modes.js';
import { dirname } from 'node:path';

import { type CancelTimer, type Clock, everyMs, systemClock } from '../common/clock.js';
import { CoalescingWriter } from './coalescing-writer.js';
import {
  CoordinationFencedError,
  CoordinationStoreClosedError,
  CoordinationStoreFailedError,
} from './coordination-errors.js';
import {
  assertCounterValue,
  assertExpectedVersion,
  assertFence,
  assertKey,
  assertPrefix,
  assertTtlMs,
  assertValue,
} from './coordination-limits.js';
import {
  compareCoordinationKeys,
  CoordinationStore,
  type DeleteOptions,
  type Fence,
  type KeyedVersionedValue,
  type PutOptions,
  type PutResult,
  type VersionedValue,
  type WatchEvent,
  type WatchListener,
} from './coordination-store.js';
import { entryFileText, readStoreFile, type StoreSnapshot, storeFileChunks, storeFilePath } from './store-file.js';
import { WatchHub } from './watch-hub.js';

/** How often expired TTL keys are swept (and watchers told) when nobody touches them. */
export const EMBEDDED_SWEEP_INTERVAL_MS_DEFAULT = 250;

export interface EmbeddedStoreOptions {
  sweepIntervalMs?: number;
  /** Where a throwing watch listener's error goes; default console.error. */
  onListenerError?: (error: unknown, event: WatchEvent) => void;
}

interface Entry {
  value: string;
  version: number;
  /** Monotonic deadline, or null for a persistent key. */
  expiresAtMs: number | null;
  /** The entry's part of the file's text (entryFileText), made at the first write that holds it. */
  fileText?: string;
}

export class EmbeddedCoordinationStore extends CoordinationStore {
  private readonly entries = new Map<string, Entry>();
  private readonly counters = new Map<string, number>();
  private readonly ttlKeys = new Set<string>();
  /**
   * The last listing of each prefix, kept while no key under it came, went or changed, and only when every key in
   * it is persistent (a TTL key's expiry is decided at each read). The metadata cache lists the 10,000 partition
   * states at every reload (its 5 s reconcile and each controller pass): each listing copied every key of the store,
   * made an object per state and sorted them, ~0.8 MB a second of garbage on an idle broker. Callers get a copy of
   * the array; the entries in it are shared (nobody writes to them).
   */
  private readonly listings = new Map<string, KeyedVersionedValue[]>();
  /** The persistent keys in file order; null after a persistent key came or went (sorted again at the next write). */
  private fileOrder: string[] | null = null;
  private readonly writer: CoalescingWriter;
  private readonly hub: WatchHub;
  private readonly cancelSweep: CancelTimer;
  private closed = false;

  static async open(
    dataDir: string,
    clock: Clock = systemClock,
    options: EmbeddedStoreOptions = {},
  ): Promise<EmbeddedCoordinationStore> {
    const file = storeFilePath(dataDir);
    await mkdir(dirname(file), { recursive: true, mode: DATA_DIR_MODE });
    const snapshot = await readStoreFile(file);
    return new EmbeddedCoordinationStore(file, snapshot, clock, options);
  }

  private constructor(
    private readonly file: string,
    snapshot: StoreSnapshot | null,
    private readonly clock: Clock,
    options: EmbeddedStoreOptions,
  ) {
    super();
    for (const { key, value, version } of snapshot?.entries ?? []) {
      this.entries.set(key, { value, version, expiresAtMs: null });
    }
    for (const { key, value } of snapshot?.counters ?? []) this.counters.set(key, value);
    this.writer = new CoalescingWriter(() => writeFileAtomic(this.file, this.fileChunks()));
    this.hub = new WatchHub(options.onListenerError ?? reportListenerError);
    const sweepIntervalMs = options.sweepIntervalMs ?? EMBEDDED_SWEEP_INTERVAL_MS_DEFAULT;
    this.cancelSweep = everyMs(clock, sweepIntervalMs, () => this.sweep());
  }

  async get(key: string): Promise<VersionedValue | null> {
    this.assertUsable();
    assertKey(key);
    const entry = this.live(key);
    return this.settle(entry ? { value: entry.value, version: entry.version } : null, false);
  }

  async put(key: string, value: string, options: PutOptions = {}): Promise<PutResult> {
    this.assertUsable();
    assertKey(key);
    assertValue(value);
    if (options.ttlMs !== undefined) assertTtlMs(options.ttlMs);
    if (options.expectedVersion !== undefined) assertExpectedVersion(options.expectedVersion);
    assertFence(options.fence);
    const fenced = this.fenceError(options.fence);
    if (fenced !== null) return this.settle(null, false).then(() => Promise.reject(fenced));
    const current = this.live(key);
    const currentVersion = current?.version ?? 0;
    if (options.expectedVersion !== undefined && options.expectedVersion !== currentVersion) {
      return this.settle({ ok: false, currentVersion }, false);
    }
    const expiresAtMs = options.ttlMs === undefined ? null : this.clock.monotonicMs() + options.ttlMs;
    const version = currentVersion + 1;
    this.setEntry(key, { value, version, expiresAtMs });
    const persist = isPersistent(current) || expiresAtMs === null;
    return this.settle({ ok: true, version }, persist, { key, type: 'put' });
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<boolean> {
    this.assertUsable();
    assertKey(key);
    if (options.expectedVersion !== undefined) assertExpectedVersion(options.expectedVersion);
    assertFence(options.fence);
    const fenced = this.fenceError(options.fence);
    if (fenced !== null) return this.settle(null, false).then(() => Promise.reject(fenced));
    const current = this.live(key);
    if (!current || (options.expectedVersion !== undefined && options.expectedVersion !== current.version)) {
      return this.settle(false, false);
    }
    this.removeEntry(key);
    return this.settle(true, isPersistent(current), { key, type: 'delete' });
  }

  async acquireLease(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.assertUsable();
    assertKey(key);
    assertValue(token, 'token');
    assertTtlMs(ttlMs);
    if (this.live(key)) return this.settle(false, false);
    this.setEntry(key, { value: token, version: 1, expiresAtMs: this.clock.monotonicMs() + ttlMs });
    return this.settle(true, false, { key, type: 'put' });
  }

  async renewLease(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.assertUsable();
    assertKey(key);
    assertValue(token, 'token');
    assertTtlMs(ttlMs);
    const current = this.live(key);
    if (!current || current.value !== token) return this.settle(false, false);
    const wasPersistent = isPersistent(current);
    this.setEntry(key, {
      value: current.value,
      version: current.version,
      expiresAtMs: this.clock.monotonicMs() + ttlMs,
    });
    return this.settle(true, wasPersistent);
  }

  async releaseLease(key: string, token: string): Promise<boolean> {
    this.assertUsable();
    assertKey(key);
    assertValue(token, 'token');
    const current = this.live(key);
    if (!current || current.value !== token) return this.settle(false, false);
    this.removeEntry(key);
    return this.settle(true, isPersistent(current), { key, type: 'delete' });
  }

  async increment(counterKey: string): Promise<number> {
    return this.raiseCounterTo(counterKey, (current) => current + 1);
  }

  async readCounter(counterKey: string): Promise<number> {
    this.assertUsable();
    assertKey(counterKey, 'counterKey');
    return this.settle(this.counters.get(counterKey) ?? 0, false);
  }

  async raiseCounterAbove(counterKey: string, floor: number): Promise<number> {
    assertCounterValue(floor, 'floor');
    return this.raiseCounterTo(counterKey, (current) => Math.max(current, floor) + 1);
  }

  async list(prefix: string): Promise<KeyedVersionedValue[]> {
    this.assertUsable();
    assertPrefix(prefix);
    const kept = this.listings.get(prefix);
    if (kept !== undefined) return this.settle(kept.slice(), false);
    const found: KeyedVersionedValue[] = [];
    let persistent = true;
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(prefix)) continue;
      const entry = this.live(key);
      if (!entry) continue;
      if (entry.expiresAtMs !== null) persistent = false;
      found.push({ key, value: entry.value, version: entry.version });
    }
    found.sort((a, b) => compareCoordinationKeys(a.key, b.key));
    if (persistent) this.listings.set(prefix, found.slice());
    return this.settle(found, false);
  }

  watch(prefix: string, listener: WatchListener): () => void {
    this.assertUsable();
    assertPrefix(prefix);
    return this.hub.subscribe(prefix, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelSweep();
    this.hub.clear();
    // A failed write was already reported to the calls it covered; closing still succeeds.
    await this.writer.barrier().catch(() => undefined);
  }

  private async raiseCounterTo(counterKey: string, next: (current: number) => number): Promise<number> {
    this.assertUsable();
    assertKey(counterKey, 'counterKey');
    const value = next(this.counters.get(counterKey) ?? 0);
    assertCounterValue(value, `counter ${counterKey}`);
    this.counters.set(counterKey, value);
    return this.settle(value, true);
  }

  /** The error for a fenced write whose counter moved on; checked in the same synchronous step as the write. */
  private fenceError(fence: Fence | undefined): CoordinationFencedError | null {
    if (fence === undefined) return null;
    const current = this.counters.get(fence.counterKey) ?? 0;
    return current === fence.value ? null : new CoordinationFencedError(fence.counterKey, fence.value, current);
  }

  /** Waits until this call's effect (persist) and everything before it is on disk, then tells watchers. */
  private async settle<T>(result: T, persist: boolean, event?: WatchEvent): Promise<T> {
    try {
      await (persist ? this.writer.requestWrite() : this.writer.barrier());
    } catch (error) {
      throw new CoordinationStoreFailedError(error);
    }
    if (event && !this.closed) this.hub.publish(event);
    return result;
  }

  /** The entry if present and not expired; an expired one is removed here and watchers are told. */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAtMs === null) return entry;
    if (this.clock.monotonicMs() < entry.expiresAtMs) return entry;
    this.removeEntry(key);
    this.hub.publish({ key, type: 'expire' });
    return undefined;
  }

  private sweep(): void {
    for (const key of [...this.ttlKeys]) this.live(key);
  }

  /** Forgets the kept listings that hold `key`'s prefix (a key under it came, went or changed). */
  private dropListings(key: string): void {
    if (this.listings.size === 0) return;
    for (const prefix of [...this.listings.keys()]) if (key.startsWith(prefix)) this.listings.delete(prefix);
  }

  private setEntry(key: string, entry: Entry): void {
    this.dropListings(key);
    if (isPersistent(this.entries.get(key)) !== (entry.expiresAtMs === null)) this.fileOrder = null;
    this.entries.set(key, entry);
    if (entry.expiresAtMs === null) this.ttlKeys.delete(key);
    else this.ttlKeys.add(key);
  }

  private removeEntry(key: string): void {
    this.dropListings(key);
    if (isPersistent(this.entries.get(key))) this.fileOrder = null;
    this.entries.delete(key);
    this.ttlKeys.delete(key);
  }

  /**
   * The file's text of the persistent entries and counters (store-file.ts) in chunks, from the parts the entries
   * keep; which parts is fixed here, synchronously (the writer's rule), the chunks are joined while writing.
   */
  private fileChunks(): Iterable<string> {
    if (this.fileOrder === null) {
      const keys: string[] = [];
      this.entries.forEach((entry, key) => {
        if (entry.expiresAtMs === null) keys.push(key);
      });
      this.fileOrder = keys.sort(compareCoordinationKeys);
    }
    const parts = new Array<string>(this.fileOrder.length);
    for (let index = 0; index < parts.length; index++) {
      const key = this.fileOrder[index];
      const entry = this.entries.get(key)!;
      entry.fileText ??= entryFileText({ key, value: entry.value, version: entry.version });
      parts[index] = entry.fileText;
    }
    const counters = [...this.counters].map(([key, value]) => ({ key, value }));
    counters.sort((a, b) => compareCoordinationKeys(a.key, b.key));
    return storeFileChunks(parts, counters);
  }

  private assertUsable(): void {
    if (this.closed) throw new CoordinationStoreClosedError();
    if (this.writer.error !== null) throw new CoordinationStoreFailedError(this.writer.error);
  }
}

function isPersistent(entry: Entry | undefined): boolean {
  return entry !== undefined && entry.expiresAtMs === null;
}

function reportListenerError(error: unknown, event: WatchEvent): void {
  console.error(`coordination watch listener failed on ${event.type} ${JSON.stringify(event.key)}:`, error);
}
