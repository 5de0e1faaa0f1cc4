// Client quotas: the configured values, kept in the coordination store (brook/client-quotas/<entity>, value =
// JSON QuotaValues) so that every broker applies the same ones, cached and reloaded on watch events and every
// QUOTA_RECONCILE_INTERVAL_MS; and this broker's buckets per (principal, kind) (quota.ts has the rules).
//
// The charging API, the same for every path (the REST hooks, WebSocket frames and deliveries, SSE deliveries,
// later the Kafka listener), so that one principal has one bucket per kind on a broker whatever it uses:
//   waitMs(principal, kind, needed)  how long until the bucket holds `needed` (0: go now)
//   charge(principal, kind, amount)  after the fact, with what it really cost (may overdraw)
//   available(principal, kind)       what the bucket holds now (Infinity without a quota), to size a delivery
// Streams throttle in their own shape (stream-quota.ts): they wait rather than being refused.
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from '../common/clock.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { PrefixReconciler } from '../coordination/prefix-reconciler.js';
import { quotaFor, RateBucket, type QuotaKind, type QuotaValues } from './quota.js';

export const QUOTAS_PREFIX = 'brook/client-quotas/';
export const QUOTA_RECONCILE_INTERVAL_MS = 5_000;
/** Bound on remembered buckets; idle (full) buckets are dropped first. */
export const QUOTA_BUCKETS_MAX = 10_000;

@Injectable()
export class QuotaManager implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('QuotaManager');
  private quotas: ReadonlyMap<string, QuotaValues> = new Map();
  private readonly buckets = new Map<string, RateBucket>();
  private readonly reconciler: PrefixReconciler;

  constructor(
    private readonly store: CoordinationStore,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.reconciler = new PrefixReconciler(store, QUOTAS_PREFIX, {
      reload: () => this.reload(),
      intervalMs: QUOTA_RECONCILE_INTERVAL_MS,
      clock,
      onError: (error) => this.logger.warn(`reloading quotas: ${error.message}`),
    });
  }

  onModuleInit(): Promise<void> {
    return this.reconciler.start();
  }

  onModuleDestroy(): void {
    this.reconciler.stop();
  }

  all(): ReadonlyMap<string, QuotaValues> {
    return this.quotas;
  }

  async put(entity: string, values: QuotaValues): Promise<void> {
    await this.store.put(`${QUOTAS_PREFIX}${entity}`, JSON.stringify(values));
    await this.reload();
  }

  async delete(entity: string): Promise<boolean> {
    const deleted = await this.store.delete(`${QUOTAS_PREFIX}${entity}`);
    await this.reload();
    return deleted;
  }

  /** Milliseconds the principal must wait before a request of this kind is admitted; 0 when it may go now. */
  waitMs(principal: string, kind: QuotaKind, needed = 0): number {
    return this.bucket(principal, kind)?.waitMs(this.clock.monotonicMs(), needed) ?? 0;
  }

  /** Whether a quota of this kind applies to the principal (its own or the default). */
  limits(principal: string, kind: QuotaKind): boolean {
    return quotaFor(this.quotas, principal, kind) !== null;
  }

  /** What the bucket holds now: Infinity when no quota of this kind applies, negative while in debt. */
  available(principal: string, kind: QuotaKind): number {
    return this.bucket(principal, kind)?.available(this.clock.monotonicMs()) ?? Infinity;
  }

  charge(principal: string, kind: QuotaKind, amount: number): void {
    this.bucket(principal, kind)?.charge(this.clock.monotonicMs(), amount);
  }

  private bucket(principal: string, kind: QuotaKind): RateBucket | null {
    const rate = quotaFor(this.quotas, principal, kind);
    if (rate === null) return null;
    const key = `${kind} ${principal}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined || bucket.ratePerSecond !== rate) {
      if (this.buckets.size >= QUOTA_BUCKETS_MAX) this.evictIdle();
      bucket = new RateBucket(rate, this.clock.monotonicMs());
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private evictIdle(): void {
    const now = this.clock.monotonicMs();
    for (const [key, bucket] of this.buckets) if (bucket.idle(now)) this.buckets.delete(key);
    if (this.buckets.size >= QUOTA_BUCKETS_MAX) this.buckets.clear();
  }

  private async reload(): Promise<void> {
    const entries = await this.store.list(QUOTAS_PREFIX);
    this.quotas = new Map(
      entries.map((entry) => [entry.key.slice(QUOTAS_PREFIX.length), JSON.parse(entry.value) as QuotaValues]),
    );
  }
}
