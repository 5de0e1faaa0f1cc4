// Kafka's classic group protocol as a pure state machine over one group (no I/O; time from an injected Clock):
// members join (JoinGroup), one of them (the leader) computes the assignment and hands it in with SyncGroup, and
// the coordinator only keeps time, chooses the protocol, fences stale generations and stores the result. The group
// states and their table are group-state.ts's; the events of this protocol move the group as follows:
//
//   event                                         from                      to / what happens
//   first member joins                            Empty                     PreparingRebalance, initial delay (*)
//   member joins or leaves, or changes metadata   Stable, CompletingReb.    PreparingRebalance (waiting syncs get
//     (the leader rejoining always counts)                                  REBALANCE_IN_PROGRESS)
//   all members joined, or the rebalance timeout  PreparingRebalance        CompletingRebalance, generation + 1,
//     (dynamic members that did not rejoin leave)                           join answers (the leader gets members)
//   ... and no member is left                     PreparingRebalance        Empty, generation + 1, record written
//   the leader's SyncGroup written                CompletingRebalance       Stable, every waiting sync answered
//   ... its write failed                          CompletingRebalance       PreparingRebalance, syncs get the error
//   a member's session or the sync timeout ends   Stable, CompletingReb.    PreparingRebalance
//   static member rejoins with a new member id    Stable                    Stable, same generation: it takes the
//     and the selected protocol stays (KIP-345)                             old id's place once that is written
//
// (*) group.initial.rebalance.delay.ms: the join phase of a new group ends when no member joined for that long,
// and at most max(delay, rebalance timeout) after it began; it does not end early when everybody has joined.
// A request that must wait (JoinGroup until the join phase completes, SyncGroup until the leader's assignment is
// written) gets no answer now: its answer comes out in the effects of a later step, keyed by member id. Members
// awaiting a join or a sync are not expired; every wait is bounded by a rebalance or new-member timeout.
// This file answers the requests; the group-level bookkeeping is classic-roster.ts, the join and sync phases
// classic-rebalance.ts, static members classic-static-members.ts.
import type { Clock } from '../common/clock.js';
import {
  ClassicEffects,
  EMPTY_BYTES,
  joinError,
  syncError,
  type ClassicError,
  type ClassicJoinRequest,
  type ClassicMemberIdentity,
  type ClassicOutcome,
  type ClassicSyncRequest,
  type JoinAnswer,
  type SyncAnswer,
} from './classic-answers.js';
import { memberView, sameProtocols, updateMember } from './classic-members.js';
import { ClassicRebalance } from './classic-rebalance.js';
import { ClassicRoster, type ClassicHost } from './classic-roster.js';
import { StaticMembers } from './classic-static-members.js';
import type { PersistedClassicGroup } from './group-records.js';

export type { ClassicHost };

export interface ClassicSettings {
  /** Kafka's group.min.session.timeout.ms and group.max.session.timeout.ms. */
  minSessionTimeoutMs: number;
  maxSessionTimeoutMs: number;
  /** Kafka's group.initial.rebalance.delay.ms. */
  initialRebalanceDelayMs: number;
  /** Kafka's group.max.size, counting members and the ids handed out with MEMBER_ID_REQUIRED. */
  maxSize: number;
  /** How long a new member's JoinGroup may wait for the join phase (Kafka's 5 minutes, KIP-394). */
  newMemberJoinTimeoutMs: number;
}

interface AssignmentWrite {
  id: number;
  generation: number;
  assignments: Map<string, Buffer>;
}

type JoinOutcome = ClassicOutcome<JoinAnswer>;
type SyncOutcome = ClassicOutcome<SyncAnswer>;

export class ClassicMembership {
  private readonly roster: ClassicRoster;
  private readonly rebalance: ClassicRebalance;
  private assignmentWrite: AssignmentWrite | null = null;
  private readonly statics: StaticMembers;

  constructor(
    private readonly host: ClassicHost,
    private readonly settings: ClassicSettings,
    private readonly clock: Clock,
  ) {
    this.roster = new ClassicRoster(host, () => clock.nowMs());
    this.rebalance = new ClassicRebalance(host, this.roster, settings.initialRebalanceDelayMs, clock);
    this.statics = new StaticMembers(host, this.roster, this.rebalance, clock);
  }

