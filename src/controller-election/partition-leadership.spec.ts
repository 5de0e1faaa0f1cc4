import { describe, expect, it } from 'vitest';

import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { decideLeaderChanges } from './partition-leadership.js';

function topic(name: string, states: PartitionState[], replicas?: number[][]): TopicMetadata {
  return {
    assignment: { topicId: `${name}-id`, name, replicas: replicas ?? states.map((state) => [...state.isr]) },
    states,
    stateVersions: states.map((_, i) => i + 1),
    configs: {},
  };
}

const state = (leader: number, isr: number[], leaderEpoch = 0): PartitionState => ({
  leader,
  leaderEpoch,
  isr,
  controllerEpoch: 1,
});

describe('decideLeaderChanges', () => {
  it('leaves partitions whose leader and ISR are live alone', () => {
    expect(decideLeaderChanges([topic('t', [state(1, [1]), state(2, [2, 1])])], new Set([1, 2]), 5)).toEqual([]);
  });

  it('moves leadership to a live ISR member without the dead ones, or takes the partition offline keeping the ISR', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2], 3), state(1, [1], 7)])], new Set([2, 3]), 5);
    expect(changes).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 1,
        state: { leader: 2, leaderEpoch: 4, isr: [2], controllerEpoch: 5 },
      },
      {
        topic: 't',
        partition: 1,
        expectedVersion: 2,
        state: { leader: -1, leaderEpoch: 8, isr: [1], controllerEpoch: 5 },
      },
    ]);
  });

  it('elects in replica order among the live ISR, never an out-of-sync replica', () => {
    // replicas in order 3, 1, 2; the ISR lists 1 before 3 but 3 comes first in the assignment
    const changes = decideLeaderChanges([topic('t', [state(2, [1, 2, 3], 0)], [[2, 3, 1]])], new Set([1, 3]), 2);
    expect(changes.map((change) => change.state)).toEqual([
      { leader: 3, leaderEpoch: 1, isr: [1, 3], controllerEpoch: 2 },
    ]);
    const outOfSync = topic('t', [state(2, [2, 3], 4)], [[2, 3, 1]]);
    expect(decideLeaderChanges([outOfSync], new Set([1]), 2).map((change) => change.state)).toEqual([
      { leader: -1, leaderEpoch: 5, isr: [2, 3], controllerEpoch: 2 },
    ]);
  });

  it('elects an out-of-sync replica only when the topic allows unclean election', () => {
    const outOfSync = topic('t', [state(2, [2, 3], 4)], [[2, 3, 1]]);
    const changes = decideLeaderChanges([outOfSync], new Set([1]), 2, (t) => t.assignment.name === 't');
    expect(changes.map((change) => change.state)).toEqual([
      { leader: 1, leaderEpoch: 5, isr: [1], controllerEpoch: 2 },
    ]);
  });

  it('removes dead followers from the ISR of a live leader, keeping its epoch', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2, 3], 6)])], new Set([1, 3]), 4);
    expect(changes.map((change) => change.state)).toEqual([
      { leader: 1, leaderEpoch: 6, isr: [1, 3], controllerEpoch: 4 },
    ]);
  });

  it('brings an offline partition back when an ISR member returns, and only then', () => {
    const offline = topic('t', [state(-1, [1], 8)]);
    expect(decideLeaderChanges([offline], new Set([2, 3]), 6)).toEqual([]);
    expect(decideLeaderChanges([offline], new Set([1, 2]), 6)).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 1,
        state: { leader: 1, leaderEpoch: 9, isr: [1], controllerEpoch: 6 },
      },
    ]);
  });

  it("keeps a reassignment's adding and removing replicas when it moves leadership or shrinks the ISR", () => {
    const moving: PartitionState = { ...state(1, [1, 2, 3, 4], 2), addingReplicas: [4], removingReplicas: [1] };
    const [failover] = decideLeaderChanges([topic('t', [moving], [[4, 2, 3, 1]])], new Set([2, 3, 4]), 6);
    expect(failover.state).toEqual({
      leader: 4,
      leaderEpoch: 3,
      isr: [2, 3, 4],
      addingReplicas: [4],
      removingReplicas: [1],
      controllerEpoch: 6,
    });
    const [shrink] = decideLeaderChanges([topic('t', [moving], [[4, 2, 3, 1]])], new Set([1, 2, 4]), 6);
    expect(shrink.state).toMatchObject({ leader: 1, isr: [1, 2, 4], addingReplicas: [4], removingReplicas: [1] });
  });
});
