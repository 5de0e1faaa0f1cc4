// A consumer group's committed offsets (consumer-group.ts holds them): which commits a group accepts, which of its
// offsets have expired (Kafka's offsets.retention.minutes, KIP-211), and the tombstones that remove offsets of
// deleted partitions or everything of a deleted group. Pure functions over the group's view.
import { errors } from '../common/brook-error.js';
import type { TopicPartition } from './assignors/assignor.js';
import type { Member } from './group-member.js';
import type { GroupState } from './group-state.js';
import { topicPartitionKey, type CommittedOffset, type GroupRecord, type InstanceValue } from './group-records.js';

export interface StoredOffset {
  topic: string;
  partition: number;
  committed: CommittedOffset;
}

/** What these functions read of a group. */
export interface GroupOffsetsView {
  readonly groupId: string;
  readonly state: GroupState;
  readonly generation: number;
  readonly stateTimestampMs: number;
  readonly members: ReadonlyMap<string, Member>;
  readonly offsets: Map<string, StoredOffset>;
  readonly instances: ReadonlyMap<string, InstanceValue>;
}

/**
 * Throws unless the commit may be stored. `memberId` null is a simple consumer (manual assignment), allowed
 * only while the group has no members. `fetchedInGeneration` maps partitions to the generation in which the
 * committing member read them (undefined: the current one).
 */
export function validateCommit(
  group: GroupOffsetsView,
  memberId: string | null,
  partitions: readonly TopicPartition[],
  fetchedInGeneration?: ReadonlyMap<string, number>,
): void {
  if (memberId === null) {
    if (group.members.size > 0) {
      throw errors.fencedMember(
        `Consumer group ${group.groupId} has active members; only its members may commit offsets.`,
      );
    }
    return;
  }
  const member = group.members.get(memberId);
  if (member === undefined) {
    throw errors.fencedMember(`Member ${memberId} is not a member of consumer group ${group.groupId}.`);
  }
  for (const { topic, partition } of partitions) {
    const key = topicPartitionKey(topic, partition);
    const since = member.ownedSince.get(key);
    if (since === undefined) {
      throw errors.fencedMember(
        `Partition ${topic}-${partition} is not assigned to ${memberId} in generation ${group.generation} of group ${group.groupId}; it was rebalanced away.`,
      );
    }
    const fetched = fetchedInGeneration?.get(key);
    if (fetched !== undefined && fetched < since) {
      throw errors.fencedMember(
        `The records of ${topic}-${partition} were fetched in generation ${fetched}, before the partition was reassigned; poll again.`,
      );
    }
  }
}

/**
 * Records removing the offsets of a group that has been empty longer than the retention (Kafka's KIP-211): a
 * group with metadata counts from when it became empty, a simple group from its last commit.
 */
export function expiredOffsets(
  group: GroupOffsetsView,
  hasGroupMetadata: boolean,
  nowMs: number,
  retentionMs: number,
): GroupRecord[] {
  if (group.members.size > 0 || group.state !== 'Empty') return [];
  const expired: GroupRecord[] = [];
  for (const stored of group.offsets.values()) {
    const since = hasGroupMetadata
      ? Math.max(group.stateTimestampMs, stored.committed.commitTimestampMs)
      : stored.committed.commitTimestampMs;
    if (nowMs - since >= retentionMs) {
      expired.push(offsetTombstone(group.groupId, stored));
    }
  }
  return expired;
}

/**
 * Forgets the committed offsets of deleted partitions and returns their tombstones (Kafka's removeOffsets before
 * cleanupGroupMetadata writes them): the offsets are gone at once, for any member reading its positions, and the
 * tombstones keep them gone after a reload.
 */
export function removeOffsets(group: GroupOffsetsView, partitions: readonly TopicPartition[]): GroupRecord[] {
  const removed: GroupRecord[] = [];
  for (const { topic, partition } of partitions) {
    if (!group.offsets.delete(topicPartitionKey(topic, partition))) continue;
    removed.push(offsetTombstone(group.groupId, { topic, partition }));
  }
  return removed;
}

/** Tombstones for everything of an empty group (delete); 409 while it has members or instances. */
export function deletionRecords(group: GroupOffsetsView): GroupRecord[] {
  if (group.members.size > 0 || group.instances.size > 0) throw errors.groupNotEmpty(group.groupId);
  return [
    ...[...group.offsets.values()].map((stored) => offsetTombstone(group.groupId, stored)),
    ...[...group.instances.keys()].map((instance): GroupRecord => ({
      kind: 'instance',
      group: group.groupId,
      instance,
      value: null,
    })),
    { kind: 'group', group: group.groupId, value: null },
  ];
}

/**
 * What the periodic expiry removes from a group: its offsets once it has been empty past the retention
 * (ConsumerGroup.expiredOffsets), and offsets of partitions that no longer exist (`topics`: partition counts).
 */
export function offsetsToExpire(
  group: GroupOffsetsView & { expiredOffsets(retentionMs: number): GroupRecord[] },
  topics: ReadonlyMap<string, number>,
  retentionMs: number,
): GroupRecord[] {
  const expired = group.expiredOffsets(retentionMs);
  for (const stored of group.offsets.values()) {
    const count = topics.get(stored.topic);
    if ((count === undefined || stored.partition >= count) && !expired.some((record) => matches(record, stored))) {
      expired.push(offsetTombstone(group.groupId, stored));
    }
  }
  return expired;
}

function matches(record: GroupRecord, stored: TopicPartition): boolean {
  return record.kind === 'offset' && record.topic === stored.topic && record.partition === stored.partition;
}

/** The record removing a group's committed offset of one partition. */
function offsetTombstone(groupId: string, { topic, partition }: TopicPartition): GroupRecord {
  return { kind: 'offset', group: groupId, topic, partition, value: null };
}
