import { describe, expect, it } from 'vitest';
import { extendedJoinDeadline, initialJoinPhase } from './initial-rebalance-delay.js';

describe("Kafka's initial rebalance delay", () => {
  it('waits the delay, capped at the longer of the delay and the rebalance timeout', () => {
    expect(initialJoinPhase(1_000, 3_000, 10_000)).toEqual({ deadlineMs: 4_000, capMs: 11_000 });
    expect(initialJoinPhase(1_000, 3_000, 500)).toEqual({ deadlineMs: 4_000, capMs: 4_000 });
  });

  it('starts the delay again on each join, never past the cap', () => {
    const { capMs } = initialJoinPhase(0, 3_000, 5_000);
    expect(extendedJoinDeadline(1_000, 3_000, capMs)).toBe(4_000);
    expect(extendedJoinDeadline(4_000, 3_000, capMs)).toBe(5_000);
  });
});
