import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { isCurrentMember, type LiveIncarnations } from '../topic/replica-incarnations.js';
import { decideLeaderChanges, LeaderDecisions } from './partition-leadership.js';

function topic(name: string, states: PartitionState[], replicas?: number[][]): TopicMetadata {
  return {
    assignment: { topicId: `${name}-id`, name, replicas: replicas ?? states.map((state) => [...state.isr]) },
    states,
    stateVersions: states.map((_, i) => i + 1),
    configs: {},
  };
}

/** Broker b's first incarnation runs with broker epoch 10 * b; a restart gives it 10 * b + 1. */
const first = (broker: number) => 10 * broker;
const epochsOf = (isr: number[]) => Object.fromEntries(isr.map((broker) => [String(broker), first(broker)]));

const state = (leader: number, isr: number[], leaderEpoch = 0): PartitionState => ({
  leader,
  leaderEpoch,
  isr,
  isrBrokerEpochs: epochsOf(isr),
  controllerEpoch: 1,
});

/** Brokers live in their first incarnation. */
const live = (...brokers: number[]): Map<number, number> => new Map(brokers.map((broker) => [broker, first(broker)]));
/** ...and some of them restarted: a new broker epoch, whether or not the old registration lapsed in between. */
const restarted = (incarnations: Map<number, number>, ...brokers: number[]): Map<number, number> =>
  new Map([...incarnations].map(([broker, epoch]) => [broker, brokers.includes(broker) ? epoch + 1 : epoch]));

const states = (changes: ReturnType<typeof decideLeaderChanges>) => changes.map((change) => change.state);

describe('decideLeaderChanges', () => {
  it('leaves partitions whose leader and ISR are live as the incarnations they admitted alone', () => {
    expect(decideLeaderChanges([topic('t', [state(1, [1]), state(2, [2, 1])])], live(1, 2), 5)).toEqual([]);
  });

  it('moves leadership to a live ISR member without the dead ones, or takes the partition offline keeping the ISR', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2], 3), state(1, [1], 7)])], live(2, 3), 5);
    expect(changes).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 1,
        state: { leader: 2, leaderEpoch: 4, isr: [2], isrBrokerEpochs: { 2: 20 }, controllerEpoch: 5 },
      },
      {
        topic: 't',
        partition: 1,
        expectedVersion: 2,
        state: { leader: -1, leaderEpoch: 8, isr: [1], isrBrokerEpochs: { 1: 10 }, controllerEpoch: 5 },
      },
    ]);
  });

  it('elects in replica order among the live ISR, never an out-of-sync replica', () => {
    // replicas in order 3, 1, 2; the ISR lists 1 before 3 but 3 comes first in the assignment
    const changes = decideLeaderChanges([topic('t', [state(2, [1, 2, 3], 0)], [[2, 3, 1]])], live(1, 3), 2);
    expect(states(changes)).toEqual([
      { leader: 3, leaderEpoch: 1, isr: [1, 3], isrBrokerEpochs: { 1: 10, 3: 30 }, controllerEpoch: 2 },
    ]);
    const outOfSync = topic('t', [state(2, [2, 3], 4)], [[2, 3, 1]]);
    expect(states(decideLeaderChanges([outOfSync], live(1), 2))).toEqual([
      { leader: -1, leaderEpoch: 5, isr: [2, 3], isrBrokerEpochs: { 2: 20, 3: 30 }, controllerEpoch: 2 },
    ]);
  });

  it('elects an out-of-sync replica only when the topic allows unclean election', () => {
    const outOfSync = topic('t', [state(2, [2, 3], 4)], [[2, 3, 1]]);
    const changes = decideLeaderChanges([outOfSync], live(1), 2, (t) => t.assignment.name === 't');
    expect(states(changes)).toEqual([
      { leader: 1, leaderEpoch: 5, isr: [1], isrBrokerEpochs: { 1: 10 }, controllerEpoch: 2 },
    ]);
  });

  it('removes dead followers from the ISR of a live leader, keeping its epoch', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2, 3], 6)])], live(1, 3), 4);
    expect(states(changes)).toEqual([
      { leader: 1, leaderEpoch: 6, isr: [1, 3], isrBrokerEpochs: { 1: 10, 3: 30 }, controllerEpoch: 4 },
    ]);
  });

  it('brings an offline partition back when an ISR member returns, and only then', () => {
    const offline = topic('t', [state(-1, [1], 8)]);
    expect(decideLeaderChanges([offline], live(2, 3), 6)).toEqual([]);
    // the same incarnation registered again (its registration had lapsed while it was paused)
    expect(decideLeaderChanges([offline], live(1, 2), 6)).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 1,
        state: { leader: 1, leaderEpoch: 9, isr: [1], isrBrokerEpochs: { 1: 10 }, controllerEpoch: 6 },
      },
    ]);
    // a new incarnation of it: it leads as that incarnation
    expect(states(decideLeaderChanges([offline], restarted(live(1, 2), 1), 6))).toEqual([
      { leader: 1, leaderEpoch: 9, isr: [1], isrBrokerEpochs: { 1: 11 }, controllerEpoch: 6 },
    ]);
  });

  it("keeps a reassignment's adding and removing replicas when it moves leadership or shrinks the ISR", () => {
    const moving: PartitionState = { ...state(1, [1, 2, 3, 4], 2), addingReplicas: [4], removingReplicas: [1] };
    const [failover] = decideLeaderChanges([topic('t', [moving], [[4, 2, 3, 1]])], live(2, 3, 4), 6);
    expect(failover.state).toEqual({
      leader: 4,
      leaderEpoch: 3,
      isr: [2, 3, 4],
      isrBrokerEpochs: { 2: 20, 3: 30, 4: 40 },
      addingReplicas: [4],
      removingReplicas: [1],
      controllerEpoch: 6,
    });
    const [shrink] = decideLeaderChanges([topic('t', [moving], [[4, 2, 3, 1]])], live(1, 2, 4), 6);
    expect(shrink.state).toMatchObject({ leader: 1, isr: [1, 2, 4], addingReplicas: [4], removingReplicas: [1] });
  });
});

