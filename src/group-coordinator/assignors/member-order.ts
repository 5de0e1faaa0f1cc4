// Kafka's member order (AbstractPartitionAssignor.MemberInfo): static members (with a groupInstanceId) come first,
// sorted by that id, then dynamic members sorted by memberId. Strings compare by UTF-16 code unit, as Java's
// String.compareTo does. Ordering static members by instance id keeps range and roundrobin assignments stable across
// a rolling restart, in which memberIds change and instance ids do not. Two static members with the same instance id
// (which a coordinator never admits) fall back to memberId, so the order is total.

import type { AssignorMember } from './assignor.js';

export function compareStrings(left: string, right: string): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

function compareMembers(left: AssignorMember, right: AssignorMember): number {
  if (left.groupInstanceId !== null && right.groupInstanceId !== null) {
    return compareStrings(left.groupInstanceId, right.groupInstanceId) || compareStrings(left.memberId, right.memberId);
  }
  if (left.groupInstanceId !== null) return -1;
  if (right.groupInstanceId !== null) return 1;
  return compareStrings(left.memberId, right.memberId);
}

/** A sorted copy; duplicate memberIds are a coordinator bug, so they crash here rather than merge silently. */
export function membersInKafkaOrder(members: readonly AssignorMember[]): AssignorMember[] {
  const memberIds = new Set(members.map((member) => member.memberId));
  if (memberIds.size !== members.length) throw new Error('assignor members must have distinct memberIds');
  return [...members].sort(compareMembers);
}
