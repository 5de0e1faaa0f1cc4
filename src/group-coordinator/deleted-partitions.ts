// Which partitions are gone, for the committed offsets that must go with them (Kafka's GroupMetadataManager
// removes a group's offsets of deleted partitions and writes their tombstones, `cleanupGroupMetadata` fed by
// `onPartitionsDeleted`). A topic is identified by its id, not its name: a topic deleted and created again under
// the same name is a new topic, and every partition of the old one is deleted (so a group does not resume the new
// topic at an offset committed on the old one, even when the new one has fewer partitions). Pure.
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import type { TopicPartition } from './assignors/assignor.js';

export interface TopicShape {
  readonly topicId: string;
  readonly partitions: number;
}

/** Each topic's id and partition count, by name. */
export type TopicShapes = ReadonlyMap<string, TopicShape>;

export function topicShapes(topics: ReadonlyMap<string, TopicMetadata>): TopicShapes {
  const shapes = new Map<string, TopicShape>();
  for (const [name, topic] of topics) {
    shapes.set(name, { topicId: topic.assignment.topicId, partitions: topic.assignment.replicas.length });
  }
  return shapes;
}

/** The partitions of `before` that `after` no longer has: deleted topics, re-created topics, lost partitions. */
export function deletedPartitions(before: TopicShapes, after: TopicShapes): TopicPartition[] {
  const deleted: TopicPartition[] = [];
  for (const [topic, old] of before) {
    const now = after.get(topic);
    const kept = now === undefined || now.topicId !== old.topicId ? 0 : Math.min(now.partitions, old.partitions);
    for (let partition = kept; partition < old.partitions; partition++) deleted.push({ topic, partition });
  }
  return deleted;
}

/** The partitions among `stored` that do not exist in `current` (deleted while nobody was watching). */
export function missingPartitions(stored: Iterable<TopicPartition>, current: TopicShapes): TopicPartition[] {
  const missing: TopicPartition[] = [];
  for (const { topic, partition } of stored) {
    const shape = current.get(topic);
    if (shape === undefined || partition >= shape.partitions) missing.push({ topic, partition });
  }
  return missing;
}
