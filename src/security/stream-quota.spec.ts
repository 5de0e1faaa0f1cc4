import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { quotaFor, RateBucket, type QuotaKind, type QuotaValues } from './quota.js';
import { chargeFrame, DeliveryThrottle, type QuotaAccount, type ThrottleNotice } from './stream-quota.js';

/** The QuotaManager's buckets over a manual clock. */
function account(values: QuotaValues, clock: ManualClock): QuotaAccount {
  const buckets = new Map<QuotaKind, RateBucket>();
  const bucket = (kind: QuotaKind) => {
    const rate = quotaFor(new Map([['User:alice', values]]), 'User:alice', kind);
    if (rate === null) return null;
    if (!buckets.has(kind)) buckets.set(kind, new RateBucket(rate, clock.monotonicMs()));
    return buckets.get(kind)!;
  };
  return {
    waitMs: (_p, kind, needed = 0) => bucket(kind)?.waitMs(clock.monotonicMs(), needed) ?? 0,
    charge: (_p, kind, amount) => bucket(kind)?.charge(clock.monotonicMs(), amount),
    available: (_p, kind) => bucket(kind)?.available(clock.monotonicMs()) ?? Infinity,
  };
}

describe('DeliveryThrottle', () => {
  it('delivers at the consumer quota over time, one record of overdraft at most, and reports each throttle once', () => {
    const clock = new ManualClock();
    const notices: ThrottleNotice[] = [];
    const throttle = new DeliveryThrottle(account({ consumer_byte_rate: 10_000 }, clock), 'User:alice', (n) =>
      notices.push(n),
    );
    const recordBytes = 300;
    let delivered = 0;
    for (let step = 0; step < 10_000; step++) {
      clock.advance(1);
      const records = throttle.records(50);
      if (records === 0) continue;
      throttle.delivered(records, records * recordBytes);
      delivered += records * recordBytes;
    }
    // 10 s at 10,000 B/s plus the one-second burst, within one record
    expect(delivered).toBeGreaterThanOrEqual(110_000 - recordBytes);
    expect(delivered).toBeLessThanOrEqual(110_000 + 2 * recordBytes);
    expect(notices.length).toBeGreaterThan(0);
    expect(notices.every((n) => n.quota === 'consumer_byte_rate' && n.waitMs > 0)).toBe(true);
  });

  it('takes everything without a quota', () => {
    const throttle = new DeliveryThrottle(account({}, new ManualClock()), 'User:alice', () => {
      throw new Error('not throttled');
    });
    expect(throttle.records(500)).toBe(500);
    throttle.delivered(500, 10_000_000);
    expect(throttle.waitMs()).toBe(0);
  });
});

describe('chargeFrame', () => {
  it('charges request_rate per frame and producer_byte_rate per produce frame; says how long to stop reading', () => {
    const clock = new ManualClock();
    const quotas = account({ request_rate: 5, producer_byte_rate: 2_000 }, clock);
    expect(chargeFrame(quotas, 'User:alice', 1_500, true)).toBeNull();
    const second = chargeFrame(quotas, 'User:alice', 1_500, true);
    expect(second).toEqual({ quota: 'producer_byte_rate', waitMs: 500 });
    clock.advance(1_000); // request_rate is back to its burst of 5
    for (let i = 0; i < 4; i++) expect(chargeFrame(quotas, 'User:alice', 10, false)).toBeNull();
    expect(chargeFrame(quotas, 'User:alice', 10, false)).toEqual({ quota: 'request_rate', waitMs: 200 });
  });
});
