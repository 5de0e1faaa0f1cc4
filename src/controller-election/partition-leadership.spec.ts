import { describe, expect, it } from 'vitest';

import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { decideLeaderChanges } from './partition-leadership.js';

function topic(name: string, states: PartitionState[]): TopicMetadata {
  return {
    assignment: { topicId: `${name}-id`, name, replicas: states.map((state) => [...state.isr]) },
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
  it('leaves partitions whose leader is live alone', () => {
    expect(decideLeaderChanges([topic('t', [state(1, [1]), state(2, [2, 1])])], new Set([1, 2]), 5)).toEqual([]);
  });

  it('moves leadership to a live ISR member, or takes the partition offline keeping the ISR', () => {
    const changes = decideLeaderChanges([topic('t', [state(1, [1, 2], 3), state(1, [1], 7)])], new Set([2, 3]), 5);
    expect(changes).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 1,
        state: { leader: 2, leaderEpoch: 4, isr: [1, 2], controllerEpoch: 5 },
      },
      {
        topic: 't',
        partition: 1,
        expectedVersion: 2,
        state: { leader: -1, leaderEpoch: 8, isr: [1], controllerEpoch: 5 },
      },
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
});
