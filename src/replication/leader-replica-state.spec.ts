import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';
import { type FollowerFetchOutcome, LeaderReplicaState } from './leader-replica-state.js';

const LAG_MS = 30_000;

/** Broker b's first incarnation runs with broker epoch 10 * b; a restart gives it 10 * b + 1. */
const first = (broker: number) => 10 * broker;

function leaderState(
  replicas: number[],
  isr: number[],
  epochStartOffset: number,
  leo: number,
  hw: number,
  now: number,
  notExpandable: number[] = [],
) {
  return new LeaderReplicaState({
    leaderId: replicas.includes(1) ? 1 : replicas[0],
    replicas,
    isr,
    isrBrokerEpochs: Object.fromEntries(isr.map((broker) => [String(broker), first(broker)])),
    epochStartOffset,
    leaderEndOffset: leo,
    highWatermark: hw,
    nowMs: now,
    notExpandable,
  });
}

function threeReplicas(now = 0, leo = 10, hw = 10) {
  return leaderState([1, 2, 3], [1, 2, 3], 0, leo, hw, now);
}

/** A fetch from the follower's first incarnation, which must be accepted. */
function fetch(state: LeaderReplicaState, replica: number, offset: number, now: number, brokerEpoch = first(replica)) {
  const outcome: FollowerFetchOutcome = state.onFollowerFetch(replica, brokerEpoch, offset, now);
  if (!outcome.accepted) throw new Error(outcome.reason);
  return outcome;
}

