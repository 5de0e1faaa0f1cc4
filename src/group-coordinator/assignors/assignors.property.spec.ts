import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssignorMember, TopicPartition } from './assignor.js';
import { ASSIGNOR_NAMES, assignorFor } from './assignors.js';
import { stickyAssignor } from './sticky-assignor.js';

// Properties every assignor must have, and the stickiness properties of the sticky assignor, over random groups.

interface Group {
  readonly members: readonly AssignorMember[];
  readonly partitionsPerTopic: ReadonlyMap<string, number>;
}

type Assignment = Map<string, TopicPartition[]>;

const KNOWN_TOPICS = ['a', 'b', 'c'];
/** Subscribed to by some members but absent from the metadata: must be ignored. */
const UNKNOWN_TOPIC = 'unknown';

const key = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

const memberIdArbitrary = fc.string({ minLength: 1, maxLength: 4 });

const ownedArbitrary = fc.array(
  fc.record({ topic: fc.constantFrom(...KNOWN_TOPICS, UNKNOWN_TOPIC), partition: fc.integer({ min: -1, max: 13 }) }),
  { maxLength: 8 },
);

/** Any group: mixed static and dynamic members, differing subscriptions, stale or contested owned partitions. */
const groupArbitrary: fc.Arbitrary<Group> = fc.record({
  members: fc.uniqueArray(
    fc.record({
      memberId: memberIdArbitrary,
      groupInstanceId: fc.option(fc.string({ maxLength: 4 }), { nil: null }),
      topics: fc.subarray([...KNOWN_TOPICS, UNKNOWN_TOPIC]),
      owned: ownedArbitrary,
    }),
    { minLength: 1, maxLength: 8, selector: (member) => member.memberId },
  ),
  partitionsPerTopic: fc
    .tuple(fc.nat(12), fc.nat(12), fc.nat(12))
    .map((counts) => new Map(KNOWN_TOPICS.map((topic, index) => [topic, counts[index]]))),
});

function singleTopicMember(memberId: string, owned: readonly TopicPartition[] = []): AssignorMember {
  return { memberId, groupInstanceId: null, topics: ['t'], owned };
}

/** One topic, every member subscribed to it, owned partitions anything (stale, out of range, contested). */
const singleTopicGroupArbitrary: fc.Arbitrary<Group> = fc
  .record({
    memberIds: fc.uniqueArray(memberIdArbitrary, { minLength: 1, maxLength: 10 }),
    partitionCount: fc.nat(40),
  })
  .chain(({ memberIds, partitionCount }) =>
    fc
      .array(fc.array(fc.integer({ min: 0, max: partitionCount + 1 }), { maxLength: 12 }), {
        minLength: memberIds.length,
        maxLength: memberIds.length,
      })
      .map((ownedPartitions) => ({
        members: memberIds.map((memberId, index) =>
          singleTopicMember(
            memberId,
            ownedPartitions[index].map((partition) => ({ topic: 't', partition })),
          ),
        ),
        partitionsPerTopic: new Map([['t', partitionCount]]),
      })),
  );

function subscribes(member: AssignorMember, topic: string): boolean {
  return member.topics.includes(topic);
}

function expectEveryPartitionOwnedOnceBySubscriber({ members, partitionsPerTopic }: Group, assignment: Assignment) {
  expect([...assignment.keys()].sort()).toEqual(members.map((member) => member.memberId).sort());
  const expected = [...partitionsPerTopic]
    .filter(([topic]) => members.some((member) => subscribes(member, topic)))
    .flatMap(([topic, partitionCount]) =>
      Array.from({ length: partitionCount }, (_, partition) => `${topic}-${partition}`),
    );
  const owners = new Map<string, string[]>();
  for (const [memberId, partitions] of assignment) {
    const member = members.find((candidate) => candidate.memberId === memberId);
    for (const partition of partitions) {
      expect(member !== undefined && subscribes(member, partition.topic)).toBe(true);
      owners.set(key(partition), [...(owners.get(key(partition)) ?? []), memberId]);
    }
  }
  expect([...owners.keys()].sort()).toEqual(expected.sort());
  for (const partitionOwners of owners.values()) expect(partitionOwners).toHaveLength(1);
}

function countSpread(counts: readonly number[]): number {
  return counts.length === 0 ? 0 : Math.max(...counts) - Math.min(...counts);
}

/** Entries sorted by memberId, so that assignments can be compared regardless of the Map's order. */
function normalized(assignment: Assignment): [string, string[]][] {
  return [...assignment]
    .map(([memberId, partitions]): [string, string[]] => [memberId, partitions.map(key)])
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}

