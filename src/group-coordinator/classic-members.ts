// Pure helpers of the classic protocol over a group's Kafka members: protocol selection (Kafka's vote), comparing
// a member's protocols, the member's subscription and partitions as Brook's REST routes show them (read from the
// consumer protocol's bytes when the group's protocol type is "consumer"), and the group record of a generation.
import {
  CONSUMER_PROTOCOL_TYPE,
  ConsumerProtocolFormatError,
  decodeAssignment,
  decodeSubscriptionTopics,
} from './consumer-protocol.js';
import type { ClassicJoinRequest } from './classic-answers.js';
import type { ClassicProtocol, Member } from './group-member.js';
import type { GroupMetadataValue, PersistedClassicGroup, PersistedMember } from './group-records.js';

export function sameProtocols(a: readonly ClassicProtocol[], b: readonly ClassicProtocol[]): boolean {
  return (
    a.length === b.length &&
    a.every((protocol, i) => protocol.name === b[i].name && protocol.metadata.equals(b[i].metadata))
  );
}

/** A known member's JoinGroup: its protocols and timeouts as it now sends them; it waits for the join phase. */
export function updateMember(member: Member, request: ClassicJoinRequest): void {
  member.classic!.protocols = request.protocols;
  member.classic!.awaitingJoin = true;
  member.sessionTimeoutMs = request.sessionTimeoutMs;
  member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
}

/**
 * Kafka's choice of the group's protocol: among the protocols every member offers, each member votes for the first
 * in its own order of preference; the most votes win (a tie goes to the one the leader prefers).
 */
export function selectProtocol(members: Iterable<Member>, leaderId: string | null): string | null {
  const all = [...members];
  if (all.length === 0) return null;
  const leader = all.find((member) => member.memberId === leaderId) ?? all[0];
  const candidates = leader
    .classic!.protocols.map((protocol) => protocol.name)
    .filter((name) => all.every((member) => member.classic!.protocols.some((p) => p.name === name)));
  if (candidates.length === 0) return leader.classic!.protocols[0]?.name ?? null;
  const votes = new Map<string, number>(candidates.map((name) => [name, 0]));
  for (const member of all) {
    const choice = member.classic!.protocols.find((protocol) => votes.has(protocol.name))!;
    votes.set(choice.name, votes.get(choice.name)! + 1);
  }
  let best = candidates[0];
  for (const name of candidates) if (votes.get(name)! > votes.get(best)!) best = name;
  return best;
}

/** Refreshes what the REST routes show of a Kafka member: its subscribed topics and its assigned partitions. */
export function memberView(member: Member, protocolType: string | null, protocolName: string | null): void {
  const classic = member.classic!;
  if (protocolType !== CONSUMER_PROTOCOL_TYPE) {
    member.subscription = { topics: [] };
    member.assignment = [];
    return;
  }
  const metadata = classic.protocols.find((protocol) => protocol.name === protocolName)?.metadata;
  member.subscription = { topics: metadata === undefined ? [] : orEmpty(() => decodeSubscriptionTopics(metadata)) };
  member.assignment = orEmpty(() => decodeAssignment(classic.assignmentBytes));
}

function orEmpty<T>(decode: () => T[]): T[] {
  try {
    return decode();
  } catch (error) {
    if (error instanceof ConsumerProtocolFormatError) return []; // a client's own format: nothing to show
    throw error;
  }
}

/** The group record of a classic group's generation, with each member's assignment from `assignments`. */
export function classicMetadataValue(input: {
  generation: number;
  nowMs: number;
  members: readonly Member[];
  group: PersistedClassicGroup;
  assignments: ReadonlyMap<string, Buffer>;
}): GroupMetadataValue {
  const { group } = input;
  return {
    generation: input.generation,
    assignor: group.protocolName ?? '',
    stateTimestampMs: input.nowMs,
    classic: group,
    members: input.members.map((member): PersistedMember => {
      const assignment = input.assignments.get(member.memberId) ?? Buffer.alloc(0);
      const view: Member = { ...member, classic: { ...member.classic!, assignmentBytes: assignment } };
      memberView(view, group.protocolType, group.protocolName);
      const metadata = member.classic!.protocols.find((p) => p.name === group.protocolName)?.metadata;
      return {
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        kind: 'kafka',
        subscription: view.subscription,
        sessionTimeoutMs: member.sessionTimeoutMs,
        rebalanceTimeoutMs: member.rebalanceTimeoutMs,
        assignment: view.assignment,
        classic: {
          clientHost: member.classic!.clientHost,
          metadata: (metadata ?? Buffer.alloc(0)).toString('base64'),
          assignment: assignment.toString('base64'),
        },
      };
    }),
  };
}

/** A Kafka member as loaded from the group's last record: its selected protocol and assignment, a fresh session. */
export function loadedMember(persisted: PersistedMember, group: PersistedClassicGroup, nowMs: number): Member {
  const stored = persisted.classic ?? { clientHost: '', metadata: '', assignment: '' };
  const member: Member = {
    memberId: persisted.memberId,
    groupInstanceId: persisted.groupInstanceId,
    clientId: persisted.clientId,
    kind: 'kafka',
    subscription: persisted.subscription,
    sessionTimeoutMs: persisted.sessionTimeoutMs,
    rebalanceTimeoutMs: persisted.rebalanceTimeoutMs,
    assignment: persisted.assignment,
    deadlineMs: nowMs + persisted.sessionTimeoutMs,
    ownedSince: new Map(),
    classic: {
      clientHost: stored.clientHost,
      protocols:
        group.protocolName === null
          ? []
          : [{ name: group.protocolName, metadata: Buffer.from(stored.metadata, 'base64') }],
      assignmentBytes: Buffer.from(stored.assignment, 'base64'),
      awaitingJoin: false,
      isNew: false,
    },
  };
  memberView(member, group.protocolType, group.protocolName);
  return member;
}
