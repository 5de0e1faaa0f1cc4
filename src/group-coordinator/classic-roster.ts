// The group-level bookkeeping of Kafka's classic protocol in one group (classic-membership.ts is the machine):
// the protocol type and selected protocol, the leader, the ids handed out with MEMBER_ID_REQUIRED, which members
// still owe a SyncGroup and which wait for one, and the answers and records built from them. Pure.
import {
  EMPTY_BYTES,
  joinError,
  syncError,
  type ClassicEffects,
  type ClassicError,
  type ClassicWrite,
  type JoinAnswer,
  type JoinAnswerMember,
  type SyncAnswer,
} from './classic-answers.js';
import { classicMetadataValue } from './classic-members.js';
import type { ClassicProtocol, Member } from './group-member.js';
import type { GroupState } from './group-state.js';
import type { PersistedClassicGroup } from './group-records.js';

/** What the machine needs of the group it runs in (consumer-group.ts). */
export interface ClassicHost {
  readonly groupId: string;
  readonly state: GroupState;
  readonly generation: number;
  readonly members: Map<string, Member>;
  moveTo(state: GroupState): void;
  /** Starts the next generation (a number never used before) and returns it. */
  beginGeneration(): number;
}

export class ClassicRoster {
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  /** Ids handed out with MEMBER_ID_REQUIRED, with the monotonic time by which they must join. */
  readonly pendingMembers = new Map<string, number>();
  /** Members of the current generation that have not sent SyncGroup yet. */
  readonly pendingSync = new Set<string>();
  /** Members whose SyncGroup waits for the leader's assignment to be written. */
  readonly awaitingSync = new Set<string>();
  private nextWriteId = 1;

  constructor(
    private readonly host: ClassicHost,
    private readonly nowMs: () => number,
  ) {}

  get members(): Map<string, Member> {
    return this.host.members;
  }

  /** Kafka's rule: a new group takes any protocol type; a group with members only theirs, and a protocol they all have. */
  supportsProtocols(protocolType: string, protocols: readonly ClassicProtocol[]): boolean {
    if (this.members.size === 0) return protocolType !== '' && protocols.length > 0;
    if (protocolType !== this.protocolType) return false;
    return protocols.some(({ name }) =>
      [...this.members.values()].every((member) => member.classic?.protocols.some((p) => p.name === name)),
    );
  }

  /** Kafka's check of a member's identity: a static member by its instance id, fenced if another id holds it. */
  validateMember(memberId: string, groupInstanceId: string | null): ClassicError | null {
    if (groupInstanceId !== null) {
      const holder = this.staticMember(groupInstanceId);
      if (holder === undefined) return 'UNKNOWN_MEMBER_ID';
      return holder.memberId === memberId ? null : 'FENCED_INSTANCE_ID';
    }
    return this.members.get(memberId)?.kind === 'kafka' ? null : 'UNKNOWN_MEMBER_ID';
  }

  staticMember(groupInstanceId: string): Member | undefined {
    for (const member of this.members.values()) {
      if (member.kind === 'kafka' && member.groupInstanceId === groupInstanceId) return member;
    }
    return undefined;
  }

  /** The current generation as a JoinGroup answer; the leader gets the members when `leaderGetsMembers`. */
  currentJoinAnswer(memberId: string, leaderGetsMembers: boolean): JoinAnswer {
    return {
      error: null,
      memberId,
      generation: this.host.generation,
      protocolType: this.protocolType,
      protocolName: this.protocolName,
      leader: this.leaderId ?? '',
      skipAssignment: false,
      members: leaderGetsMembers && memberId === this.leaderId ? this.memberList() : [],
    };
  }

  private memberList(): JoinAnswerMember[] {
    return [...this.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      metadata: selectedMetadata(member, this.protocolName),
    }));
  }

  syncAnswer(member: Member): SyncAnswer {
    return {
      error: null,
      protocolType: this.protocolType,
      protocolName: this.protocolName,
      assignment: member.classic!.assignmentBytes,
    };
  }

  /** Moves a member to a new id, keeping its place as leader and as a member yet to sync. */
  rename(member: Member, newId: string): Member {
    const renamed: Member = { ...member, memberId: newId, classic: { ...member.classic!, awaitingJoin: false } };
    this.members.delete(member.memberId);
    this.members.set(newId, renamed);
    if (this.leaderId === member.memberId) this.leaderId = newId;
    if (this.pendingSync.delete(member.memberId)) this.pendingSync.add(newId);
    return renamed;
  }

  /** Removes a member; a JoinGroup or SyncGroup of it that still waits is answered UNKNOWN_MEMBER_ID. */
  remove(member: Member, effects: ClassicEffects): void {
    const memberId = member.memberId;
    if (member.classic!.awaitingJoin) effects.joins.push({ memberId, answer: joinError('UNKNOWN_MEMBER_ID', '') });
    if (this.awaitingSync.delete(memberId)) effects.syncs.push({ memberId, answer: syncError('UNKNOWN_MEMBER_ID') });
    this.pendingSync.delete(memberId);
    this.members.delete(memberId);
    if (this.leaderId === memberId) this.leaderId = this.members.keys().next().value ?? null;
  }

  /** Keeps the leader if it rejoined, else makes the first member that rejoined the leader; false if none did. */
  electJoinedLeader(): boolean {
    const leader = this.leaderId === null ? undefined : this.members.get(this.leaderId);
    if (leader?.classic!.awaitingJoin) return true;
    for (const member of this.members.values()) {
      if (member.classic!.awaitingJoin) {
        this.leaderId = member.memberId;
        return true;
      }
    }
    return false;
  }

  /** The largest rebalance timeout of the members: how long a join phase may wait for them. */
  rebalanceTimeoutMs(): number {
    let max = 0;
    for (const member of this.members.values()) max = Math.max(max, member.rebalanceTimeoutMs);
    return max;
  }

  allJoined(): boolean {
    if (this.pendingMembers.size > 0) return false;
    for (const member of this.members.values()) if (!member.classic!.awaitingJoin) return false;
    return true;
  }

  /** The group record of `generation` with each member's assignment from `assignments`. */
  write(generation: number, assignments: ReadonlyMap<string, Buffer>): ClassicWrite {
    const value = classicMetadataValue({
      generation,
      nowMs: this.nowMs(),
      members: [...this.members.values()],
      group: { protocolType: this.protocolType ?? '', protocolName: this.protocolName, leader: this.leaderId },
      assignments,
    });
    return { id: this.nextWriteId++, value };
  }

  currentAssignments(): Map<string, Buffer> {
    return new Map([...this.members.values()].map((member) => [member.memberId, member.classic!.assignmentBytes]));
  }

  /** The state of a group loaded from its last record (its members come back Stable, nothing waits). */
  restore(group: PersistedClassicGroup): void {
    this.protocolType = group.protocolType === '' ? null : group.protocolType;
    this.protocolName = group.protocolName;
    const leader = group.leader !== null && this.members.has(group.leader) ? group.leader : null;
    this.leaderId = leader ?? this.members.keys().next().value ?? null;
    this.pendingMembers.clear();
    this.pendingSync.clear();
    this.awaitingSync.clear();
  }
}

function selectedMetadata(member: Member, protocolName: string | null): Buffer {
  return member.classic!.protocols.find((protocol) => protocol.name === protocolName)?.metadata ?? EMPTY_BYTES;
}