/** Per member, its valid owned partitions that no other member claims: the ones a sticky assignor may keep. */
function uncontestedOwned({ members, partitionsPerTopic }: Group): Set<string>[] {
  const validOwned = members.map(
    (member) =>
      new Set(
        member.owned
          .filter(({ topic, partition }) => subscribes(member, topic) && partition >= 0)
          .filter(({ topic, partition }) => partition < (partitionsPerTopic.get(topic) ?? 0))
          .map(key),
      ),
  );
  const claimants = new Map<string, number>();
  for (const owned of validOwned) {
    for (const partition of owned) claimants.set(partition, (claimants.get(partition) ?? 0) + 1);
  }
  return validOwned.map((owned) => new Set([...owned].filter((partition) => claimants.get(partition) === 1)));
}

/**
 * The quotas of a balanced assignment of `partitionCount` partitions that lets members keep the most of what they
 * own: each member's quota is floor or ceil of partitionCount / members, and the ceil ones go to the members that own
 * the most. Returned in the order of `ownedCounts`.
 */
function quotasFavouringOwners(ownedCounts: readonly number[], partitionCount: number): number[] {
  const quota = Math.floor(partitionCount / ownedCounts.length);
  const membersWithExtra = partitionCount % ownedCounts.length;
  const byOwnedDescending = ownedCounts.map((_, index) => index).sort((l, r) => ownedCounts[r] - ownedCounts[l]);
  const quotas = ownedCounts.map(() => quota);
  for (const index of byOwnedDescending.slice(0, membersWithExtra)) quotas[index]++;
  return quotas;
}

