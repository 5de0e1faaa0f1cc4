import { describe, expect, it } from 'vitest';
import type { AssignorMember, TopicPartition } from './assignor.js';
import { rangeAssignor } from './range-assignor.js';

// Examples from Kafka's RangeAssignor documentation and RangeAssignorTest; partitions are written topic-partition.

function member(memberId: string, topics: string[], groupInstanceId: string | null = null): AssignorMember {
  return { memberId, groupInstanceId, topics, owned: [] };
}

const render = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

function assign(members: AssignorMember[], partitionsPerTopic: Record<string, number>): Record<string, string[]> {
  const assignment = rangeAssignor.assign(members, new Map(Object.entries(partitionsPerTopic)));
  return Object.fromEntries(
    [...assignment].map(([memberId, partitions]) => [memberId, partitions.map(render)] as const),
  );
}

describe('rangeAssignor', () => {
  it("gives the first member the extra partition of each topic (Kafka's documented example)", () => {
    const members = [member('C0', ['t0', 't1']), member('C1', ['t0', 't1'])];
    expect(assign(members, { t0: 3, t1: 3 })).toEqual({
      C0: ['t0-0', 't0-1', 't1-0', 't1-1'],
      C1: ['t0-2', 't1-2'],
    });
  });

  it('divides each topic among its own subscribers only', () => {
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

  it('assigns one member all partitions of its topics, and nothing of topics nobody subscribes to', () => {
    expect(assign([member('C0', ['topic1', 'topic2'])], { topic1: 1, topic2: 2, other: 3 })).toEqual({
      C0: ['topic1-0', 'topic2-0', 'topic2-1'],
    });
  });

  it('leaves members with nothing when there are fewer partitions than members', () => {
    expect(assign([member('C0', ['t']), member('C1', ['t'])], { t: 1 })).toEqual({ C0: ['t-0'], C1: [] });
  });

  it('ignores topics without metadata and members without subscriptions', () => {
    expect(assign([member('C0', ['missing']), member('C1', [])], { t: 2 })).toEqual({ C0: [], C1: [] });
  });

  it('orders static members by group instance id, before dynamic members', () => {
    const members = [
      member('a-dynamic', ['t']),
      member('z-static', ['t'], 'instance-2'),
      member('y-static', ['t'], 'instance-1'),
    ];
    expect(assign(members, { t: 3 })).toEqual({ 'y-static': ['t-0'], 'z-static': ['t-1'], 'a-dynamic': ['t-2'] });
  });

  it('keeps static members on their partitions when their member ids change on restart', () => {
    const before = [member('C0', ['t'], 'I0'), member('C1', ['t'], 'I1'), member('C2', ['t'], 'I2')];
    const after = [member('C5', ['t'], 'I0'), member('C3', ['t'], 'I1'), member('C4', ['t'], 'I2')];
    expect(assign(before, { t: 6 })).toEqual({ C0: ['t-0', 't-1'], C1: ['t-2', 't-3'], C2: ['t-4', 't-5'] });
    expect(assign(after, { t: 6 })).toEqual({ C5: ['t-0', 't-1'], C3: ['t-2', 't-3'], C4: ['t-4', 't-5'] });
  });
});