describe('LeaderReplicaState', () => {
  it('the HW is the minimum LEO of the ISR and never goes down', () => {
    const state = threeReplicas();
    expect(state.highWatermark).toBe(10);
    state.onLeaderAppend(15);
    expect(state.highWatermark).toBe(10); // followers have not fetched past 10 yet
    expect(fetch(state, 2, 15, 1).highWatermark).toBe(10);
    expect(fetch(state, 3, 12, 1).highWatermark).toBe(12);
    expect(fetch(state, 3, 15, 2).highWatermark).toBe(15);
    // a follower that restarted with less data does not pull the HW back
    expect(fetch(state, 3, 11, 3).highWatermark).toBe(15);
  });

  it('a lone leader advances the HW on its own appends', () => {
    const state = leaderState([1], [1], 0, 0, 0, 0);
    expect(state.onLeaderAppend(5)).toBe(5);
    expect(state.hasEnoughReplicas(1)).toBe(true);
    expect(state.hasEnoughReplicas(2)).toBe(false);
  });

  it('shrinks the ISR when a follower has not caught up for replica.lag.time.max.ms, then the HW moves on', () => {
    const state = threeReplicas();
    state.onLeaderAppend(20);
    fetch(state, 2, 20, 1_000);
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
      fetch(state, 2, leo - 5, now); // behind the LEO, but past the LEO it saw at its previous fetch
      fetch(state, 3, 10, now); // stuck
    }
    expect(state.outOfSyncReplicas(40_000, LAG_MS)).toEqual([3]);
  });

  it('proposes a caught-up follower back into the ISR; the HW waits for it as soon as the change is pending', () => {
    const state = leaderState([1, 2, 3], [1, 2], 0, 10, 10, 0);
    state.onLeaderAppend(30);
    fetch(state, 2, 30, 1);
    expect(state.highWatermark).toBe(30);
    expect(fetch(state, 3, 20, 2).change).toBeNull(); // below the HW: not yet
    const { change } = fetch(state, 3, 30, 3);
    expect(change).toEqual({ kind: 'expand', replica: 3, brokerEpoch: 30, isr: [1, 2, 3] });
    expect(state.maximalIsr()).toEqual([1, 2, 3]);
    state.onLeaderAppend(35);
    fetch(state, 2, 35, 4);
    expect(state.highWatermark).toBe(30); // 3 is pending and has 30
    state.changeCommitted();
    expect(state.isr).toEqual([1, 2, 3]);
  });

  it('never readmits a replica that a reassignment is removing; a new replica joins once caught up', () => {
    const state = new LeaderReplicaState({
      leaderId: 2,
      replicas: [2, 3, 4, 1],
      isr: [2, 3],
      isrBrokerEpochs: { 2: 20, 3: 30 },
      epochStartOffset: 0,
      leaderEndOffset: 10,
      highWatermark: 10,
      nowMs: 0,
      notExpandable: [1],
    });
    expect(fetch(state, 1, 10, 1).change).toBeNull();
    expect(fetch(state, 4, 10, 1).change).toEqual({ kind: 'expand', replica: 4, brokerEpoch: 40, isr: [2, 3, 4] });
  });

  it('does not readmit a follower before it reaches the start offset of the leader epoch', () => {
    const state = leaderState([1, 2], [1], 50, 40, 40, 0);
    expect(fetch(state, 2, 45, 1).change).toBeNull();
    state.onLeaderAppend(60);
    expect(fetch(state, 2, 60, 2).change).toEqual({ kind: 'expand', replica: 2, brokerEpoch: 20, isr: [1, 2] });
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
    expect(() => leaderState([1, 2], [2], 0, 0, 0, 0)).toThrow();
    expect(() => fetch(threeReplicas(), 9, 0, 0)).toThrow();
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
        const state = leaderState([1, 2, 3, 4], [1, 2, 3, 4], 0, 0, 0, now);
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
              fetch(state, s.replica, offset, now);
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

describe('LeaderReplicaState incarnations (KIP-903)', () => {
  it('refuses a fetch from an older incarnation than one already seen', () => {
    const state = threeReplicas();
    expect(state.onFollowerFetch(2, 19, 10, 1)).toMatchObject({ accepted: false });
    fetch(state, 2, 10, 1, 21);
    expect(state.onFollowerFetch(2, 20, 10, 2)).toMatchObject({ accepted: false });
  });

  it('a restarted ISR member counts for no more than before, at most what it now holds, and is proposed out at once', () => {
    const state = threeReplicas();
    state.onLeaderAppend(30);
    fetch(state, 2, 30, 1);
    fetch(state, 3, 25, 1);
    expect(state.highWatermark).toBe(25);
    // broker 3 lost its tail in a power loss and comes back as a new incarnation, fetching from 12, then from 30
    const restarted = fetch(state, 3, 12, 2, 31);
    expect(restarted).toMatchObject({ highWatermark: 25, change: { kind: 'shrink', isr: [1, 2] } });
    fetch(state, 3, 30, 3, 31);
    expect(state.highWatermark).toBe(25); // its fetches as the new incarnation do not count until it is admitted
    expect(state.follower(3)?.logEndOffset).toBe(12);
    state.changeCommitted();
    expect(state.highWatermark).toBe(30);
    // once out, it is an ordinary follower: caught up, it is admitted again as its new incarnation
    expect(fetch(state, 3, 30, 4, 31).change).toEqual({ kind: 'expand', replica: 3, brokerEpoch: 31, isr: [1, 2, 3] });
    state.changeCommitted();
    expect(state.isrBrokerEpochs).toEqual({ 1: 10, 2: 20, 3: 31 });
  });

  it('proposes a restarted member out with the next shrink when another change is in flight', () => {
    const state = threeReplicas();
    state.onLeaderAppend(20);
    expect(state.proposeShrink(LAG_MS + 1, LAG_MS)).toEqual({ kind: 'shrink', isr: [1] });
    expect(fetch(state, 2, 20, LAG_MS + 2, 21).change).toBeNull();
    state.changeFailed();
    expect(state.outOfSyncReplicas(LAG_MS + 3, LAG_MS)).toContain(2);
  });

  it('counts a member whose admitted incarnation was never recorded as restarted', () => {
    const state = new LeaderReplicaState({
      leaderId: 1,
      replicas: [1, 2],
      isr: [1, 2],
      isrBrokerEpochs: { 1: 10 },
      epochStartOffset: 0,
      leaderEndOffset: 10,
      highWatermark: 0,
      nowMs: 0,
    });
    expect(fetch(state, 2, 10, 1).change).toEqual({ kind: 'shrink', isr: [1] });
    expect(state.highWatermark).toBe(0);
  });
});

describe('LeaderReplicaState: the high watermark readers see', () => {
  it('is known only once the HW has reached the start offset of the leader epoch', () => {
    // a follower that had HW 40 takes over with LEO 50: the previous leader may have served up to 50
    const state = leaderState([1, 2, 3], [1, 2, 3], 50, 50, 40, 0);
    expect(state.highWatermark).toBe(40);
    expect(state.highWatermarkKnown).toBe(false);
    state.onLeaderAppend(55);
    fetch(state, 2, 55, 1);
    expect(state.highWatermarkKnown).toBe(false); // broker 3 has not fetched yet
    fetch(state, 3, 50, 2);
    expect(state.highWatermark).toBe(50);
    expect(state.highWatermarkKnown).toBe(true);
  });

  it('a leader alone in its ISR knows its HW at once', () => {
    expect(leaderState([1, 2], [1], 50, 50, 10, 0).highWatermarkKnown).toBe(true);
  });

  // A partition of three replicas through appends, fetches, ISR changes and failovers to another ISR member (the
  // controller's rule): every HW a leader serves while it knows it is at least every HW served before, under any
  // leader, and no follower ever truncates below a served HW.
  type Event =
    | { kind: 'append'; n: number }
    | { kind: 'fetch'; replica: number; records: number }
    | { kind: 'advance'; ms: number }
    | { kind: 'shrink' }
    | { kind: 'commit' }
    | { kind: 'fail' }
    | { kind: 'failover'; pick: number }
    | { kind: 'read' };
  const event: fc.Arbitrary<Event> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('append' as const), n: fc.integer({ min: 1, max: 5 }) }) },
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('fetch' as const),
        replica: fc.constantFrom(1, 2, 3),
        records: fc.integer({ min: 0, max: 8 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'shrink' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'commit' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('failover' as const), pick: fc.nat(2) }) },
    { weight: 3, arbitrary: fc.constant({ kind: 'read' as const }) },
  );

  it('never goes backwards across leader changes, and nothing below it is ever truncated', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 10, maxLength: 150, size: 'max' }), (events) => {
        let now = 0;
        const replicas = [1, 2, 3];
        const leo = new Map(replicas.map((b) => [b, 0]));
        const knownHw = new Map(replicas.map((b) => [b, 0]));
        let leader = 1;
        let state = leaderState(replicas, replicas, 0, 0, 0, now);
        let servedMax = 0;
        for (const e of events) {
          switch (e.kind) {
            case 'append':
              leo.set(leader, leo.get(leader)! + e.n);
              state.onLeaderAppend(leo.get(leader)!);
              break;
            case 'fetch': {
              if (e.replica === leader) break;
              // a follower holding more than the leader diverges and truncates to the leader's end first
              if (leo.get(e.replica)! > leo.get(leader)!) {
                leo.set(e.replica, leo.get(leader)!);
                expect(leo.get(e.replica)!).toBeGreaterThanOrEqual(servedMax);
              }
              const outcome = fetch(state, e.replica, leo.get(e.replica)!, now);
              leo.set(e.replica, Math.min(leo.get(leader)!, leo.get(e.replica)! + e.records));
              knownHw.set(e.replica, Math.min(outcome.highWatermark, leo.get(e.replica)!));
              break;
            }
            case 'advance':
              now += e.ms;
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
            case 'failover': {
              // the leader dies; the controller elects another member of the stored ISR, without the old leader
              const candidates = state.isr.filter((b) => b !== leader);
              if (candidates.length === 0) break;
              const next = candidates[e.pick % candidates.length];
              leader = next;
              state = new LeaderReplicaState({
                leaderId: next,
                replicas,
                isr: candidates,
                isrBrokerEpochs: Object.fromEntries(candidates.map((b) => [String(b), first(b)])),
                epochStartOffset: leo.get(next)!,
                leaderEndOffset: leo.get(next)!,
                highWatermark: knownHw.get(next)!,
                nowMs: now,
              });
              break;
            }
            case 'read':
              if (!state.highWatermarkKnown) break;
              expect(state.highWatermark).toBeGreaterThanOrEqual(servedMax);
              servedMax = state.highWatermark;
              break;
          }
          for (const member of state.maximalIsr()) expect(leo.get(member)!).toBeGreaterThanOrEqual(servedMax);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the footprint of a leadership (a broker leads thousands)', () => {
  const stateOf = (isrBrokerEpochs: Record<string, number>, replicas = [1]): LeaderReplicaState =>
    new LeaderReplicaState({
      leaderId: 1,
      replicas,
      isr: [1],
      isrBrokerEpochs,
      epochStartOffset: 0,
      leaderEndOffset: 5,
      highWatermark: 5,
      nowMs: 0,
    });

  it('a leader with no follower holds no followers map and no copy of its ISR epochs', () => {
    // the partition states' own epochs objects, kept alive by the metadata as they are on a broker
    const epochs = Array.from({ length: 20_000 }, (_, i) => JSON.parse(`{"1": ${i}}`) as Record<string, number>);
    const each = retainedBytesEach(20_000, (i) => stateOf(epochs[i]));
    // 618 bytes with an empty Map and a copied epochs object each, 207 without
    expect(each).toBeLessThan(300);
  });

  it('shares the state epochs only when they name ISR members alone', () => {
    const own = { '1': 4 };
    expect(stateOf(own).isrBrokerEpochs).toBe(own);
    const withOthers = { '1': 4, '2': 7, '01': 9 };
    expect(stateOf(withOthers, [1, 2]).isrBrokerEpochs).toEqual({ '1': 4 });
    expect(stateOf(withOthers, [1, 2]).follower(2)).toMatchObject({ brokerEpoch: -1, logEndOffset: 0 });
    expect(stateOf(own).follower(2)).toBeUndefined();
  });
});
