import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { INLINE_LEADER_WRITE_BYTES_MAX, InlineWriteGate } from './inline-write-gate.js';

describe('InlineWriteGate', () => {
  it('allows writes up to INLINE_LEADER_WRITE_BYTES_MAX', () => {
    const gate = new InlineWriteGate(new ManualClock());
    expect(gate.allows(1)).toBe(true);
    expect(gate.allows(INLINE_LEADER_WRITE_BYTES_MAX)).toBe(true);
    expect(gate.allows(INLINE_LEADER_WRITE_BYTES_MAX + 1)).toBe(false);
  });

  it('closes for pauseMs after a write slower than slowMs, and opens again', () => {
    const clock = new ManualClock();
    const gate = new InlineWriteGate(clock, 20, 60_000);
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
    const gate = new InlineWriteGate(clock, 20, 1_000, (tookMs) => closings.push(tookMs));
    gate.timed(() => clock.advance(5));
    gate.timed(() => clock.advance(35));
    expect(closings).toEqual([35]);
  });

  it('returns what the write returns, and closes when a slow write throws', () => {
    const clock = new ManualClock();
    const gate = new InlineWriteGate(clock, 20, 1_000);
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
