// The rebalance of a classic group (classic-membership.ts is the machine; the table of events is in its header):
// the join phase and its deadline (the initial delay of a new group, initial-rebalance-delay.ts; the members'
// rebalance timeout), its end (the next generation, the join answers, the leader's member list), and the deadline
// for SyncGroups. Pure; time from the injected Clock.
import type { Clock } from '../common/clock.js';
import { EMPTY_BYTES, syncError, type ClassicEffects, type ClassicError } from './classic-answers.js';
import { memberView, selectProtocol } from './classic-members.js';
import type { ClassicHost, ClassicRoster } from './classic-roster.js';
import { extendedJoinDeadline, initialJoinPhase } from './initial-rebalance-delay.js';

export class ClassicRebalance {
  private joinDeadlineMs: number | null = null;
  /** Set during the initial rebalance of a new group: the latest the join phase may end. */
  private initialDelayCapMs: number | null = null;
  private syncDeadlineMs: number | null = null;

  constructor(
    private readonly host: ClassicHost,
    private readonly roster: ClassicRoster,
    private readonly initialRebalanceDelayMs: number,
    private readonly clock: Clock,
  ) {}

  /** Whether a join phase is running (it may run with no member left, until its deadline). */
  get joining(): boolean {
    return this.joinDeadlineMs !== null;
  }

  /** A new member joined: during the initial rebalance the join phase waits another delay for more (capped). */
  memberAdded(): void {
    if (this.host.state !== 'PreparingRebalance' || this.initialDelayCapMs === null) return;
    const now = this.clock.monotonicMs();
    this.joinDeadlineMs = extendedJoinDeadline(now, this.initialRebalanceDelayMs, this.initialDelayCapMs);
  }

  prepareOrCompleteJoin(effects: ClassicEffects): void {
    if (this.host.state === 'PreparingRebalance') this.maybeCompleteJoin(effects);
    else this.prepare(effects);
  }

  /** A rebalance begins: waiting syncs get REBALANCE_IN_PROGRESS; a new group starts its initial delay. */
  prepare(effects: ClassicEffects): void {
    if (this.host.state === 'CompletingRebalance') this.resetAssignments('REBALANCE_IN_PROGRESS', effects);
    this.roster.pendingSync.clear();
    this.syncDeadlineMs = null;
    const initial = this.host.state === 'Empty';
    this.host.moveTo('PreparingRebalance');
    const now = this.clock.monotonicMs();
    if (initial) {
      const phase = initialJoinPhase(now, this.initialRebalanceDelayMs, this.roster.rebalanceTimeoutMs());
      this.joinDeadlineMs = phase.deadlineMs;
      this.initialDelayCapMs = phase.capMs;
      return;
    }
    this.initialDelayCapMs = null;
    this.joinDeadlineMs = now + this.roster.rebalanceTimeoutMs();
    this.maybeCompleteJoin(effects);
  }

  /** Ends the join phase once every member and handed-out id has joined (never early in the initial one). */
  maybeCompleteJoin(effects: ClassicEffects): void {
    if (this.host.state !== 'PreparingRebalance' || this.initialDelayCapMs !== null) return;
    if (this.roster.allJoined()) this.completeJoin(effects);
  }

  /** The join phase ends: dynamic members that did not rejoin leave; the next generation starts. */
  private completeJoin(effects: ClassicEffects): void {
    for (const member of [...this.roster.members.values()]) {
      if (!member.classic!.awaitingJoin && member.groupInstanceId === null) this.roster.remove(member, effects);
    }
    const now = this.clock.monotonicMs();
    if (this.roster.members.size > 0 && !this.roster.electJoinedLeader()) {
      // Only static members that have not rejoined are left: wait another rebalance timeout for them.
      this.joinDeadlineMs = now + this.roster.rebalanceTimeoutMs();
      this.initialDelayCapMs = null;
      return;
    }
    this.joinDeadlineMs = null;
    this.initialDelayCapMs = null;
    const generation = this.host.beginGeneration();
    if (this.roster.members.size === 0) {
      this.roster.protocolName = null;
      this.host.moveTo('Empty');
      effects.writes.push(this.roster.write(generation, new Map()));
      return;
    }
    this.roster.protocolName = selectProtocol(this.roster.members.values(), this.roster.leaderId);
    this.host.moveTo('CompletingRebalance');
    for (const member of this.roster.members.values()) {
      const classic = member.classic!;
      memberView(member, this.roster.protocolType, this.roster.protocolName);
      if (classic.awaitingJoin) {
        classic.awaitingJoin = false;
        effects.joins.push({ memberId: member.memberId, answer: this.roster.currentJoinAnswer(member.memberId, true) });
      }
      classic.isNew = false;
      member.deadlineMs = now + member.sessionTimeoutMs;
      this.roster.pendingSync.add(member.memberId);
    }
    this.syncDeadlineMs = now + this.roster.rebalanceTimeoutMs();
  }

  /** Every member's assignment is dropped; the syncs that wait get `error` (and a fresh session). */
  resetAssignments(error: ClassicError, effects: ClassicEffects): void {
    for (const member of this.roster.members.values()) {
      member.classic!.assignmentBytes = EMPTY_BYTES;
      member.assignment = [];
    }
    const now = this.clock.monotonicMs();
    for (const memberId of this.roster.awaitingSync) {
      effects.syncs.push({ memberId, answer: syncError(error) });
      const member = this.roster.members.get(memberId);
      if (member !== undefined) member.deadlineMs = now + member.sessionTimeoutMs;
    }
    this.roster.awaitingSync.clear();
  }

  /** After members left: a settled group rebalances; a running join phase may now be complete. */
  membersRemoved(effects: ClassicEffects): void {
    if (this.host.state === 'Stable' || this.host.state === 'CompletingRebalance') this.prepare(effects);
    else this.maybeCompleteJoin(effects);
  }

  /** Ends a join phase whose time is up, and removes members that did not sync in time. */
  tick(effects: ClassicEffects): void {
    const now = this.clock.monotonicMs();
    if (this.host.state === 'PreparingRebalance' && this.joinDeadlineMs !== null && now >= this.joinDeadlineMs) {
      this.completeJoin(effects);
    }
    const syncing = this.host.state === 'CompletingRebalance' || this.host.state === 'Stable';
    if (!syncing || this.syncDeadlineMs === null || now < this.syncDeadlineMs) return;
    this.syncDeadlineMs = null;
    if (this.roster.pendingSync.size === 0) return;
    for (const memberId of [...this.roster.pendingSync])
      this.roster.remove(this.roster.members.get(memberId)!, effects);
    this.prepare(effects);
  }

  /** A group loaded from its record: no phase runs. */
  reset(): void {
    this.joinDeadlineMs = null;
    this.initialDelayCapMs = null;
    this.syncDeadlineMs = null;
  }
}