  get protocolType(): string | null {
    return this.roster.protocolType;
  }

  get protocolName(): string | null {
    return this.roster.protocolName;
  }

  get leaderId(): string | null {
    return this.roster.leaderId;
  }

  /** Whether the machine runs the group with no member in it: ids handed out are expected back, or a join phase runs. */
  get active(): boolean {
    return this.roster.pendingMembers.size > 0 || this.rebalance.joining;
  }

  // ---- JoinGroup ----

  join(request: ClassicJoinRequest): JoinOutcome {
    const effects = new ClassicEffects();
    const reject = (error: ClassicError, memberId = request.memberId): JoinOutcome => ({
      effects,
      reply: joinError(error, memberId),
      waitAs: null,
    });
    const { minSessionTimeoutMs, maxSessionTimeoutMs } = this.settings;
    if (request.sessionTimeoutMs < minSessionTimeoutMs || request.sessionTimeoutMs > maxSessionTimeoutMs) {
      return reject('INVALID_SESSION_TIMEOUT');
    }
    if (this.host.state === 'Dead') return reject('COORDINATOR_NOT_AVAILABLE');
    if (!this.roster.supportsProtocols(request.protocolType, request.protocols))
      return reject('INCONSISTENT_GROUP_PROTOCOL');
    if (request.memberId === '') return this.joinNewMember(request, effects, reject);
    if (this.roster.pendingMembers.has(request.memberId) && request.groupInstanceId === null) {
      return this.addMember(request.memberId, request, effects);
    }
    const invalid = this.roster.validateMember(request.memberId, request.groupInstanceId);
    if (invalid !== null) return reject(invalid);
    const member = this.host.members.get(request.memberId)!;
    const unchanged = sameProtocols(member.classic!.protocols, request.protocols);
    switch (this.host.state) {
      case 'PreparingRebalance':
        updateMember(member, request);
        this.rebalance.maybeCompleteJoin(effects);
        return { effects, reply: null, waitAs: member.memberId };
      case 'CompletingRebalance':
        // The same metadata again: the member lost its join answer; give it the current generation's again.
        if (unchanged) return { effects, reply: this.roster.currentJoinAnswer(member.memberId, true), waitAs: null };
        break;
      case 'Stable':
        // A follower with nothing new gets the current generation; the leader rejoining always rebalances (it
        // does so when the topics' metadata changed, which the member metadata does not show).
        if (unchanged && member.memberId !== this.roster.leaderId) {
          return { effects, reply: this.roster.currentJoinAnswer(member.memberId, false), waitAs: null };
        }
        break;
      default:
        return reject('UNKNOWN_MEMBER_ID');
    }
    updateMember(member, request);
    this.rebalance.prepare(effects);
    return { effects, reply: null, waitAs: member.memberId };
  }

  private joinNewMember(
    request: ClassicJoinRequest,
    effects: ClassicEffects,
    reject: (error: ClassicError, memberId?: string) => JoinOutcome,
  ): JoinOutcome {
    if (request.groupInstanceId !== null) {
      const existing = this.roster.staticMember(request.groupInstanceId);
      if (existing !== undefined)
        return { effects, reply: null, waitAs: this.statics.replace(existing, request, effects) };
    }
    if (this.host.members.size + this.roster.pendingMembers.size >= this.settings.maxSize) {
      return reject('GROUP_MAX_SIZE_REACHED', '');
    }
    if (request.groupInstanceId === null && request.requireKnownMemberId) {
      this.roster.pendingMembers.set(request.newMemberId, this.clock.monotonicMs() + request.sessionTimeoutMs);
      return { effects, reply: joinError('MEMBER_ID_REQUIRED', request.newMemberId), waitAs: null };
    }
    return this.addMember(request.newMemberId, request, effects);
  }

