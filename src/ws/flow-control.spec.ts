import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { CreditWindow, SendPressure } from './flow-control.js';

describe('CreditWindow', () => {
  it('never lets more records out than were granted', () => {
    const window = new CreditWindow(3, 10);
    expect(window.take(5)).toBe(3);
    expect(window.take(1)).toBe(0);
    expect(window.grant(2)).toBe(true);
    expect(window.take(1)).toBe(1);
    expect(window.take(9)).toBe(1);
    expect(window.totals).toEqual({ sent: 5, granted: 5 });
    expect(window.available).toBe(0);
  });

  it('refuses a grant past the maximum whole, and keeps the credits it had', () => {
    const window = new CreditWindow(8, 10);
    expect(window.grant(3)).toBe(false);
    expect(window.available).toBe(8);
    expect(window.grant(2)).toBe(true);
    expect(window.available).toBe(10);
  });

  it('rejects impossible arguments', () => {
    expect(() => new CreditWindow(11, 10)).toThrow(RangeError);
    expect(() => new CreditWindow(-1, 10)).toThrow(RangeError);
    expect(() => new CreditWindow(1, 10).grant(0)).toThrow(RangeError);
  });

  it('holds sent <= granted over random grants and takes', () => {
    const window = new CreditWindow(0, 100);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 10_000; i++) {
      if (random() < 0.5) window.grant(1 + Math.floor(random() * 20));
      else window.take(Math.floor(random() * 30));
      const { sent, granted } = window.totals;
      expect(sent).toBeLessThanOrEqual(granted);
      expect(window.available).toBe(granted - sent);
      expect(window.available).toBeLessThanOrEqual(100);
    }
  });
});

describe('SendPressure', () => {
  const limits = { pauseBytes: 1000, maxBytes: 5000, slowTimeoutMs: 30_000 };

  it('pauses at the pause mark and resumes only below half of it', () => {
    const pressure = new SendPressure(limits, new ManualClock());
    expect(pressure.observe(999)).toBe('flowing');
    expect(pressure.observe(1000)).toBe('paused');
    expect(pressure.observe(600)).toBe('paused');
    expect(pressure.observe(500)).toBe('flowing');
  });

  it('closes a socket that stays paused for the slow-consumer timeout', () => {
    const clock = new ManualClock();
    const pressure = new SendPressure(limits, clock);
    pressure.observe(2000);
    clock.advance(29_999);
    expect(pressure.check()).toBe('paused');
    clock.advance(1);
    expect(pressure.check()).toBe('closed');
    expect(pressure.reason).toMatch(/read nothing for 30000 ms/);
    expect(pressure.observe(0)).toBe('closed');
  });

  it('restarts the pause clock after the socket drained', () => {
    const clock = new ManualClock();
    const pressure = new SendPressure(limits, clock);
    pressure.observe(2000);
    clock.advance(20_000);
    pressure.observe(100);
    pressure.observe(2000);
    clock.advance(20_000);
    expect(pressure.check()).toBe('paused');
  });

  it('closes at once past the byte bound', () => {
    const pressure = new SendPressure(limits, new ManualClock());
    expect(pressure.observe(5001)).toBe('closed');
    expect(pressure.reason).toMatch(/5001 bytes queued/);
  });

  it('rejects inconsistent limits', () => {
    expect(() => new SendPressure({ pauseBytes: 10, maxBytes: 10, slowTimeoutMs: 1 }, new ManualClock())).toThrow();
  });
});
