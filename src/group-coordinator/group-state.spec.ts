import { describe, expect, it } from 'vitest';
import {
  apiGroupState,
  assertTransition,
  canTransition,
  IllegalGroupTransitionError,
  type GroupState,
} from './group-state.js';

// The transition table of group-state.ts, written out independently as the diagram in its header comment draws it.

const STATES: readonly GroupState[] = ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'];

const LEGAL: ReadonlySet<string> = new Set([
  'Empty->PreparingRebalance',
  'PreparingRebalance->Empty',
  'PreparingRebalance->CompletingRebalance',
  'CompletingRebalance->PreparingRebalance',
  'CompletingRebalance->Stable',
  'Stable->PreparingRebalance',
  'Empty->Dead',
  'PreparingRebalance->Dead',
  'CompletingRebalance->Dead',
  'Stable->Dead',
  'Dead->Dead',
]);

const PAIRS = STATES.flatMap((from) => STATES.map((to) => [from, to] as const));

describe('canTransition', () => {
  it.each(PAIRS)('%s -> %s is legal exactly when the diagram draws it', (from, to) => {
    expect(canTransition(from, to)).toBe(LEGAL.has(`${from}->${to}`));
  });

  it('never leaves Dead for a live state', () => {
    for (const to of STATES.filter((state) => state !== 'Dead')) expect(canTransition('Dead', to)).toBe(false);
  });

  it('reaches Stable only through CompletingRebalance, so every stable generation was written first', () => {
    expect(STATES.filter((from) => canTransition(from, 'Stable'))).toEqual(['CompletingRebalance']);
  });

  it('lets any state die (group deleted, offsets expired)', () => {
    for (const from of STATES) expect(canTransition(from, 'Dead')).toBe(true);
  });
});

describe('assertTransition', () => {
  it.each(PAIRS.filter(([from, to]) => LEGAL.has(`${from}->${to}`)))('accepts %s -> %s', (from, to) => {
    expect(() => assertTransition('g', from, to)).not.toThrow();
  });

  it.each(PAIRS.filter(([from, to]) => !LEGAL.has(`${from}->${to}`)))('throws on %s -> %s', (from, to) => {
    expect(() => assertTransition('g', from, to)).toThrow(IllegalGroupTransitionError);
  });

  it('names the group and both states', () => {
    expect(() => assertTransition('orders', 'Empty', 'Stable')).toThrow(
      'Group orders cannot move from Empty to Stable.',
    );
  });
});

describe('apiGroupState', () => {
  it("uses Confluent's v3 ConsumerGroupState names", () => {
    expect(STATES.map(apiGroupState)).toEqual([
      'EMPTY',
      'PREPARING_REBALANCE',
      'COMPLETING_REBALANCE',
      'STABLE',
      'DEAD',
    ]);
  });
});