  private addMember(memberId: string, request: ClassicJoinRequest, effects: ClassicEffects): JoinOutcome {
    const now = this.clock.monotonicMs();
    this.roster.pendingMembers.delete(memberId);
    if (this.host.members.size === 0) this.roster.protocolType = request.protocolType;
    this.host.members.set(memberId, {
      memberId,
      groupInstanceId: request.groupInstanceId,
      clientId: request.clientId,
      kind: 'kafka',
      subscription: { topics: [] },
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      assignment: [],
      deadlineMs: now + this.settings.newMemberJoinTimeoutMs,
      ownedSince: new Map(),
      classic: {
        clientHost: request.clientHost,
        protocols: request.protocols,
        assignmentBytes: EMPTY_BYTES,
        awaitingJoin: true,
        isNew: true,
      },
    });
    this.roster.leaderId ??= memberId;
    this.rebalance.memberAdded();
    this.rebalance.prepareOrCompleteJoin(effects);
    return { effects, reply: null, waitAs: memberId };
  }

  // ---- SyncGroup ----

  sync(request: ClassicSyncRequest): SyncOutcome {
    const effects = new ClassicEffects();
    const reject = (error: ClassicError): SyncOutcome => ({ effects, reply: syncError(error), waitAs: null });
    if (this.host.state === 'Dead') return reject('COORDINATOR_NOT_AVAILABLE');
    const invalid = this.roster.validateMember(request.memberId, request.groupInstanceId);
    if (invalid !== null) return reject(invalid);
    if (request.generation !== this.host.generation) return reject('ILLEGAL_GENERATION');
    if (
      inconsistent(request.protocolType, this.roster.protocolType) ||
      inconsistent(request.protocolName, this.roster.protocolName)
    ) {
      return reject('INCONSISTENT_GROUP_PROTOCOL');
    }
    switch (this.host.state) {
      case 'PreparingRebalance':
        return reject('REBALANCE_IN_PROGRESS');
      case 'CompletingRebalance':
        this.roster.awaitingSync.add(request.memberId);
        this.roster.pendingSync.delete(request.memberId);
        if (request.memberId === this.roster.leaderId && this.assignmentWrite?.generation !== this.host.generation) {
          const given = new Map(request.assignments.map((entry) => [entry.memberId, entry.assignment]));
          const assignments = new Map<string, Buffer>();
          for (const memberId of this.host.members.keys())
            assignments.set(memberId, given.get(memberId) ?? EMPTY_BYTES);
          const write = this.roster.write(this.host.generation, assignments);
          this.assignmentWrite = { id: write.id, generation: this.host.generation, assignments };
          effects.writes.push(write);
        }
        return { effects, reply: null, waitAs: request.memberId };
      case 'Stable': {
        this.roster.pendingSync.delete(request.memberId);
        const member = this.host.members.get(request.memberId)!;
        return { effects, reply: this.roster.syncAnswer(member), waitAs: null };
      }
      default:
        return reject('UNKNOWN_MEMBER_ID');
    }
  }

  // ---- writes ----

  /** A record of `write` is durable. */
  written(id: number): ClassicEffects {
    const effects = new ClassicEffects();
    if (this.statics.written(id, effects)) return effects;
    const write = this.assignmentWrite;
    if (write?.id !== id) return effects;
    this.assignmentWrite = null;
    if (this.host.state !== 'CompletingRebalance' || this.host.generation !== write.generation) return effects;
    for (const member of this.host.members.values()) {
      member.classic!.assignmentBytes = write.assignments.get(member.memberId) ?? EMPTY_BYTES;
      memberView(member, this.roster.protocolType, this.roster.protocolName);
    }
    const now = this.clock.monotonicMs();
    for (const memberId of this.roster.awaitingSync) {
      const member = this.host.members.get(memberId)!;
      member.deadlineMs = now + member.sessionTimeoutMs;
      effects.syncs.push({ memberId, answer: this.roster.syncAnswer(member) });
    }
    this.roster.awaitingSync.clear();
    this.host.moveTo('Stable');
    return effects;
  }

  /** The write of `id` failed with `error` (NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE). */
  writeFailed(id: number, error: ClassicError): ClassicEffects {
    const effects = new ClassicEffects();
    if (this.statics.writeFailed(id, error, effects)) return effects;
    const write = this.assignmentWrite;
    if (write?.id !== id) return effects;
    this.assignmentWrite = null;
    if (this.host.state !== 'CompletingRebalance' || this.host.generation !== write.generation) return effects;
    this.rebalance.resetAssignments(error, effects);
    this.rebalance.prepare(effects);
    return effects;
  }

