// The coordination store on Redis (ioredis): the port's operations as single commands or Lua scripts over the
// layout described in redis-scripts.ts, on plain Redis or a Sentinel-managed master (config/redis-url.ts).
//
// - Atomicity: every read-then-write is one Lua script, so concurrent brokers see compare-and-set, leases and
//   fenced writes exactly as ZooKeeper's versioned writes and ephemeral nodes.
// - Watches: one subscriber connection on the namespace's event channel feeds a WatchHub. Scripts publish 'put' and
//   'delete'; 'expire' comes from a sweep script every sweepIntervalMs (any broker's sweep tells everybody, once).
//   Pub/sub is lossy across reconnects: watchers reconcile by reading, as the port requires.
// - Failure: commands time out after commandTimeoutMs instead of queueing forever, so a lease holder that cannot
//   reach Redis finds out and resigns; the connection itself is retried for ever in the background.
// - Durability: Redis's. Run it with `appendonly yes` (README); the brokers survive a Redis that lost everything
//   (DESIGN.md §1), but not without a short pause.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import { type CancelTimer, type Clock, everyMs, systemClock } from '../common/clock.js';

import { CoordinationFencedError, CoordinationStoreClosedError } from './coordination-errors.js';
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
  CoordinationStore,
  type DeleteOptions,
  type Fence,
  type KeyedVersionedValue,
  type PutOptions,
  type PutResult,
  type VersionedValue,
  type WatchEvent,
  type WatchEventType,
  type WatchListener,
} from './coordination-store.js';
import {
  ACQUIRE_SCRIPT,
  DELETE_SCRIPT,
  LIST_SCRIPT,
  PUT_SCRIPT,
  RAISE_SCRIPT,
  RELEASE_SCRIPT,
  RENEW_SCRIPT,
  SWEEP_SCRIPT,
} from './redis-scripts.js';
import { parseRedisUrl, redact } from '../config/redis-url.js';
import { WatchHub } from './watch-hub.js';

export const REDIS_NAMESPACE_DEFAULT = 'brook:';
export const REDIS_SWEEP_INTERVAL_MS_DEFAULT = 250;
/** A command that gets no answer within this is failed (the caller retries or resigns). */
export const REDIS_COMMAND_TIMEOUT_MS_DEFAULT = 2_000;
export const REDIS_CONNECT_TIMEOUT_MS_DEFAULT = 5_000;
/**
 * How long a connecting store keeps asking a Redis that answers slowly (its pings time out) before it gives up: a
 * broker restarted on a loaded machine, or while Redis is busy loading, waits for it instead of exiting. A refused
 * connection fails at once.
 */
export const REDIS_STARTUP_WAIT_MS_DEFAULT = 15_000;
/** Longest pause between reconnection attempts. */
const REDIS_RECONNECT_DELAY_MS_MAX = 1_000;
const WATCH_EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['put', 'delete', 'expire']);

export interface RedisStoreOptions {
  namespace?: string;
  sweepIntervalMs?: number;
  commandTimeoutMs?: number;
  /** See REDIS_STARTUP_WAIT_MS_DEFAULT. */
  startupWaitMs?: number;
  onListenerError?: (error: unknown, event: WatchEvent) => void;
  /** Where connection errors are reported (ioredis retries by itself); default: ignored. */
  onConnectionError?: (error: Error) => void;
  /** Times the start-up wait and the sweep (default: the system clock). */
  clock?: Clock;
}

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const SCRIPTS = {
  put: script(PUT_SCRIPT),
  delete: script(DELETE_SCRIPT),
  acquire: script(ACQUIRE_SCRIPT),
  renew: script(RENEW_SCRIPT),
  release: script(RELEASE_SCRIPT),
  raise: script(RAISE_SCRIPT),
  list: script(LIST_SCRIPT),
  sweep: script(SWEEP_SCRIPT),
};

/**
 * ioredis, loaded on the first connect, not at start-up: a broker without BROOK_REDIS_URL never uses it and would
 * carry about 2.5 MB of live heap (its command table, its code) for nothing. CommonJS, so `require` loads it.
 */
function ioredis(): typeof import('ioredis') {
  return createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
}

