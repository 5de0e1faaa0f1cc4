import { describe, expect, it } from 'vitest';
import { quotaFor, RateBucket } from './quota.js';

describe('quota buckets', () => {
  it('admits a burst of one second, then the rate; a large request overdraws and the next ones wait', () => {
    const bucket = new RateBucket(1000, 0);
    expect(bucket.waitMs(0, 0)).toBe(0);
    bucket.charge(0, 1000);
    expect(bucket.waitMs(0, 1)).toBe(1);
    bucket.charge(0, 4000); // overdraft: 4000 in debt
    expect(bucket.waitMs(0, 0)).toBe(4000);
    expect(bucket.waitMs(3000, 0)).toBe(1000);
    expect(bucket.waitMs(4000, 0)).toBe(0);
    expect(bucket.idle(5000)).toBe(true);
    expect(bucket.waitMs(100_000, 0)).toBe(0);
    bucket.charge(100_000, 1500); // refilled only up to the burst (1000)
    expect(bucket.waitMs(100_000, 0)).toBe(500);
  });

  it('admits the quota rate over a long run', () => {
    const bucket = new RateBucket(10_000, 0);
    let admitted = 0;
    for (let now = 0; now < 60_000; now += 10) {
      if (bucket.waitMs(now, 0) === 0) {
        bucket.charge(now, 3000);
        admitted += 3000;
      }
    }
    expect(admitted / 60).toBeGreaterThan(10_000 * 0.98);
    expect(admitted / 60).toBeLessThan(10_000 * 1.06);
  });

  it('uses the principal own quota, else the default', () => {
    const quotas = new Map([
      ['<default>', { producer_byte_rate: 100, request_rate: 5 }],
      ['User:alice', { producer_byte_rate: 1000 }],
    ]);
    expect(quotaFor(quotas, 'User:alice', 'producer_byte_rate')).toBe(1000);
    expect(quotaFor(quotas, 'User:alice', 'request_rate')).toBe(5);
    expect(quotaFor(quotas, 'User:bob', 'producer_byte_rate')).toBe(100);
    expect(quotaFor(quotas, 'User:bob', 'consumer_byte_rate')).toBeNull();
  });
});