describe('decideLeaderChanges: a restarted broker is a failure followed by a start-up', () => {
  it('moves the leadership of a restarted leader to another ISR member with epoch + 1, though it never lapsed', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2, 3], 4)])], restarted(live(1, 2, 3), 1), 7);
    expect(states(changes)).toEqual([
      { leader: 2, leaderEpoch: 5, isr: [2, 3], isrBrokerEpochs: { 2: 20, 3: 30 }, controllerEpoch: 7 },
    ]);
  });

  it('decides the same when the restarted broker is itself the controller: the decision reads only the states', () => {
    // broker 1 restarted, won the controller election, and decides about the partitions it led before
    const led = topic('t', [state(1, [1, 2], 2), state(1, [1, 3], 9)]);
    expect(states(decideLeaderChanges([led], restarted(live(1, 2, 3), 1), 12))).toEqual([
      { leader: 2, leaderEpoch: 3, isr: [2], isrBrokerEpochs: { 2: 20 }, controllerEpoch: 12 },
      { leader: 3, leaderEpoch: 10, isr: [3], isrBrokerEpochs: { 3: 30 }, controllerEpoch: 12 },
    ]);
  });

  it('takes a restarted follower out of the ISR, keeping the leader and its epoch', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2, 3], 4)])], restarted(live(1, 2, 3), 3), 7);
    expect(states(changes)).toEqual([
      { leader: 1, leaderEpoch: 4, isr: [1, 2], isrBrokerEpochs: { 1: 10, 2: 20 }, controllerEpoch: 7 },
    ]);
  });

  it('gives a restarted sole replica (RF 1) its partition back with leader epoch + 1, as its new incarnation', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1], 3)])], restarted(live(1), 1), 2);
    expect(states(changes)).toEqual([
      { leader: 1, leaderEpoch: 4, isr: [1], isrBrokerEpochs: { 1: 11 }, controllerEpoch: 2 },
    ]);
  });

  it('prefers the restarted last in-sync replica to an out-of-sync one, even with unclean election allowed', () => {
    const lastInSync = topic('t', [state(1, [1], 3)], [[2, 1, 3]]);
    const changes = decideLeaderChanges([lastInSync], restarted(live(1, 2, 3), 1), 2, () => true);
    expect(states(changes)).toEqual([
      { leader: 1, leaderEpoch: 4, isr: [1], isrBrokerEpochs: { 1: 11 }, controllerEpoch: 2 },
    ]);
  });

  it('counts an ISR member without a recorded incarnation as failed', () => {
    const unrecorded: PartitionState = { leader: 1, leaderEpoch: 5, isr: [1, 2], controllerEpoch: 1 };
    expect(states(decideLeaderChanges([topic('t', [unrecorded])], live(1, 2), 3))).toEqual([
      { leader: 1, leaderEpoch: 6, isr: [1], isrBrokerEpochs: { 1: 10 }, controllerEpoch: 3 },
    ]);
  });

  it('never leaves a leader that is not live as the incarnation its ISR admitted, nor reuses its epoch', () => {
    const brokers = [1, 2, 3];
    const arbitraryState = fc.record({
      leader: fc.constantFrom(-1, 1, 2, 3),
      leaderEpoch: fc.nat(20),
      members: fc.subarray(brokers, { minLength: 1 }),
      admitted: fc.array(fc.constantFrom(0, 1, 2), { minLength: 3, maxLength: 3 }),
    });
    const arbitraryLive = fc.array(fc.constantFrom<number | null>(null, 0, 1, 2), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(arbitraryState, arbitraryLive, fc.boolean(), (input, liveEpochs, unclean) => {
        const isr = input.leader === -1 || input.members.includes(input.leader) ? input.members : [input.leader];
        const before: PartitionState = {
          leader: input.leader,
          leaderEpoch: input.leaderEpoch,
          isr,
          isrBrokerEpochs: Object.fromEntries(isr.map((b) => [String(b), 10 * b + input.admitted[b - 1]])),
          controllerEpoch: 1,
        };
        const incarnations: LiveIncarnations = new Map(
          brokers.flatMap((b) => (liveEpochs[b - 1] === null ? [] : [[b, 10 * b + liveEpochs[b - 1]!] as const])),
        );
        const [change] = decideLeaderChanges([topic('t', [before], [brokers])], incarnations, 2, () => unclean);
        const after = change?.state ?? before;
        if (after.leader !== -1) expect(isCurrentMember(after, after.leader, incarnations)).toBe(true);
        for (const member of after.isr) {
          if (after.leader !== -1) expect(isCurrentMember(after, member, incarnations)).toBe(true);
        }
        const sameLeadership =
          after.leader === before.leader &&
          after.isrBrokerEpochs?.[after.leader] === before.isrBrokerEpochs?.[before.leader];
        expect(after.leaderEpoch).toBe(sameLeadership ? before.leaderEpoch : before.leaderEpoch + 1);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('LeaderDecisions (the controller pass)', () => {
  const topicsOf = (...topics: TopicMetadata[]) => new Map(topics.map((t) => [t.assignment.name, t]));
  const noUnclean = () => false;
  const defaults = {};

  it('does not walk the partitions again while the topics map, incarnations, epoch and policy inputs are the same', () => {
    const decisions = new LeaderDecisions();
    const topics = topicsOf(topic('t', [state(1, [1]), state(2, [2, 1])]));
    const walks = vi.spyOn(topics, 'values');
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    // a live map built afresh with the same incarnations is the same input
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    expect(decisions.decide(topics, live(2, 1), 5, noUnclean, defaults)).toEqual([]);
    expect(walks).toHaveBeenCalledTimes(1);
  });

  it('elects again after a quiet pass when a broker is gone or restarted, or the metadata or epoch changed', () => {
    const decisions = new LeaderDecisions();
    const topics = topicsOf(topic('t', [state(1, [1, 2], 3)]));
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    const moved = { leader: 2, leaderEpoch: 4, isr: [2], isrBrokerEpochs: { 2: 20 }, controllerEpoch: 5 };
    expect(states(decisions.decide(topics, live(2), 5, noUnclean, defaults))).toEqual([moved]);
    // a pass that decided changes is not remembered: the same inputs decide them again
    expect(states(decisions.decide(topics, live(2), 5, noUnclean, defaults))).toEqual([moved]);
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    expect(states(decisions.decide(topics, restarted(live(1, 2), 1), 5, noUnclean, defaults))).toEqual([moved]);
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    // a new topics map (the metadata changed): a state whose leader is gone
    const changed = topicsOf(topic('t', [state(3, [3, 1], 3)], [[1, 2]]));
    expect(states(decisions.decide(changed, live(1, 2), 5, noUnclean, defaults))).toEqual([
      { leader: 1, leaderEpoch: 4, isr: [1], isrBrokerEpochs: { 1: 10 }, controllerEpoch: 5 },
    ]);
    // another controller epoch walks again (and stamps it on what it decides)
    const walks = vi.spyOn(topics, 'values');
    expect(decisions.decide(topics, live(1, 2), 5, noUnclean, defaults)).toEqual([]);
    expect(decisions.decide(topics, live(1, 2), 6, noUnclean, defaults)).toEqual([]);
    expect(walks).toHaveBeenCalledTimes(2);
  });

  it('walks again when the unclean-election inputs changed: a partition offline under one policy leads under another', () => {
    const decisions = new LeaderDecisions();
    const offline: PartitionState = { ...state(-1, [1], 4) };
    const topics = topicsOf(topic('t', [offline], [[1, 2]]));
    expect(decisions.decide(topics, live(2), 5, noUnclean, defaults)).toEqual([]);
    expect(
      states(decisions.decide(topics, live(2), 5, () => true, { 'unclean.leader.election.enable': 'true' })),
    ).toEqual([{ leader: 2, leaderEpoch: 5, isr: [2], isrBrokerEpochs: { 2: 20 }, controllerEpoch: 5 }]);
  });
});