export class RedisCoordinationStore extends CoordinationStore {
  private readonly namespace: string;
  private readonly hub: WatchHub;
  private readonly cancelSweep: CancelTimer;
  private subscriber: Redis | null = null;
  /** Until the first SUBSCRIBE is confirmed, scripts wait for it: a write made after watch() is seen by it. */
  private subscribing: Promise<void> | null = null;
  private closed = false;

  /** Connects to the URL (config/redis-url.ts) and checks that the server answers. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisCoordinationStore> {
    const parsed = parseRedisUrl(url);
    const client = new (ioredis().Redis)({ ...parsed.options, ...clientOptions(options) });
    if (options.onConnectionError) client.on('error', options.onConnectionError);
    else client.on('error', () => undefined);
    try {
      await firstPing(client, options.startupWaitMs ?? REDIS_STARTUP_WAIT_MS_DEFAULT, options.clock ?? systemClock);
    } catch (error) {
      client.disconnect();
      throw new Error(`cannot reach Redis at ${redact(url)}: ${(error as Error).message}`, { cause: error });
    }
    return new RedisCoordinationStore(client, options);
  }

  private constructor(
    private readonly client: Redis,
    private readonly options: RedisStoreOptions,
  ) {
    super();
    this.namespace = options.namespace ?? REDIS_NAMESPACE_DEFAULT;
    this.hub = new WatchHub(options.onListenerError ?? reportListenerError);
    const sweepIntervalMs = options.sweepIntervalMs ?? REDIS_SWEEP_INTERVAL_MS_DEFAULT;
    this.cancelSweep = everyMs(options.clock ?? systemClock, sweepIntervalMs, () => void this.sweep());
  }

  async get(key: string): Promise<VersionedValue | null> {
    this.assertOpen();
    assertKey(key);
    const [value, version] = await this.client.hmget(this.valueKey(key), 'v', 'ver');
    if (value === null || version === null) return null;
    return { value, version: Number(version) };
  }

  async put(key: string, value: string, options: PutOptions = {}): Promise<PutResult> {
    this.assertOpen();
    assertKey(key);
    assertValue(value);
    if (options.ttlMs !== undefined) assertTtlMs(options.ttlMs);
    if (options.expectedVersion !== undefined) assertExpectedVersion(options.expectedVersion);
    assertFence(options.fence);
    const [status, number] = (await this.run(SCRIPTS.put, [
      key,
      value,
      optional(options.ttlMs),
      optional(options.expectedVersion),
      ...fenceArgs(options.fence),
    ])) as [number, number];
    if (status === -1) throw fencedError(options.fence, number);
    return status === 1 ? { ok: true, version: number } : { ok: false, currentVersion: number };
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<boolean> {
    this.assertOpen();
    assertKey(key);
    if (options.expectedVersion !== undefined) assertExpectedVersion(options.expectedVersion);
    assertFence(options.fence);
    const [status, epoch] = (await this.run(SCRIPTS.delete, [
      key,
      optional(options.expectedVersion),
      ...fenceArgs(options.fence),
    ])) as [number, number?];
    if (status === -1) throw fencedError(options.fence, epoch ?? 0);
    return status === 1;
  }

  async acquireLease(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    assertKey(key);
    assertValue(token, 'token');
    assertTtlMs(ttlMs);
    return (await this.run(SCRIPTS.acquire, [key, token, String(ttlMs)])) === 1;
  }

  async renewLease(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    assertKey(key);
    assertValue(token, 'token');
    assertTtlMs(ttlMs);
    return (await this.run(SCRIPTS.renew, [key, token, String(ttlMs)])) === 1;
  }

  async releaseLease(key: string, token: string): Promise<boolean> {
    this.assertOpen();
    assertKey(key);
    assertValue(token, 'token');
    return (await this.run(SCRIPTS.release, [key, token])) === 1;
  }

  async increment(counterKey: string): Promise<number> {
    this.assertOpen();
    assertKey(counterKey, 'counterKey');
    const value = await this.client.incr(this.counterKey(counterKey));
    assertCounterValue(value, `counter ${counterKey}`);
    return value;
  }

  async readCounter(counterKey: string): Promise<number> {
    this.assertOpen();
    assertKey(counterKey, 'counterKey');
    return Number((await this.client.get(this.counterKey(counterKey))) ?? '0');
  }

  async raiseCounterAbove(counterKey: string, floor: number): Promise<number> {
    this.assertOpen();
    assertKey(counterKey, 'counterKey');
    assertCounterValue(floor, 'floor');
    const value = Number(await this.run(SCRIPTS.raise, [counterKey, String(floor)]));
    assertCounterValue(value, `counter ${counterKey}`);
    return value;
  }

  async list(prefix: string): Promise<KeyedVersionedValue[]> {
    this.assertOpen();
    assertPrefix(prefix);
    const flat = (await this.run(SCRIPTS.list, [prefix])) as string[];
    const found: KeyedVersionedValue[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      found.push({ key: flat[i], value: flat[i + 1], version: Number(flat[i + 2]) });
    }
    return found;
  }

  watch(prefix: string, listener: WatchListener): () => void {
    this.assertOpen();
    assertPrefix(prefix);
    this.ensureSubscribed();
    return this.hub.subscribe(prefix, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelSweep();
    this.hub.clear();
    const subscriber = this.subscriber;
    this.subscriber = null;
    await Promise.all([quit(this.client), subscriber === null ? undefined : quit(subscriber)]);
  }

  /** Runs one of SCRIPTS by its SHA, loading it when the server does not know it (first use, or after a restart). */
  private async run(entry: Script, args: string[]): Promise<unknown> {
    const argv = [this.namespace, ...args];
    if (this.subscribing !== null) await this.subscribing;
    try {
      return await this.client.evalsha(entry.sha, 0, ...argv);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return this.client.eval(entry.source, 0, ...argv);
    }
  }