  // ---- Heartbeat, LeaveGroup, OffsetCommit ----

  heartbeat(identity: ClassicMemberIdentity, generation: number): ClassicError | null {
    if (this.host.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
    const invalid = this.roster.validateMember(identity.memberId, identity.groupInstanceId);
    if (invalid !== null) return invalid;
    if (generation !== this.host.generation) return 'ILLEGAL_GENERATION';
    if (this.host.state === 'Empty') return 'UNKNOWN_MEMBER_ID';
    const member = this.host.members.get(identity.memberId)!;
    member.deadlineMs = this.clock.monotonicMs() + member.sessionTimeoutMs;
    return this.host.state === 'PreparingRebalance' ? 'REBALANCE_IN_PROGRESS' : null;
  }

  /** Removes each member (v3+: several, by member id or, from an administrator, by instance id alone). */
  leave(identities: readonly ClassicMemberIdentity[]): {
    error: ClassicError | null;
    results: Array<ClassicError | null>;
    effects: ClassicEffects;
  } {
    const effects = new ClassicEffects();
    if (this.host.state === 'Dead') return { error: 'COORDINATOR_NOT_AVAILABLE', results: [], effects };
    const results = identities.map(({ memberId, groupInstanceId }): ClassicError | null => {
      if (memberId === '') {
        const member = groupInstanceId === null ? undefined : this.roster.staticMember(groupInstanceId);
        if (member === undefined) return 'UNKNOWN_MEMBER_ID';
        this.roster.remove(member, effects);
        return null;
      }
      if (this.roster.pendingMembers.delete(memberId)) return null;
      const invalid = this.roster.validateMember(memberId, groupInstanceId);
      if (invalid !== null) return invalid;
      this.roster.remove(this.host.members.get(memberId)!, effects);
      return null;
    });
    if (results.some((result) => result === null)) this.rebalance.membersRemoved(effects);
    return { error: null, results, effects };
  }

  /**
   * Whether an OffsetCommit may be stored: by the member of the current generation, or with a negative generation
   * while the group is empty (a consumer that assigns partitions itself).
   */
  validateCommit(identity: ClassicMemberIdentity, generation: number): ClassicError | null {
    if (this.host.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
    if (identity.groupInstanceId !== null) {
      const holder = this.roster.staticMember(identity.groupInstanceId);
      if (holder !== undefined && holder.memberId !== identity.memberId) return 'FENCED_INSTANCE_ID';
    }
    if (generation < 0 && this.host.state === 'Empty') return null;
    const member = this.host.members.get(identity.memberId);
    if (member?.kind !== 'kafka') return 'UNKNOWN_MEMBER_ID';
    if (generation !== this.host.generation) return 'ILLEGAL_GENERATION';
    if (this.host.state === 'CompletingRebalance') return 'REBALANCE_IN_PROGRESS';
    member.deadlineMs = this.clock.monotonicMs() + member.sessionTimeoutMs;
    return null;
  }

  // ---- time ----

  /** Expires pending ids, sessions and syncs, and ends a join phase whose time is up. */
  tick(): ClassicEffects {
    const effects = new ClassicEffects();
    const now = this.clock.monotonicMs();
    let removed = false;
    for (const [memberId, deadline] of this.roster.pendingMembers) {
      if (deadline >= now) continue;
      this.roster.pendingMembers.delete(memberId);
      removed = true;
    }
    for (const member of [...this.host.members.values()]) {
      if (member.deadlineMs >= now) continue;
      const waiting = member.classic!.awaitingJoin || this.roster.awaitingSync.has(member.memberId);
      if (waiting && !member.classic!.isNew) continue;
      this.roster.remove(member, effects);
      removed = true;
    }
    if (removed) this.rebalance.membersRemoved(effects);
    this.rebalance.tick(effects);
    return effects;
  }

  /** Restores the protocol state of a group loaded from its last record (its members come back Stable). */
  restore(group: PersistedClassicGroup): void {
    this.roster.restore(group);
    this.rebalance.reset();
    this.assignmentWrite = null;
    this.statics.clear();
  }
}

function inconsistent(requested: string | null, current: string | null): boolean {
  return requested !== null && current !== null && requested !== current;
}
