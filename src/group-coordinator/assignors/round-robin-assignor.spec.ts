import { describe, expect, it } from 'vitest';
import type { AssignorMember, TopicPartition } from './assignor.js';
import { roundRobinAssignor } from './round-robin-assignor.js';

// Examples from Kafka's RoundRobinAssignor documentation and RoundRobinAssignorTest; partitions are written
// topic-partition.

function member(memberId: string, topics: string[], groupInstanceId: string | null = null): AssignorMember {
  return { memberId, groupInstanceId, topics, owned: [] };
}

const render = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

function assign(members: AssignorMember[], partitionsPerTopic: Record<string, number>): Record<string, string[]> {
  const assignment = roundRobinAssignor.assign(members, new Map(Object.entries(partitionsPerTopic)));
  return Object.fromEntries(
    [...assignment].map(([memberId, partitions]) => [memberId, partitions.map(render)] as const),
  );
}

describe('roundRobinAssignor', () => {
  it("deals all partitions in turn across topics (Kafka's documented example)", () => {
    const members = [member('C0', ['t0', 't1']), member('C1', ['t0', 't1'])];
    expect(assign(members, { t0: 3, t1: 3 })).toEqual({
      C0: ['t0-0', 't0-2', 't1-1'],
      C1: ['t0-1', 't1-0', 't1-2'],
    });
  });

  it("skips members not subscribed to a partition's topic, which can unbalance (Kafka's documented example)", () => {
    const members = [member('C0', ['t0']), member('C1', ['t0', 't1']), member('C2', ['t0', 't1', 't2'])];
    expect(assign(members, { t0: 1, t1: 2, t2: 3 })).toEqual({
      C0: ['t0-0'],
      C1: ['t1-0'],
      C2: ['t1-1', 't2-0', 't2-1', 't2-2'],
    });
  });

  it('continues the deal after the member that took the last partition', () => {
    const members = [
      member('consumer1', ['topic1']),
      member('consumer2', ['topic1', 'topic2']),
      member('consumer3', ['topic1']),
    ];
    expect(assign(members, { topic1: 3, topic2: 2 })).toEqual({
      consumer1: ['topic1-0'],
      consumer2: ['topic1-1', 'topic2-0', 'topic2-1'],
      consumer3: ['topic1-2'],
    });
  });

  it('ignores topics without metadata and members without subscriptions', () => {
    expect(assign([member('C0', ['missing']), member('C1', [])], { t: 2 })).toEqual({ C0: [], C1: [] });
  });

  it("keeps static members on their partitions when their member ids change on restart (Kafka's example)", () => {
    const topics = ['t0', 't1'];
    const before = [member('C0', topics, 'I0'), member('C1', topics, 'I1'), member('C2', topics, 'I2')];
    const after = [member('C5', topics, 'I0'), member('C3', topics, 'I1'), member('C4', topics, 'I2')];
    expect(assign(before, { t0: 3, t1: 3 })).toEqual({
      C0: ['t0-0', 't1-0'],
      C1: ['t0-1', 't1-1'],
      C2: ['t0-2', 't1-2'],
    });
    expect(assign(after, { t0: 3, t1: 3 })).toEqual({
      C5: ['t0-0', 't1-0'],
      C3: ['t0-1', 't1-1'],
      C4: ['t0-2', 't1-2'],
    });
  });
});
