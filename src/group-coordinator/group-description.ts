// A consumer group as Kafka's DescribeGroups and ListGroups show it: its state, protocol type, protocol (the
// selected assignor) and members with their metadata and assignment bytes. A group of Kafka clients shows what
// they sent, as Kafka does (bytes only once Stable). A group Brook assigns itself (REST v2 instances, WebSocket and
// SSE members) is shown in the consumer protocol's format (consumer-protocol.ts), so that Kafka's tools read its
// subscriptions and partitions. Pure.
import { CONSUMER_PROTOCOL_TYPE, encodeAssignment, encodeSubscription } from './consumer-protocol.js';
import type { ConsumerGroup } from './consumer-group.js';
import type { TopicCounts } from './subscription-topics.js';
import type { GroupState } from './group-state.js';

export interface DescribedMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  metadata: Buffer;
  assignment: Buffer;
}

export interface GroupDescription {
  state: GroupState;
  protocolType: string;
  protocolData: string;
  members: DescribedMember[];
}

const EMPTY = Buffer.alloc(0);

/** The description of `group`; a group this broker does not hold is Dead with nothing in it, as in Kafka. */
export function groupDescription(group: ConsumerGroup | undefined, topics: TopicCounts): GroupDescription {
  if (group === undefined) return { state: 'Dead', protocolType: '', protocolData: '', members: [] };
  const stable = group.state === 'Stable';
  if (group.usedBy === 'kafka' || (group.usedBy === null && group.classic.protocolType !== null)) {
    const protocolName = group.classic.protocolName;
    return {
      state: group.state,
      protocolType: group.classic.protocolType ?? '',
      protocolData: stable ? (protocolName ?? '') : '',
      members: [...group.members.values()].map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.classic?.clientHost ?? '',
        metadata: stable ? (member.classic?.protocols.find((p) => p.name === protocolName)?.metadata ?? EMPTY) : EMPTY,
        assignment: stable ? (member.classic?.assignmentBytes ?? EMPTY) : EMPTY,
      })),
    };
  }
  return {
    state: group.state,
    protocolType: group.generation > 0 || group.members.size > 0 ? CONSUMER_PROTOCOL_TYPE : '',
    protocolData: stable ? group.assignor : '',
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: '',
      metadata: stable ? encodeSubscription(group.subscribedTopicsOf(member, topics)) : EMPTY,
      assignment: stable ? encodeAssignment(member.assignment) : EMPTY,
    })),
  };
}
