// What Kafka's classic group protocol asks of the group state machine and what it answers: the requests of
// JoinGroup, SyncGroup, Heartbeat and LeaveGroup as the machine needs them, the answers, and the effects of one
// step (answers to requests that were waiting, and group records to write). Errors carry Kafka's names; the Kafka
// edge maps them to its codes.
import type { GroupMetadataValue } from './group-records.js';
import type { ClassicProtocol } from './group-member.js';

export type ClassicError =
  | 'COORDINATOR_LOAD_IN_PROGRESS'
  | 'COORDINATOR_NOT_AVAILABLE'
  | 'NOT_COORDINATOR'
  | 'INVALID_GROUP_ID'
  | 'ILLEGAL_GENERATION'
  | 'INCONSISTENT_GROUP_PROTOCOL'
  | 'UNKNOWN_MEMBER_ID'
  | 'INVALID_SESSION_TIMEOUT'
  | 'REBALANCE_IN_PROGRESS'
  | 'MEMBER_ID_REQUIRED'
  | 'GROUP_MAX_SIZE_REACHED'
  | 'FENCED_INSTANCE_ID';

export interface ClassicJoinRequest {
  /** '' for a member joining for the first time. */
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  protocolType: string;
  protocols: readonly ClassicProtocol[];
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** JoinGroup v4+: a new dynamic member first gets its id with MEMBER_ID_REQUIRED and joins again with it. */
  requireKnownMemberId: boolean;
  /** JoinGroup v9+: a static leader that rejoins a stable group is told to skip the assignment. */
  supportsSkipAssignment: boolean;
  /** The id a new member gets (chosen by the caller, as Kafka does: client or instance id and a UUID). */
  newMemberId: string;
}

export interface ClassicSyncRequest {
  memberId: string;
  groupInstanceId: string | null;
  generation: number;
  protocolType: string | null;
  protocolName: string | null;
  /** The leader's assignment, one entry per member; empty from followers. */
  assignments: ReadonlyArray<{ memberId: string; assignment: Buffer }>;
}

export interface ClassicMemberIdentity {
  memberId: string;
  groupInstanceId: string | null;
}

export interface JoinAnswerMember {
  memberId: string;
  groupInstanceId: string | null;
  metadata: Buffer;
}

export interface JoinAnswer {
  error: ClassicError | null;
  memberId: string;
  generation: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string;
  skipAssignment: boolean;
  /** Every member with its metadata for the selected protocol: for the leader only. */
  members: JoinAnswerMember[];
}

export interface SyncAnswer {
  error: ClassicError | null;
  protocolType: string | null;
  protocolName: string | null;
  assignment: Buffer;
}

/** A group record to write; the machine is told whether it was written by `id`. */
export interface ClassicWrite {
  readonly id: number;
  readonly value: GroupMetadataValue;
}

/** What one step of the machine sends out besides its own answer. */
export class ClassicEffects {
  readonly joins: Array<{ memberId: string; answer: JoinAnswer }> = [];
  readonly syncs: Array<{ memberId: string; answer: SyncAnswer }> = [];
  readonly writes: ClassicWrite[] = [];

  get empty(): boolean {
    return this.joins.length === 0 && this.syncs.length === 0 && this.writes.length === 0;
  }
}

/**
 * The outcome of a JoinGroup or SyncGroup: an answer now, or a wait under `waitAs` (the member id the answer will
 * come for, in these or later effects); plus the effects of the step.
 */
export interface ClassicOutcome<A> {
  effects: ClassicEffects;
  reply: A | null;
  waitAs: string | null;
}

export const EMPTY_BYTES = Buffer.alloc(0);

export function joinError(error: ClassicError, memberId: string): JoinAnswer {
  return {
    error,
    memberId,
    generation: -1,
    protocolType: null,
    protocolName: null,
    leader: '',
    skipAssignment: false,
    members: [],
  };
}

export function syncError(error: ClassicError): SyncAnswer {
  return { error, protocolType: null, protocolName: null, assignment: EMPTY_BYTES };
}