describe.each(ASSIGNOR_NAMES)('%s assignor', (name) => {
  const assignor = assignorFor(name);

  it('gives every subscribed partition exactly one owner, a subscriber of its topic', () => {
    fc.assert(
      fc.property(groupArbitrary, (group) => {
        expectEveryPartitionOwnedOnceBySubscriber(group, assignor.assign(group.members, group.partitionsPerTopic));
      }),
    );
  });

  it('balances a single topic over equal subscriptions to within one partition', () => {
    fc.assert(
      fc.property(singleTopicGroupArbitrary, (group) => {
        const assignment = assignor.assign(group.members, group.partitionsPerTopic);
        expect(countSpread([...assignment.values()].map((partitions) => partitions.length))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is deterministic: the same group in any member order and owned order gets the same assignment', () => {
    const shuffledGroupArbitrary = groupArbitrary.chain((group) =>
      fc.tuple(
        fc.constant(group),
        fc.shuffledSubarray([...group.members], { minLength: group.members.length, maxLength: group.members.length }),
      ),
    );
    fc.assert(
      fc.property(shuffledGroupArbitrary, ([group, shuffledMembers]) => {
        const reordered = shuffledMembers.map((member) => ({ ...member, owned: [...member.owned].reverse() }));
        const expected = normalized(assignor.assign(group.members, group.partitionsPerTopic));
        expect(normalized(assignor.assign(group.members, group.partitionsPerTopic))).toEqual(expected);
        expect(normalized(assignor.assign(reordered, group.partitionsPerTopic))).toEqual(expected);
      }),
    );
  });
});

describe('range assignor', () => {
  it("balances each topic over that topic's subscribers to within one partition", () => {
    fc.assert(
      fc.property(groupArbitrary, (group) => {
        const assignment = assignorFor('range').assign(group.members, group.partitionsPerTopic);
        for (const topic of KNOWN_TOPICS) {
          const subscribers = group.members.filter((member) => subscribes(member, topic));
          const counts = subscribers.map(
            (member) => (assignment.get(member.memberId) ?? []).filter((partition) => partition.topic === topic).length,
          );
          expect(countSpread(counts)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});

describe('sticky assignor', () => {
  it('balances members with identical subscriptions to within one partition, whatever the others subscribe to', () => {
    fc.assert(
      fc.property(groupArbitrary, (group) => {
        const assignment = stickyAssignor.assign(group.members, group.partitionsPerTopic);
        const countsBySubscription = new Map<string, number[]>();
        for (const member of group.members) {
          const subscription = [...new Set(member.topics)].sort().join(',');
          const count = assignment.get(member.memberId)?.length ?? 0;
          countsBySubscription.set(subscription, [...(countsBySubscription.get(subscription) ?? []), count]);
        }
        for (const counts of countsBySubscription.values()) expect(countSpread(counts)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('keeps as many owned partitions as any balanced assignment could (single topic, equal subscriptions)', () => {
    fc.assert(
      fc.property(singleTopicGroupArbitrary, (group) => {
        const assignment = stickyAssignor.assign(group.members, group.partitionsPerTopic);
        const keepable = uncontestedOwned(group);
        const kept = group.members.reduce(
          (total, member, index) =>
            total + (assignment.get(member.memberId) ?? []).filter((p) => keepable[index].has(key(p))).length,
          0,
        );
        const keepableCounts = keepable.map((owned) => owned.size);
        const quotas = quotasFavouringOwners(keepableCounts, group.partitionsPerTopic.get('t') ?? 0);
        const maximumKept = keepableCounts.reduce((total, owned, index) => total + Math.min(owned, quotas[index]), 0);
        expect(kept).toBe(maximumKept);
      }),
    );
  });

  it('moves only what balance needs when members join and leave a balanced group (single topic)', () => {
    const rebalanceArbitrary = fc
      .record({
        previousMemberIds: fc.uniqueArray(memberIdArbitrary, { minLength: 1, maxLength: 8 }),
        partitionCount: fc.nat(40),
        joiningCount: fc.nat(4),
      })
      .chain(({ previousMemberIds, partitionCount, joiningCount }) =>
        fc.record({
          previousMemberIds: fc.constant(previousMemberIds),
          partitionOrder: fc.shuffledSubarray(
            Array.from({ length: partitionCount }, (_, partition) => ({ topic: 't', partition })),
            { minLength: partitionCount, maxLength: partitionCount },
          ),
          leavingMemberIds: fc.subarray(previousMemberIds),
          joiningMemberIds: fc.constant(Array.from({ length: joiningCount }, (_, index) => `joining-${index}`)),
        }),
      );
    fc.assert(
      fc.property(rebalanceArbitrary, ({ previousMemberIds, partitionOrder, leavingMemberIds, joiningMemberIds }) => {
        const previous = dealBalanced(previousMemberIds, partitionOrder);
        const stayingMemberIds = previousMemberIds.filter((memberId) => !leavingMemberIds.includes(memberId));
        fc.pre(stayingMemberIds.length + joiningMemberIds.length > 0);
        const members = [
          ...stayingMemberIds.map((memberId) => singleTopicMember(memberId, previous.get(memberId))),
          ...joiningMemberIds.map((memberId) => singleTopicMember(memberId)),
        ];
        const assignment = stickyAssignor.assign(members, new Map([['t', partitionOrder.length]]));

        const previousOwner = new Map(
          [...previous].flatMap(([memberId, owned]) => owned.map((p) => [key(p), memberId])),
        );
        const moved = [...assignment].reduce(
          (total, [memberId, partitions]) =>
            total + partitions.filter((partition) => previousOwner.get(key(partition)) !== memberId).length,
          0,
        );
        const leftBehind = leavingMemberIds.reduce(
          (total, memberId) => total + (previous.get(memberId)?.length ?? 0),
          0,
        );
        const quotas = quotasFavouringOwners(
          members.map((member) => member.owned.length),
          partitionOrder.length,
        );
        const overQuota = members.reduce(
          (total, member, index) => total + Math.max(0, member.owned.length - quotas[index]),
          0,
        );
        expect(moved).toBe(leftBehind + overQuota);
      }),
    );
  });

  it('returns a balanced owned assignment unchanged when membership is unchanged', () => {
    const stableGroupArbitrary = fc
      .record({
        memberIds: fc.uniqueArray(memberIdArbitrary, { minLength: 1, maxLength: 8 }),
        partitionCounts: fc.tuple(fc.nat(12), fc.nat(12), fc.nat(12)),
      })
      .chain(({ memberIds, partitionCounts }) => {
        const partitions = KNOWN_TOPICS.flatMap((topic, index) =>
          Array.from({ length: partitionCounts[index] }, (_, partition) => ({ topic, partition })),
        );
        return fc.record({
          memberIds: fc.constant(memberIds),
          partitionsPerTopic: fc.constant(new Map(KNOWN_TOPICS.map((topic, index) => [topic, partitionCounts[index]]))),
          partitionOrder: fc.shuffledSubarray(partitions, {
            minLength: partitions.length,
            maxLength: partitions.length,
          }),
        });
      });
    fc.assert(
      fc.property(stableGroupArbitrary, ({ memberIds, partitionsPerTopic, partitionOrder }) => {
        const owned = dealBalanced(memberIds, partitionOrder);
        const members = memberIds.map((memberId) => ({
          memberId,
          groupInstanceId: null,
          topics: KNOWN_TOPICS,
          owned: owned.get(memberId) ?? [],
        }));
        const assignment = stickyAssignor.assign(members, partitionsPerTopic);
        for (const member of members) {
          expect((assignment.get(member.memberId) ?? []).map(key).sort()).toEqual(member.owned.map(key).sort());
        }
      }),
    );
  });
});

/** Deals items in contiguous runs whose lengths differ by at most one: a balanced assignment. */
function dealBalanced<Item>(memberIds: readonly string[], items: readonly Item[]): Map<string, Item[]> {
  const quota = Math.floor(items.length / memberIds.length);
  const membersWithExtra = items.length % memberIds.length;
  return new Map(
    memberIds.map((memberId, index) => {
      const start = quota * index + Math.min(index, membersWithExtra);
      return [memberId, items.slice(start, start + quota + (index < membersWithExtra ? 1 : 0))];
    }),
  );
}
