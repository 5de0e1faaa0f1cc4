import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import {
  INLINE_LEADER_WRITE_BYTES_MAX,
  INLINE_LOOP_UTILIZATION_MAX,
  InlineWriteGate,
  LOOP_SAMPLE_MS,
  processLoopMeter,
} from './inline-write-gate.js';

describe('InlineWriteGate', () => {
  it('allows writes up to INLINE_LEADER_WRITE_BYTES_MAX', () => {
    const gate = new InlineWriteGate(new ManualClock());
    expect(gate.allows(1)).toBe(true);
    expect(gate.allows(INLINE_LEADER_WRITE_BYTES_MAX)).toBe(true);
    expect(gate.allows(INLINE_LEADER_WRITE_BYTES_MAX + 1)).toBe(false);
  });

  it('closes for pauseMs after a write slower than slowMs, and opens again', () => {
    const clock = new ManualClock();
    const gate = new InlineWriteGate(clock, null, 20, 60_000);
    expect(gate.timed(() => clock.advance(20))).toBeUndefined(); // as slow as allowed: still open
    expect(gate.allows(100)).toBe(true);
    gate.timed(() => clock.advance(21));
    expect(gate.allows(100)).toBe(false);
    clock.advance(59_999);
    expect(gate.allows(100)).toBe(false);
    clock.advance(1);
    expect(gate.allows(100)).toBe(true);
  });

  it('tells how long the write that closed it took, once a closing', () => {
    const clock = new ManualClock();
    const closings: number[] = [];
    const gate = new InlineWriteGate(clock, null, 20, 1_000, (tookMs) => closings.push(tookMs));
    gate.timed(() => clock.advance(5));
    gate.timed(() => clock.advance(35));
    expect(closings).toEqual([35]);
  });

  it('refuses while the loop was busier than INLINE_LOOP_UTILIZATION_MAX, sampling it at most every LOOP_SAMPLE_MS', () => {
    const clock = new ManualClock();
    const utilizations = [0.2, 0.9, 0.4];
    let samples = 0;
    const gate = new InlineWriteGate(clock, {
      utilizationSinceLast: () => utilizations[samples++],
    });
    expect(gate.allows(100)).toBe(true); // 0.2
    clock.advance(LOOP_SAMPLE_MS - 1);
    expect(gate.allows(100)).toBe(true); // not sampled again yet
    expect(samples).toBe(1);
    clock.advance(1);
    expect(gate.allows(100)).toBe(false); // 0.9: busy
    expect(gate.allows(100)).toBe(false);
    clock.advance(LOOP_SAMPLE_MS);
    expect(INLINE_LOOP_UTILIZATION_MAX).toBeGreaterThan(0.4);
    expect(gate.allows(100)).toBe(true); // 0.4
    expect(samples).toBe(3);
  });

  it("reads this process's loop as a fraction", async () => {
    const meter = processLoopMeter();
    const until = performance.now() + 30;
    while (performance.now() < until); // busy
    expect(meter.utilizationSinceLast()).toBeGreaterThan(0.5);
    await new Promise((resolve) => setTimeout(resolve, 60)); // idle
    expect(meter.utilizationSinceLast()).toBeLessThan(0.5);
  });

  it('returns what the write returns, and closes when a slow write throws', () => {
    const clock = new ManualClock();
    const gate = new InlineWriteGate(clock, null, 20, 1_000);
    expect(gate.timed(() => 'written')).toBe('written');
    expect(() =>
      gate.timed(() => {
        clock.advance(50);
        throw new Error('EIO');
      }),
    ).toThrow('EIO');
    expect(gate.allows(100)).toBe(false);
  });
});
