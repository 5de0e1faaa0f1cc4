import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeaderReplicaState } from './leader-replica-state.js';

const LAG_MS = 30_000;

function threeReplicas(now = 0, leo = 10, hw = 10) {
  return new LeaderReplicaState(1, [1, 2, 3], [1, 2, 3], 0, leo, hw, now);
}

describe('LeaderReplicaState', () => {
  it('the HW is the minimum LEO of the ISR and never goes down', () => {
    const state = threeReplicas();
    expect(state.highWatermark).toBe(10);
    state.onLeaderAppend(15);
    expect(state.highWatermark).toBe(10); // followers have not fetched past 10 yet
    expect(state.onFollowerFetch(2, 15, 1).highWatermark).toBe(10);
    expect(state.onFollowerFetch(3, 12, 1).highWatermark).toBe(12);
    expect(state.onFollowerFetch(3, 15, 2).highWatermark).toBe(15);
    // a follower that restarted with less data does not pull the HW back
    expect(state.onFollowerFetch(3, 11, 3).highWatermark).toBe(15);
  });

  it('a lone leader advances the HW on its own appends', () => {
    const state = new LeaderReplicaState(1, [1], [1], 0, 0, 0, 0);
    expect(state.onLeaderAppend(5)).toBe(5);
    expect(state.hasEnoughReplicas(1)).toBe(true);
    expect(state.hasEnoughReplicas(2)).toBe(false);
  });

  it('shrinks the ISR when a follower has not caught up for replica.lag.time.max.ms, then the HW moves on', () => {
    const state = threeReplicas();
    state.onLeaderAppend(20);
    state.onFollowerFetch(2, 20, 1_000);
    expect(state.highWatermark).toBe(10); // broker 3 is silent
    expect(state.proposeShrink(LAG_MS, LAG_MS)).toBeNull(); // exactly the limit: still in sync
    const change = state.proposeShrink(LAG_MS + 1, LAG_MS);
    expect(change).toEqual({ kind: 'shrink', isr: [1, 2] });
    // until the change is committed the leaving replica still holds the HW back
    expect(state.highWatermark).toBe(10);
    expect(state.hasEnoughReplicas(3)).toBe(true);
    expect(state.changeCommitted()).toBe(20);
    expect(state.isr).toEqual([1, 2]);
    expect(state.hasEnoughReplicas(3)).toBe(false);
  });

  it('a follower that keeps fetching but never reaches the LEO falls out; one that reached the LEO at its previous fetch does not', () => {
    const state = threeReplicas();
    let leo = 10;
    for (let now = 0; now <= 40_000; now += 1_000) {
      leo += 10;
      state.onLeaderAppend(leo);
      state.onFollowerFetch(2, leo - 5, now); // behind the LEO, but past the LEO it saw at its previous fetch
      state.onFollowerFetch(3, 10, now); // stuck
    }
    expect(state.outOfSyncReplicas(40_000, LAG_MS)).toEqual([3]);
  });

  it('proposes a caught-up follower back into the ISR; the HW waits for it as soon as the change is pending', () => {
    const state = new LeaderReplicaState(1, [1, 2, 3], [1, 2], 0, 10, 10, 0);
    state.onLeaderAppend(30);
    state.onFollowerFetch(2, 30, 1);
    expect(state.highWatermark).toBe(30);
    expect(state.onFollowerFetch(3, 20, 2).change).toBeNull(); // below the HW: not yet
    const { change } = state.onFollowerFetch(3, 30, 3);
    expect(change).toEqual({ kind: 'expand', replica: 3, isr: [1, 2, 3] });
    expect(state.maximalIsr()).toEqual([1, 2, 3]);
    state.onLeaderAppend(35);
    state.onFollowerFetch(2, 35, 4);
    expect(state.highWatermark).toBe(30); // 3 is pending and has 30
    state.changeCommitted();
    expect(state.isr).toEqual([1, 2, 3]);
  });

  it('never readmits a replica that a reassignment is removing; a new replica joins once caught up', () => {
    const state = new LeaderReplicaState(2, [2, 3, 4, 1], [2, 3], 0, 10, 10, 0, [1]);
    expect(state.onFollowerFetch(1, 10, 1).change).toBeNull();
    expect(state.onFollowerFetch(4, 10, 1).change).toEqual({ kind: 'expand', replica: 4, isr: [2, 3, 4] });
  });

  it('does not readmit a follower before it reaches the start offset of the leader epoch', () => {
    const state = new LeaderReplicaState(1, [1, 2], [1], 50, 40, 40, 0);
    expect(state.onFollowerFetch(2, 45, 1).change).toBeNull();
    state.onLeaderAppend(60);
    expect(state.onFollowerFetch(2, 60, 2).change).toEqual({ kind: 'expand', replica: 2, isr: [1, 2] });
  });

  it('keeps one change in flight; a failed change is dropped', () => {
    const state = threeReplicas();
    state.onLeaderAppend(20);
    expect(state.proposeShrink(LAG_MS + 1, LAG_MS)).not.toBeNull();
    expect(state.proposeShrink(LAG_MS + 2, LAG_MS)).toBeNull();
    state.changeFailed();
    expect(state.pendingChange).toBeNull();
    expect(state.isr).toEqual([1, 2, 3]);
  });

  it('refuses a leader outside its own ISR and an unknown follower', () => {
    expect(() => new LeaderReplicaState(1, [1, 2], [2], 0, 0, 0, 0)).toThrow();
    expect(() => threeReplicas().onFollowerFetch(9, 0, 0)).toThrow();
  });
});

