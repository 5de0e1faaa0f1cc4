import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window.js';

const values = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('RateWindow', () => {
  it('has no rates before a second sample', () => {
    const window = new RateWindow(3);
    expect(window.rates()).toBeNull();
    window.add(0, values({ a: 10 }));
    expect(window.rates()).toBeNull();
  });

  it('rates growth between the oldest and newest sample kept, per second', () => {
    const window = new RateWindow(3);
    window.add(0, values({ a: 0 }));
    window.add(2_000, values({ a: 100, b: 40 }));
    expect(Object.fromEntries(window.rates()!)).toEqual({ a: 50, b: 20 });
    window.add(4_000, values({ a: 100, b: 40 }));
    window.add(6_000, values({ a: 100, b: 40 }));
    // the sample at 0 ms has left the window: nothing grew since 2,000 ms
    expect(Object.fromEntries(window.rates()!)).toEqual({ a: 0, b: 0 });
  });

  it('ignores samples that are not newer, and never rates a decrease below 0', () => {
    const window = new RateWindow(4);
    window.add(1_000, values({ a: 10 }));
    window.add(1_000, values({ a: 99 }));
    expect(window.rates()).toBeNull();
    window.add(2_000, values({ a: 5 }));
    expect(window.rates()!.get('a')).toBe(0);
    expect(() => new RateWindow(1)).toThrow();
  });
});
