// A sticky assignor: balanced first, then as few partitions moved as balance allows. It has the aims and the balance
// criterion of Kafka's StickyAssignor, not its code, so the partitions it picks can differ from Kafka's.
//
// 1. Keep: each member keeps the partitions it `owned` that are still valid (a known partition of a topic it still
//    subscribes to) and that no other member also claims (a partition claimed twice is kept by neither).
// 2. Place: every other subscribed partition, in topic-then-partition order, goes to the least-loaded subscriber of
//    its topic.
// 3. Balance: while some member holds at least two partitions more than a subscriber of one of its partitions'
//    topics, the most-loaded such member gives such a partition (the one it received last) to the least-loaded
//    subscriber of the partition's topic. Ties always go to the first member in Kafka's member order
//    (member-order.ts).
//
// Guarantees: every partition of a subscribed, known topic has exactly one owner, a subscriber of that topic. Members
// with identical subscriptions end with counts that differ by at most one (step 3 stops only when no member could
// give a partition to one with two fewer). When all members subscribe to the same topics, the number of partitions
// that change owner is the minimum any balanced assignment needs: a member loses owned partitions only down to its
// quota, the members that owned the most keep the larger quota, and no partition moves twice. The result depends
// only on the input's content, not on the order of members or of their owned partitions.

import type { Assignor, AssignorMember, TopicPartition } from './assignor.js';
import { membersInKafkaOrder } from './member-order.js';
import { comparePartitions, partitionKey, partitionsOfTopic, subscribedTopics } from './topic-partitions.js';

interface Slot {
  readonly member: AssignorMember;
  readonly topics: ReadonlySet<string>;
  /** Kept partitions first, in partition order, then the ones received here, in the order received. */
  readonly partitions: TopicPartition[];
}

interface Move {
  readonly giver: Slot;
  readonly partitionIndex: number;
  readonly receiver: Slot;
}

export const stickyAssignor: Assignor = {
  name: 'sticky',
  assign(members, partitionsPerTopic) {
    const slots: Slot[] = membersInKafkaOrder(members).map((member) => ({
      member,
      topics: new Set(member.topics),
      partitions: [],
    }));
    const topics = subscribedTopics(members, partitionsPerTopic);
    keepUncontestedOwned(slots, new Map(topics.map(({ topic, partitionCount }) => [topic, partitionCount])));
    const kept = new Set(slots.flatMap((slot) => slot.partitions.map(partitionKey)));
    const partitions = topics.flatMap(partitionsOfTopic);
    for (const partition of partitions) {
      if (!kept.has(partitionKey(partition))) leastLoadedSubscriber(slots, partition.topic).partitions.push(partition);
    }
    balance(slots, partitions.length);
    return new Map(slots.map((slot) => [slot.member.memberId, [...slot.partitions].sort(comparePartitions)]));
  },
};

function keepUncontestedOwned(slots: readonly Slot[], partitionCounts: ReadonlyMap<string, number>): void {
  const validOwnedBySlot = slots.map(
    (slot) =>
      new Map(
        slot.member.owned
          .filter((owned) => isAssignableTo(slot, owned, partitionCounts))
          .map((owned) => [partitionKey(owned), { topic: owned.topic, partition: owned.partition }]),
      ),
  );
  const claimantCounts = new Map<string, number>();
  for (const validOwned of validOwnedBySlot) {
    for (const key of validOwned.keys()) claimantCounts.set(key, (claimantCounts.get(key) ?? 0) + 1);
  }
  slots.forEach((slot, index) => {
    const uncontested = [...validOwnedBySlot[index]]
      .filter(([key]) => claimantCounts.get(key) === 1)
      .map(([, partition]) => partition);
    slot.partitions.push(...uncontested.sort(comparePartitions));
  });
}

function isAssignableTo(slot: Slot, owned: TopicPartition, partitionCounts: ReadonlyMap<string, number>): boolean {
  const partitionCount = partitionCounts.get(owned.topic) ?? 0;
  return (
    slot.topics.has(owned.topic) &&
    Number.isInteger(owned.partition) &&
    owned.partition >= 0 &&
    owned.partition < partitionCount
  );
}

/** The subscriber of `topic` with the fewest partitions, the first in Kafka's member order on a tie. */
function leastLoadedSubscriber(slots: readonly Slot[], topic: string): Slot {
  let leastLoaded: Slot | undefined;
  for (const slot of slots) {
    if (!slot.topics.has(topic)) continue;
    if (leastLoaded === undefined || slot.partitions.length < leastLoaded.partitions.length) leastLoaded = slot;
  }
  if (leastLoaded === undefined) throw new Error(`no member subscribes to ${topic}`);
  return leastLoaded;
}

/**
 * Applies balancing moves until none is left. Each move takes a partition from a member holding c to one holding at
 * most c - 2, which lowers the sum of squared counts by at least 2; that sum starts at most partitionTotal², so
 * more than partitionTotal² / 2 moves would be a bug.
 */
function balance(slots: readonly Slot[], partitionTotal: number): void {
  const movesMax = Math.floor((partitionTotal * partitionTotal) / 2);
  for (let moves = 0; ; moves++) {
    const move = findBalancingMove(slots);
    if (move === undefined) return;
    if (moves === movesMax) throw new Error(`sticky balancing exceeded ${movesMax} moves`);
    move.receiver.partitions.push(...move.giver.partitions.splice(move.partitionIndex, 1));
  }
}

function findBalancingMove(slots: readonly Slot[]): Move | undefined {
  const fewest = Math.min(...slots.map((slot) => slot.partitions.length));
  // Array.prototype.sort is stable, so equally loaded givers stay in Kafka's member order.
  const givers = [...slots].sort((left, right) => right.partitions.length - left.partitions.length);
  const leastLoadedByTopic = new Map<string, Slot>();
  for (const giver of givers) {
    if (giver.partitions.length < fewest + 2) return undefined;
    for (let partitionIndex = giver.partitions.length - 1; partitionIndex >= 0; partitionIndex--) {
      const topic = giver.partitions[partitionIndex].topic;
      const receiver = leastLoadedByTopic.get(topic) ?? leastLoadedSubscriber(slots, topic);
      leastLoadedByTopic.set(topic, receiver);
      if (receiver.partitions.length + 2 <= giver.partitions.length) return { giver, partitionIndex, receiver };
    }
  }
  return undefined;
}