describe('LeaderReplicaState properties', () => {
  type Step =
    | { kind: 'append'; n: number }
    | { kind: 'fetch'; replica: number; behind: number }
    | { kind: 'advance'; ms: number }
    | { kind: 'shrink' }
    | { kind: 'commit' }
    | { kind: 'fail' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('append' as const), n: fc.integer({ min: 1, max: 20 }) }),
    fc.record({
      kind: fc.constant('fetch' as const),
      replica: fc.constantFrom(2, 3, 4),
      behind: fc.integer({ min: 0, max: 30 }),
    }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
    fc.constant({ kind: 'shrink' as const }),
    fc.constant({ kind: 'commit' as const }),
    fc.constant({ kind: 'fail' as const }),
  );

  it('the HW never goes down, never passes the leader LEO, and only passes offsets every maximal-ISR replica has', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        let now = 0;
        let leo = 0;
        const state = new LeaderReplicaState(1, [1, 2, 3, 4], [1, 2, 3, 4], 0, 0, 0, now);
        const replicaLeo = new Map<number, number>([
          [1, 0],
          [2, 0],
          [3, 0],
          [4, 0],
        ]);
        for (const s of steps) {
          const before = state.highWatermark;
          switch (s.kind) {
            case 'append':
              leo += s.n;
              replicaLeo.set(1, leo);
              state.onLeaderAppend(leo);
              break;
            case 'fetch': {
              const offset = Math.max(0, leo - s.behind);
              replicaLeo.set(s.replica, offset);
              state.onFollowerFetch(s.replica, offset, now);
              break;
            }
            case 'advance':
              now += s.ms;
              break;
            case 'shrink':
              state.proposeShrink(now, LAG_MS);
              break;
            case 'commit':
              if (state.pendingChange !== null) state.changeCommitted();
              break;
            case 'fail':
              state.changeFailed();
              break;
          }
          expect(state.highWatermark).toBeGreaterThanOrEqual(before);
          expect(state.highWatermark).toBeLessThanOrEqual(leo);
          expect(state.isr).toContain(1);
          if (state.highWatermark > before) {
            for (const replica of state.maximalIsr()) {
              expect(replicaLeo.get(replica)!).toBeGreaterThanOrEqual(state.highWatermark);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
