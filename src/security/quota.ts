// Kafka's client quotas, per principal with a default, as pure pieces with the clock passed in:
//   producer_byte_rate  request-body bytes per second on the produce routes
//   consumer_byte_rate  response-body bytes per second on the consume routes
//   request_rate        requests per second on every route that needs authentication (Brook's stand-in for Kafka's
//                       request_percentage, which measures broker thread time)
// Enforcement is per broker, as in Kafka. Each (principal, kind) has a bucket that refills at the quota rate and
// holds at most QUOTA_BURST_SECONDS of it. A request is refused (429, 42901, Retry-After) while its bucket is in
// debt; an admitted request is charged afterwards with what it really cost, so one large request may overdraw the
// bucket and the next ones wait until the debt is paid. Over time the admitted rate is the quota.

export const QUOTA_KINDS = ['producer_byte_rate', 'consumer_byte_rate', 'request_rate'] as const;
export type QuotaKind = (typeof QUOTA_KINDS)[number];
export type QuotaValues = Partial<Record<QuotaKind, number>>;

/** Kafka's name for the default entity. */
export const DEFAULT_ENTITY = '<default>';
export const QUOTA_BURST_SECONDS = 1;
/** Largest quota value: effectively unlimited, but finite. */
export const QUOTA_VALUE_MAX = 2 ** 40;

export class RateBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    readonly ratePerSecond: number,
    nowMs: number,
  ) {
    if (!(ratePerSecond > 0)) throw new Error(`quota rate must be positive, got ${ratePerSecond}`);
    this.tokens = ratePerSecond * QUOTA_BURST_SECONDS;
    this.updatedMs = nowMs;
  }

  private refill(nowMs: number): void {
    const elapsedMs = Math.max(0, nowMs - this.updatedMs);
    this.tokens = Math.min(
      this.ratePerSecond * QUOTA_BURST_SECONDS,
      this.tokens + (elapsedMs * this.ratePerSecond) / 1000,
    );
    this.updatedMs = Math.max(this.updatedMs, nowMs);
  }

  /** Milliseconds until the bucket holds `needed` tokens again; 0 when it does now. */
  waitMs(nowMs: number, needed: number): number {
    this.refill(nowMs);
    return this.tokens >= needed ? 0 : Math.ceil(((needed - this.tokens) * 1000) / this.ratePerSecond);
  }

  /** Tokens the bucket holds now (negative while in debt). */
  available(nowMs: number): number {
    this.refill(nowMs);
    return this.tokens;
  }

  charge(nowMs: number, amount: number): void {
    this.refill(nowMs);
    this.tokens -= amount;
  }

  /** True when the bucket is full: nothing to remember about this principal. */
  idle(nowMs: number): boolean {
    this.refill(nowMs);
    return this.tokens >= this.ratePerSecond * QUOTA_BURST_SECONDS;
  }
}

/** The quotas in force for a principal: its own value for each kind, else the default entity's. */
export function quotaFor(quotas: ReadonlyMap<string, QuotaValues>, principal: string, kind: QuotaKind): number | null {
  return quotas.get(principal)?.[kind] ?? quotas.get(DEFAULT_ENTITY)?.[kind] ?? null;
}
