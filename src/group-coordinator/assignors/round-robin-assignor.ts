// Kafka's RoundRobinAssignor, exactly. All partitions of all subscribed topics, sorted by topic then partition, are
// dealt one at a time to the members in Kafka's member order (member-order.ts), cycling; a member that does not
// subscribe to a partition's topic is skipped, and the deal continues after the member that took the partition.
//
// Guarantees: every partition of a subscribed, known topic has exactly one owner, a subscriber of that topic. When
// all members have the same subscriptions, counts differ by at most one. When subscriptions differ the result can be
// unbalanced (Kafka's example: t0, t1, t2 have 1, 2, 3 partitions; C0 subscribes to t0, C1 to t0 and t1, C2 to all
// three; C0 and C1 get one partition each and C2 four).

import type { Assignor, TopicPartition } from './assignor.js';
import { membersInKafkaOrder } from './member-order.js';
import { subscribedPartitions } from './topic-partitions.js';

export const roundRobinAssignor: Assignor = {
  name: 'roundrobin',
  assign(members, partitionsPerTopic) {
    const dealOrder = membersInKafkaOrder(members).map((member) => ({
      memberId: member.memberId,
      topics: new Set(member.topics),
      partitions: [] as TopicPartition[],
    }));
    let turn = 0;
    for (const partition of subscribedPartitions(members, partitionsPerTopic)) {
      // Terminates within one cycle: the partition's topic came from some member's subscription.
      while (!dealOrder[turn % dealOrder.length].topics.has(partition.topic)) turn++;
      dealOrder[turn % dealOrder.length].partitions.push(partition);
      turn++;
    }
    return new Map(dealOrder.map((slot) => [slot.memberId, slot.partitions]));
  },
};
