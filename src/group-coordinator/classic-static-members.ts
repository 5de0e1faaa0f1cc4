// Static membership (KIP-345) in the classic protocol (classic-membership.ts is the machine): a member that comes
// back with its group.instance.id and an empty member id takes the place, and the partitions, of the id it had.
// Whoever still waits under the old id is fenced (FENCED_INSTANCE_ID). In a stable group whose selected protocol
// and the member's metadata for it stay the same there is no rebalance: the group is written with the new id and
// the member then gets the current generation; a failed write puts the old id back. Otherwise the group rebalances.
// Pure.
import type { Clock } from '../common/clock.js';
import {
  joinError,
  syncError,
  type ClassicEffects,
  type ClassicError,
  type ClassicJoinRequest,
} from './classic-answers.js';
import { selectProtocol, updateMember } from './classic-members.js';
import type { ClassicRebalance } from './classic-rebalance.js';
import type { ClassicHost, ClassicRoster } from './classic-roster.js';
import type { ClassicProtocol, Member } from './group-member.js';

/** A static member's new id while the record naming it is written, and what to restore if that fails. */
interface Replacement {
  oldId: string;
  newId: string;
  generation: number;
  previousLeader: string | null;
  previous: { protocols: readonly ClassicProtocol[]; sessionTimeoutMs: number; rebalanceTimeoutMs: number };
  supportsSkipAssignment: boolean;
}

export class StaticMembers {
  /** Replacements whose record is being written, by write id. */
  private readonly writing = new Map<number, Replacement>();

  constructor(
    private readonly host: ClassicHost,
    private readonly roster: ClassicRoster,
    private readonly rebalance: ClassicRebalance,
    private readonly clock: Clock,
  ) {}

  /** `old` comes back as `request.newMemberId`; returns the id its JoinGroup waits under. */
  replace(old: Member, request: ClassicJoinRequest, effects: ClassicEffects): string {
    const oldId = old.memberId;
    const newId = request.newMemberId;
    const previousLeader = this.roster.leaderId;
    if (old.classic!.awaitingJoin) {
      effects.joins.push({ memberId: oldId, answer: joinError('FENCED_INSTANCE_ID', oldId) });
    }
    if (this.roster.awaitingSync.delete(oldId)) {
      effects.syncs.push({ memberId: oldId, answer: syncError('FENCED_INSTANCE_ID') });
    }
    const previous = {
      protocols: old.classic!.protocols,
      sessionTimeoutMs: old.sessionTimeoutMs,
      rebalanceTimeoutMs: old.rebalanceTimeoutMs,
    };
    const member = this.roster.rename(old, newId);
    member.deadlineMs = this.clock.monotonicMs() + request.sessionTimeoutMs;
    updateMember(member, request);
    if (this.host.state === 'Stable') {
      // Kafka keeps the generation when the selected protocol stays; Brook also asks that the member's metadata
      // for it (its subscription) be the same, since the leader must otherwise assign again.
      const protocol = this.roster.protocolName;
      const sameSelection = selectProtocol(this.host.members.values(), this.roster.leaderId) === protocol;
      if (sameSelection && sameMetadata(previous.protocols, request.protocols, protocol)) {
        const write = this.roster.write(this.host.generation, this.roster.currentAssignments());
        this.writing.set(write.id, {
          oldId,
          newId,
          generation: this.host.generation,
          previousLeader,
          previous,
          supportsSkipAssignment: request.supportsSkipAssignment,
        });
        effects.writes.push(write);
        return newId;
      }
      this.rebalance.prepare(effects);
    } else if (this.host.state === 'CompletingRebalance') {
      // The leader may be assigning to the old id: only a new generation gives the new id its partitions.
      this.rebalance.prepare(effects);
    } else {
      this.rebalance.maybeCompleteJoin(effects);
    }
    return newId;
  }

  /** The record of write `id` is durable; false if it was not a replacement's. */
  written(id: number, effects: ClassicEffects): boolean {
    const replacement = this.take(id);
    if (replacement === undefined) return false;
    const member = this.stillReplacing(replacement);
    if (member === undefined) return true; // a rebalance began meanwhile: the member is answered when it completes
    member.classic!.awaitingJoin = false;
    const isLeader = this.roster.leaderId === member.memberId;
    // v9+: a returning leader gets the members but is told to keep the assignment. Older clients are named a
    // leader other than themselves (the one before), so that they sync as followers and get their partitions.
    const answer = replacement.supportsSkipAssignment
      ? { ...this.roster.currentJoinAnswer(member.memberId, true), skipAssignment: isLeader }
      : { ...this.roster.currentJoinAnswer(member.memberId, false), leader: replacement.previousLeader ?? '' };
    effects.joins.push({ memberId: member.memberId, answer });
    return true;
  }

  /** The write of `id` failed; false if it was not a replacement's. */
  writeFailed(id: number, error: ClassicError, effects: ClassicEffects): boolean {
    const replacement = this.take(id);
    if (replacement === undefined) return false;
    const member = this.stillReplacing(replacement);
    if (member === undefined) return true;
    const restored = this.roster.rename(member, replacement.oldId);
    restored.classic!.protocols = replacement.previous.protocols;
    restored.sessionTimeoutMs = replacement.previous.sessionTimeoutMs;
    restored.rebalanceTimeoutMs = replacement.previous.rebalanceTimeoutMs;
    effects.joins.push({
      memberId: replacement.newId,
      answer: { ...this.roster.currentJoinAnswer('', false), error, leader: replacement.previousLeader ?? '' },
    });
    return true;
  }

  clear(): void {
    this.writing.clear();
  }

  private take(id: number): Replacement | undefined {
    const replacement = this.writing.get(id);
    this.writing.delete(id);
    return replacement;
  }

  /** The new member, if it still waits for this replacement in the same stable generation. */
  private stillReplacing(replacement: Replacement): Member | undefined {
    const member = this.host.members.get(replacement.newId);
    if (member === undefined || !member.classic!.awaitingJoin) return undefined;
    if (this.host.state !== 'Stable' || this.host.generation !== replacement.generation) return undefined;
    return member;
  }
}

function sameMetadata(a: readonly ClassicProtocol[], b: readonly ClassicProtocol[], name: string | null): boolean {
  const before = a.find((protocol) => protocol.name === name)?.metadata;
  const after = b.find((protocol) => protocol.name === name)?.metadata;
  return before !== undefined && after !== undefined && before.equals(after);
}
