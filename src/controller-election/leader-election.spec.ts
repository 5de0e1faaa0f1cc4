import { describe, expect, it } from 'vitest';
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { decideElection } from './leader-election.js';

/** Broker b runs as incarnation (broker epoch) 10 * b, as each ISR admitted it. */
const state = (leader: number, isr: number[]): PartitionState => ({
  leader,
  leaderEpoch: 3,
  isr,
  isrBrokerEpochs: Object.fromEntries(isr.map((broker) => [String(broker), 10 * broker])),
  controllerEpoch: 1,
});

function topic(replicas: number[], partitionState: PartitionState): TopicMetadata {
  return {
    assignment: { topicId: 'id', name: 't', replicas: [replicas] },
    states: [partitionState],
    stateVersions: [5],
    configs: {},
  };
}

const live = (...brokers: number[]) => new Map(brokers.map((broker) => [broker, 10 * broker]));

describe('decideElection', () => {
  it('PREFERRED: the first replica leads when it is live and in the ISR, with a new epoch', () => {
    expect(decideElection('PREFERRED', topic([1, 2, 3], state(2, [1, 2, 3])), 0, live(1, 2, 3), 9)).toEqual({
      ok: true,
      change: {
        topic: 't',
        partition: 0,
        expectedVersion: 5,
        state: {
          leader: 1,
          leaderEpoch: 4,
          isr: [1, 2, 3],
          isrBrokerEpochs: { 1: 10, 2: 20, 3: 30 },
          controllerEpoch: 9,
        },
      },
    });
  });

  it('PREFERRED: not needed, or not available when the preferred replica is down or out of sync', () => {
    const elect = (partitionState: PartitionState, brokers: Map<number, number>) =>
      decideElection('PREFERRED', topic([1, 2, 3], partitionState), 0, brokers, 9);
    expect(elect(state(1, [1, 2, 3]), live(1, 2, 3))).toMatchObject({ ok: false, error: 'ELECTION_NOT_NEEDED' });
    expect(elect(state(2, [2, 3]), live(1, 2, 3))).toMatchObject({ error: 'PREFERRED_LEADER_NOT_AVAILABLE' });
    expect(elect(state(2, [1, 2, 3]), live(2, 3))).toMatchObject({ error: 'PREFERRED_LEADER_NOT_AVAILABLE' });
    // broker 1 restarted: live, but not the incarnation the ISR admitted
    expect(elect(state(2, [1, 2, 3]), new Map([...live(2, 3), [1, 11]]))).toMatchObject({
      error: 'PREFERRED_LEADER_NOT_AVAILABLE',
    });
  });

  it('UNCLEAN: only without a live leader; a live ISR member first, else any live replica', () => {
    const elect = (partitionState: PartitionState, brokers: Map<number, number>) =>
      decideElection('UNCLEAN', topic([1, 2, 3], partitionState), 0, brokers, 9);
    expect(elect(state(2, [1, 2, 3]), live(1, 2, 3))).toMatchObject({ error: 'ELECTION_NOT_NEEDED' });
    expect(elect(state(-1, [1, 3]), live(2, 3))).toMatchObject({
      ok: true,
      change: { state: { leader: 3, isr: [3] } },
    });
    expect(elect(state(-1, [1]), live(2, 3))).toMatchObject({
      ok: true,
      change: { state: { leader: 2, isr: [2], isrBrokerEpochs: { 2: 20 }, leaderEpoch: 4 } },
    });
    expect(elect(state(-1, [1]), live())).toMatchObject({ error: 'ELIGIBLE_LEADERS_NOT_AVAILABLE' });
  });

  it('an unknown partition is UNKNOWN_TOPIC_OR_PARTITION', () => {
    expect(decideElection('PREFERRED', topic([1], state(1, [1])), 3, live(1), 9)).toMatchObject({
      error: 'UNKNOWN_TOPIC_OR_PARTITION',
    });
  });
});
