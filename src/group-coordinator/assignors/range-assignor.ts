// Kafka's RangeAssignor, exactly. Topic by topic: the topic's subscribers are put in Kafka's member order
// (member-order.ts) and its partitions in numeric order; each subscriber takes a contiguous range of
// floor(partitions / subscribers) partitions, and the first (partitions % subscribers) subscribers one more.
//
// Guarantees: every partition of a subscribed, known topic has exactly one owner, a subscriber of that topic; per
// topic, subscribers' counts differ by at most one. Across topics the extra partitions all fall to the first members
// in the order, so totals can differ by up to the number of topics (Kafka's known trade-off: co-partitioned topics
// land on the same member, which joins need).

import type { Assignor, TopicPartition } from './assignor.js';
import { membersInKafkaOrder } from './member-order.js';
import { partitionsOfTopic, subscribedTopics } from './topic-partitions.js';

export const rangeAssignor: Assignor = {
  name: 'range',
  assign(members, partitionsPerTopic) {
    const slots = membersInKafkaOrder(members).map((member) => ({ member, partitions: [] as TopicPartition[] }));
    for (const subscribedTopic of subscribedTopics(members, partitionsPerTopic)) {
      const subscribers = slots.filter((slot) => slot.member.topics.includes(subscribedTopic.topic));
      const partitions = partitionsOfTopic(subscribedTopic);
      const partitionsPerMember = Math.floor(partitions.length / subscribers.length);
      const membersWithExtraPartition = partitions.length % subscribers.length;
      subscribers.forEach((subscriber, index) => {
        const start = partitionsPerMember * index + Math.min(index, membersWithExtraPartition);
        const length = partitionsPerMember + (index < membersWithExtraPartition ? 1 : 0);
        subscriber.partitions.push(...partitions.slice(start, start + length));
      });
    }
    return new Map(slots.map((slot) => [slot.member.memberId, slot.partitions]));
  },
};
