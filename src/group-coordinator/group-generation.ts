// A Brook-assigned consumer group's generations (consumer-group.ts runs them): the assignment the coordinator
// computes for the next generation (server-side assignors), the signature a generation was computed from (a
// change of it, a new topic or more partitions, rebalances), the group record that persists a generation, and how
// members take a generation from its record, at load and when a write completes. Pure functions.
import type { AssignorMember, AssignorName, TopicPartition } from './assignors/assignor.js';
import { assignorFor } from './assignors/assignors.js';
import { loadedMember } from './classic-members.js';
import type { Member } from './group-member.js';
import { topicPartitionKey, type GroupMetadataValue, type Subscription } from './group-records.js';
import type { TopicCounts } from './subscription-topics.js';

type Resolve = (subscription: Subscription, topics: TopicCounts) => string[];

export function computeAssignment(
  assignor: AssignorName,
  members: Iterable<Member>,
  topics: TopicCounts,
  resolve: Resolve,
): Map<string, TopicPartition[]> {
  const assignorMembers: AssignorMember[] = [...members].map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    topics: resolve(member.subscription, topics),
    owned: member.assignment,
  }));
  return assignorFor(assignor).assign(assignorMembers, topics);
}

/** The subscribed topics with their partition counts: what an assignment was computed from. */
export function assignmentSignature(members: Iterable<Member>, topics: TopicCounts, resolve: Resolve): string {
  const subscribed = new Set<string>();
  for (const member of members) {
    for (const topic of resolve(member.subscription, topics)) subscribed.add(topic);
  }
  return [...subscribed]
    .sort()
    .map((topic) => `${topic}:${topics.get(topic)}`)
    .join(',');
}

export function metadataValue(
  generation: number,
  assignor: AssignorName,
  nowMs: number,
  members: Iterable<Member>,
  assignments: Map<string, TopicPartition[]>,
): GroupMetadataValue {
  return {
    generation,
    assignor,
    stateTimestampMs: nowMs,
    members: [...members].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      kind: member.kind,
      subscription: member.subscription,
      sessionTimeoutMs: member.sessionTimeoutMs,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      assignment: assignments.get(member.memberId) ?? [],
    })),
  };
}

/** The members of a stored generation at start-up, each with a fresh session to come back. */
export function loadedMembers(value: GroupMetadataValue, nowMs: number): Member[] {
  if (value.classic !== undefined) {
    const classic = value.classic;
    return value.members.map((persisted) => loadedMember(persisted, classic, nowMs));
  }
  return value.members.map(({ classic: _kafkaOnly, ...persisted }) => ({
    ...persisted,
    deadlineMs: nowMs + persisted.sessionTimeoutMs,
    ownedSince: new Map(
      persisted.assignment.map((tp) => [topicPartitionKey(tp.topic, tp.partition), value.generation]),
    ),
  }));
}

/**
 * Members present in a durable generation take its assignment (a static member that came back under a new id
 * meanwhile is matched by its instance id); members that joined while it was being written own nothing until the
 * next one. A partition kept from the previous generation keeps the generation it has been owned since.
 */
export function takeAssignments(members: Iterable<Member>, value: GroupMetadataValue): void {
  const byMemberId = new Map(value.members.map((member) => [member.memberId, member.assignment]));
  const byInstanceId = new Map(
    value.members
      .filter((member) => member.groupInstanceId !== null)
      .map((member) => [member.groupInstanceId!, member.assignment]),
  );
  for (const member of members) {
    const next =
      byMemberId.get(member.memberId) ??
      (member.groupInstanceId === null ? undefined : byInstanceId.get(member.groupInstanceId)) ??
      [];
    const ownedSince = new Map<string, number>();
    for (const tp of next) {
      const key = topicPartitionKey(tp.topic, tp.partition);
      ownedSince.set(key, member.ownedSince.get(key) ?? value.generation);
    }
    member.assignment = next;
    member.ownedSince = ownedSince;
  }
}

export function sameSubscription(a: Subscription, b: Subscription): boolean {
  if ('pattern' in a || 'pattern' in b) {
    return (
      'pattern' in a && 'pattern' in b && a.pattern === b.pattern && a.principal === b.principal && a.host === b.host
    );
  }
  return (
    a.topics.length === b.topics.length && [...a.topics].sort().join('\u0000') === [...b.topics].sort().join('\u0000')
  );
}
