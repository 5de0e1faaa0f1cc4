import { describe, expect, it } from 'vitest';
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { decidePreferredLeaders } from './preferred-leader.js';

const state = (leader: number, isr: number[], leaderEpoch = 3): PartitionState => ({
  leader,
  leaderEpoch,
  isr,
  isrBrokerEpochs: Object.fromEntries(isr.map((broker) => [String(broker), 10 * broker])),
  controllerEpoch: 1,
});
const live = (...brokers: number[]) => new Map(brokers.map((broker) => [broker, 10 * broker]));

function topic(replicas: number[][], states: PartitionState[]): TopicMetadata {
  return {
    assignment: { topicId: 'id', name: 't', replicas },
    states,
    stateVersions: states.map(() => 7),
    configs: {},
  };
}

describe('decidePreferredLeaders', () => {
  it('gives a live, in-sync preferred replica its leadership back, with a new epoch and the same ISR', () => {
    const t = topic([[1, 2, 3]], [state(2, [1, 2, 3])]);
    expect(decidePreferredLeaders([t], live(1, 2, 3), 9, 10)).toEqual([
      {
        topic: 't',
        partition: 0,
        expectedVersion: 7,
        state: {
          leader: 1,
          leaderEpoch: 4,
          isr: [1, 2, 3],
          isrBrokerEpochs: { 1: 10, 2: 20, 3: 30 },
          controllerEpoch: 9,
        },
      },
    ]);
  });

  it('never moves leadership to a preferred replica that is down or out of the ISR', () => {
    const t = topic([[1, 2, 3]], [state(2, [2, 3])]);
    expect(decidePreferredLeaders([t], live(1, 2, 3), 9, 10)).toEqual([]);
    const down = topic([[1, 2, 3]], [state(2, [1, 2, 3])]);
    expect(decidePreferredLeaders([down], live(2, 3), 9, 10)).toEqual([]);
  });

  it('acts only on brokers whose imbalance is above the percentage', () => {
    // broker 1 prefers 10 partitions and leads 9 of them: 10% imbalance, not above 10
    const replicas = Array.from({ length: 10 }, () => [1, 2]);
    const states = replicas.map((_, i) => state(i === 0 ? 2 : 1, [1, 2]));
    expect(decidePreferredLeaders([topic(replicas, states)], live(1, 2), 9, 10)).toEqual([]);
    states[1] = state(2, [1, 2]);
    expect(decidePreferredLeaders([topic(replicas, states)], live(1, 2), 9, 10).map((c) => c.partition)).toEqual([
      0, 1,
    ]);
  });
});
