import { describe, expect, it } from 'vitest';
import type { AssignorMember, TopicPartition } from './assignor.js';
import { stickyAssignor } from './sticky-assignor.js';

// Examples from Kafka's StickyAssignor documentation; partitions are written topic-partition. Kafka lists each
// member's partitions in the order it assigned them; Brook's sticky assignor returns them sorted.

function member(memberId: string, topics: string[], owned: string[] = []): AssignorMember {
  return { memberId, groupInstanceId: null, topics, owned: owned.map(parse) };
}

function parse(text: string): TopicPartition {
  const separator = text.lastIndexOf('-');
  return { topic: text.slice(0, separator), partition: Number(text.slice(separator + 1)) };
}

const render = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

function assign(members: AssignorMember[], partitionsPerTopic: Record<string, number>): Record<string, string[]> {
  const assignment = stickyAssignor.assign(members, new Map(Object.entries(partitionsPerTopic)));
  return Object.fromEntries(
    [...assignment].map(([memberId, partitions]) => [memberId, partitions.map(render)] as const),
  );
}

const FOUR_TOPICS = ['t0', 't1', 't2', 't3'];
const TWO_PARTITIONS_EACH = { t0: 2, t1: 2, t2: 2, t3: 2 };

describe('stickyAssignor', () => {
  it("hands a departed member's partitions to the others and moves nothing else (Kafka's example 1)", () => {
    const members = [member('C0', FOUR_TOPICS, ['t0-0', 't1-1', 't3-0']), member('C2', FOUR_TOPICS, ['t1-0', 't2-1'])];
    expect(assign(members, TWO_PARTITIONS_EACH)).toEqual({
      C0: ['t0-0', 't1-1', 't2-0', 't3-0'],
      C2: ['t0-1', 't1-0', 't2-1', 't3-1'],
    });
  });

  it("balances better than round robin when subscriptions differ (Kafka's example 2)", () => {
    const members = [member('C0', ['t0']), member('C1', ['t0', 't1']), member('C2', ['t0', 't1', 't2'])];
    expect(assign(members, { t0: 1, t1: 2, t2: 3 })).toEqual({
      C0: ['t0-0'],
      C1: ['t1-0', 't1-1'],
      C2: ['t2-0', 't2-1', 't2-2'],
    });
  });

  it("keeps five of six assignments when a member leaves (Kafka's example 2, continued)", () => {
    const members = [
      member('C1', ['t0', 't1'], ['t1-0', 't1-1']),
      member('C2', ['t0', 't1', 't2'], ['t2-0', 't2-1', 't2-2']),
    ];
    expect(assign(members, { t0: 1, t1: 2, t2: 3 })).toEqual({
      C1: ['t0-0', 't1-0', 't1-1'],
      C2: ['t2-0', 't2-1', 't2-2'],
    });
  });

  it('takes the excess from an over-loaded member for a new one, keeping the rest', () => {
    const members = [member('C0', ['t'], ['t-0', 't-1', 't-2', 't-3']), member('C1', ['t'])];
    expect(assign(members, { t: 4 })).toEqual({ C0: ['t-0', 't-1'], C1: ['t-2', 't-3'] });
  });

  it('drops owned partitions that no longer exist or whose topic the member left', () => {
    const members = [member('C0', ['t'], ['t-0', 't-5', 'gone-0']), member('C1', ['t'], ['t-1'])];
    expect(assign(members, { t: 4, gone: 1 })).toEqual({ C0: ['t-0', 't-2'], C1: ['t-1', 't-3'] });
  });

  it('lets neither claimant keep a partition that two members claim', () => {
    const members = [member('C0', ['t'], ['t-0', 't-1']), member('C1', ['t'], ['t-1', 't-2']), member('C2', ['t'])];
    expect(assign(members, { t: 6 })).toEqual({ C0: ['t-0', 't-3'], C1: ['t-2', 't-4'], C2: ['t-1', 't-5'] });
  });
});
