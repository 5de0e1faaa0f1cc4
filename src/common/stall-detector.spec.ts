import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import { StallDetector } from './stall-detector.js';

describe('StallDetector', () => {
  it('notices a gap between beats longer than the bound, before and after the next beat', () => {
    const clock = new ManualClock();
    const detector = new StallDetector(clock, 3_000);
    clock.advance(250);
    expect(detector.beat()).toBe(false);
    expect(detector.suspect()).toBe(false);
    clock.advance(5_000); // SIGSTOP: no beat for 5 s
    expect(detector.suspect()).toBe(true); // the first request after the wake-up already sees it
    expect(detector.beat()).toBe(true);
    expect(detector.suspect()).toBe(true);
  });

  it('is cleared only by a refresh that started after the stall', () => {
    const clock = new ManualClock();
    const detector = new StallDetector(clock, 3_000);
    const before = detector.refreshStarting();
    clock.advance(5_000);
    detector.beat();
    detector.refreshed(before); // began before the pause: proves nothing
    expect(detector.suspect()).toBe(true);
    const after = detector.refreshStarting();
    clock.advance(100);
    detector.beat();
    detector.refreshed(after);
    expect(detector.suspect()).toBe(false);
  });

  it('a stall during a refresh keeps the suspicion', () => {
    const clock = new ManualClock();
    const detector = new StallDetector(clock, 3_000);
    clock.advance(4_000);
    detector.beat();
    const token = detector.refreshStarting();
    clock.advance(4_000);
    detector.beat();
    detector.refreshed(token);
    expect(detector.suspect()).toBe(true);
  });
});
