// A member of a consumer group as the group state machine holds it: what is persisted of it, its session deadline,
// and, for a Kafka client (kind 'kafka'), its state in Kafka's classic protocol.
import type { PersistedMember } from './group-records.js';

/** One protocol a Kafka client offers in JoinGroup: an assignor name and its opaque metadata (the subscription). */
export interface ClassicProtocol {
  readonly name: string;
  readonly metadata: Buffer;
}

export interface ClassicMemberState {
  clientHost: string;
  /** The protocols the member offered in its last JoinGroup, in its order of preference. */
  protocols: readonly ClassicProtocol[];
  /** The opaque assignment the leader gave the member for the current generation (empty until then). */
  assignmentBytes: Buffer;
  /** A JoinGroup of this member waits for the join phase to complete. */
  awaitingJoin: boolean;
  /** Joined during the current rebalance and not yet through a completed join phase. */
  isNew: boolean;
}

export interface Member extends Omit<PersistedMember, 'classic'> {
  /** Monotonic time after which the member is considered gone. */
  deadlineMs: number;
  /** Generation since which the member has owned each partition of its assignment, by topicPartitionKey. */
  ownedSince: Map<string, number>;
  /** Kafka's classic protocol state; present exactly for members of kind 'kafka'. */
  classic?: ClassicMemberState;
}

/** A member joining: everything that is persisted of it but its assignment, which the coordinator decides. */
export type JoinRequest = Omit<PersistedMember, 'assignment' | 'classic'>;

/** A member joining again (or a static member under a new member id): its partitions stay, its session restarts. */
export function rejoined(existing: Member, request: JoinRequest, nowMs: number): Member {
  return {
    ...existing,
    memberId: request.memberId,
    clientId: request.clientId,
    kind: request.kind,
    subscription: request.subscription,
    sessionTimeoutMs: request.sessionTimeoutMs,
    rebalanceTimeoutMs: request.rebalanceTimeoutMs,
    deadlineMs: nowMs + request.sessionTimeoutMs,
  };
}