  private async sweep(): Promise<void> {
    if (this.closed || this.client.status !== 'ready') return;
    await this.run(SCRIPTS.sweep, []).catch(() => undefined);
  }

  private ensureSubscribed(): void {
    if (this.subscriber !== null) return;
    const subscriber = this.client.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', this.options.onConnectionError ?? (() => undefined));
    subscriber.on('message', (_channel: string, message: string) => this.dispatch(message));
    this.subscribing = subscriber.subscribe(this.eventChannel()).then(
      () => {
        this.subscribing = null;
      },
      () => {
        this.subscribing = null;
      },
    );
  }

  private dispatch(message: string): void {
    const space = message.indexOf(' ');
    const type = message.slice(0, space);
    if (space < 0 || !WATCH_EVENT_TYPES.has(type) || this.closed) return;
    this.hub.publish({ key: message.slice(space + 1), type: type as WatchEventType });
  }

  private valueKey(key: string): string {
    return `${this.namespace}v:${key}`;
  }

  private counterKey(key: string): string {
    return `${this.namespace}c:${key}`;
  }

  private eventChannel(): string {
    return `${this.namespace}events`;
  }

  private assertOpen(): void {
    if (this.closed) throw new CoordinationStoreClosedError();
  }
}

/** Pings until Redis answers; a ping that timed out is tried again until `waitMs` has passed since the first. */
async function firstPing(client: Redis, waitMs: number, clock: Clock): Promise<void> {
  const deadline = clock.monotonicMs() + waitMs;
  for (;;) {
    try {
      await client.ping();
      return;
    } catch (error) {
      if (!isCommandTimeout(error) || clock.monotonicMs() >= deadline) throw error;
    }
  }
}

function isCommandTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}

function clientOptions(options: RedisStoreOptions): RedisOptions {
  return {
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS_DEFAULT,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS_DEFAULT,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, REDIS_RECONNECT_DELAY_MS_MAX),
  };
}

function optional(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

function fenceArgs(fence: Fence | undefined): [string, string] {
  return fence === undefined ? ['', ''] : [fence.counterKey, String(fence.value)];
}

function fencedError(fence: Fence | undefined, current: number): CoordinationFencedError {
  return new CoordinationFencedError(fence?.counterKey ?? '', fence?.value ?? 0, current);
}

async function quit(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

function reportListenerError(error: unknown, event: WatchEvent): void {
  console.error(`coordination watch listener failed on ${event.type} ${JSON.stringify(event.key)}:`, error);
}
