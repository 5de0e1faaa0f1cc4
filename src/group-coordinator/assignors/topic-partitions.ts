// The partitions an assignment covers: every partition of every topic that at least one member subscribes to and
// whose partition count is known (topics missing from the metadata are skipped, as Kafka does). Topics and
// partitions come out in Kafka's order: topic name, then partition number.

import type { AssignorMember, TopicPartition } from './assignor.js';
import { compareStrings } from './member-order.js';

export interface SubscribedTopic {
  readonly topic: string;
  readonly partitionCount: number;
}

export function comparePartitions(left: TopicPartition, right: TopicPartition): number {
  return compareStrings(left.topic, right.topic) || left.partition - right.partition;
}

export function partitionKey(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}:${topicPartition.partition}`;
}

export function partitionsOfTopic({ topic, partitionCount }: SubscribedTopic): TopicPartition[] {
  return Array.from({ length: partitionCount }, (_, partition) => ({ topic, partition }));
}

/** Topics that someone subscribes to and whose partition count is known, sorted by name. */
export function subscribedTopics(
  members: readonly AssignorMember[],
  partitionsPerTopic: ReadonlyMap<string, number>,
): SubscribedTopic[] {
  const topics = [...new Set(members.flatMap((member) => member.topics))].sort(compareStrings);
  return topics.flatMap((topic) => {
    const partitionCount = partitionsPerTopic.get(topic);
    if (partitionCount === undefined) return [];
    if (!Number.isInteger(partitionCount) || partitionCount < 0) {
      throw new Error(`partition count of ${topic} must be a non-negative integer, got ${partitionCount}`);
    }
    return [{ topic, partitionCount }];
  });
}

export function subscribedPartitions(
  members: readonly AssignorMember[],
  partitionsPerTopic: ReadonlyMap<string, number>,
): TopicPartition[] {
  return subscribedTopics(members, partitionsPerTopic).flatMap(partitionsOfTopic);
}
