import { describe, expect, it } from 'vitest';

import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { mergeSnapshots } from './metadata-restore.js';

const state = (leader: number, leaderEpoch: number, controllerEpoch = 1): PartitionState => ({
  leader,
  leaderEpoch,
  isr: [leader],
  controllerEpoch,
});

function topic(name: string, id: string, states: PartitionState[], versions: number[], configs = {}): TopicMetadata {
  return {
    assignment: { topicId: id, name, replicas: states.map((s) => [s.leader]) },
    states,
    stateVersions: versions,
    configs,
  };
}

describe('mergeSnapshots', () => {
  it('takes the widest assignment and, per partition, the newest state by (leader epoch, version)', () => {
    const older = topic('t', 'id', [state(1, 2), state(2, 0)], [5, 1], { 'retention.ms': '1' });
    const newer = topic('t', 'id', [state(3, 1), state(2, 0), state(1, 0)], [9, 2, 1], { 'retention.ms': '2' });
    const [merged] = mergeSnapshots(
      [
        { incarnation: 'a', topics: [older] },
        { incarnation: 'a', topics: [newer] },
      ],
      7,
    );
    expect(merged.assignment).toEqual(newer.assignment);
    expect(merged.configs).toEqual({ 'retention.ms': '2' });
    expect(merged.states).toEqual([
      { leader: 1, leaderEpoch: 3, isr: [1], controllerEpoch: 7 },
      { leader: 2, leaderEpoch: 1, isr: [2], controllerEpoch: 7 },
      { leader: 1, leaderEpoch: 1, isr: [1], controllerEpoch: 7 },
    ]);
  });

  it('prefers the topic id created under the highest controller epoch when a name was reused', () => {
    const deleted = topic('t', 'old', [state(1, 9, 2)], [3]);
    const recreated = topic('t', 'new', [state(2, 0, 4)], [1]);
    const merged = mergeSnapshots(
      [
        { incarnation: 'a', topics: [deleted] },
        { incarnation: 'a', topics: [recreated] },
      ],
      5,
    );
    expect(merged.map((t) => t.assignment.topicId)).toEqual(['new']);
    expect(merged[0].states[0].leader).toBe(2);
  });

  it('restores every topic any broker knew', () => {
    const merged = mergeSnapshots(
      [
        { incarnation: null, topics: [topic('b', 'b', [state(1, 0)], [1])] },
        { incarnation: null, topics: [topic('a', 'a', [state(2, 0)], [1])] },
      ],
      1,
    );
    expect(merged.map((t) => t.assignment.name)).toEqual(['a', 'b']);
  });

  it("takes a new leader epoch above every replica's epoch checkpoint, not only above the snapshots' states", () => {
    // broker 1 led t-0 in epoch 6 (its checkpoint says so) but its snapshot only reached epoch 4
    const [merged] = mergeSnapshots(
      [
        { incarnation: 'a', topics: [topic('t', 'id', [state(1, 4)], [2])], logEpochs: { 't-0': 6 } },
        { incarnation: 'a', topics: [topic('t', 'id', [state(1, 3)], [1])], logEpochs: { 't-0': 3, 'u-0': 9 } },
      ],
      8,
    );
    expect(merged.states[0]).toEqual({ leader: 1, leaderEpoch: 7, isr: [1], controllerEpoch: 8 });
  });
});
