// Kafka clients' use of the broker's one group coordinator (GroupCoordinator, over __consumer_offsets): the
// requests of Kafka's classic group protocol and of its offset and group-admin APIs, as the Kafka handlers call
// them. Each request first asks whether this broker coordinates the group now (NOT_COORDINATOR,
// COORDINATOR_LOAD_IN_PROGRESS otherwise); the group state machine (consumer-group.ts, classic-membership.ts)
// decides; this service holds the requests that wait (classic-waiters.ts), writes the records the machine asks for
// and tells it how the writes went. Errors are Kafka's names; the edge turns them into codes.
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { BrookError } from '../common/brook-error.js';
import {
  joinError,
  syncError,
  type ClassicEffects,
  type ClassicError,
  type ClassicJoinRequest,
  type ClassicMemberIdentity,
  type ClassicSyncRequest,
  type JoinAnswer,
  type SyncAnswer,
} from './classic-answers.js';
import { ClassicWaiters } from './classic-waiters.js';
import type { ConsumerGroup } from './consumer-group.js';
import { groupDescription, type GroupDescription } from './group-description.js';
import type { ClassicSink } from './classic-sink.js';
import { GroupCoordinator, type OffsetToCommit } from './group-coordinator.service.js';

/** The longest rebalance timeout a member may ask for: a join phase waits at most this long for the members. */
export const REBALANCE_TIMEOUT_MS_MAX = 30 * 60_000;

export type KafkaJoinRequest = Omit<ClassicJoinRequest, 'newMemberId'>;

export interface FetchedOffset {
  topic: string;
  partition: number;
  /** -1 when the group has committed nothing for the partition. */
  offset: number;
  leaderEpoch: number;
  metadata: string;
}

@Injectable()
export class ClassicGroups implements ClassicSink {
  private readonly logger = new Logger('ClassicGroups');
  private readonly waiters = new ClassicWaiters();

  constructor(private readonly coordinator: GroupCoordinator) {
    coordinator.attachClassic(this);
  }

  /** How many JoinGroup and SyncGroup requests wait now. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS while this broker cannot serve the group; null when it can. */
  unavailable(groupId: string): ClassicError | null {
    switch (this.coordinator.coordinatorState(groupId)) {
      case 'ready':
        return null;
      case 'loading':
        return 'COORDINATOR_LOAD_IN_PROGRESS';
      case 'not-coordinator':
        return 'NOT_COORDINATOR';
      case 'no-offsets-topic':
        return 'COORDINATOR_NOT_AVAILABLE';
    }
  }

  // ---- the classic protocol ----

  async join(groupId: string, request: KafkaJoinRequest): Promise<JoinAnswer> {
    if (groupId === '') return joinError('INVALID_GROUP_ID', request.memberId);
    try {
      await this.coordinator.ensureOffsetsTopic();
    } catch {
      return joinError('COORDINATOR_NOT_AVAILABLE', request.memberId);
    }
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return joinError(unavailable, request.memberId);
    if (request.memberId !== '' && this.live(groupId) === undefined) {
      return joinError('UNKNOWN_MEMBER_ID', request.memberId);
    }
    const group = this.coordinator.groupOrCreate(groupId);
    const rebalanceTimeoutMs = request.rebalanceTimeoutMs < 0 ? request.sessionTimeoutMs : request.rebalanceTimeoutMs;
    const outcome = group.classicJoin({
      ...request,
      rebalanceTimeoutMs: Math.min(rebalanceTimeoutMs, REBALANCE_TIMEOUT_MS_MAX),
      // Kafka's member ids: the client id (a static member's instance id) and a UUID
      newMemberId: `${request.groupInstanceId ?? request.clientId}-${randomUUID()}`,
    });
    const answer = outcome.reply ?? this.waiters.join(groupId, outcome.waitAs!);
    this.apply(group, outcome.effects);
    return answer;
  }

  async sync(groupId: string, request: ClassicSyncRequest): Promise<SyncAnswer> {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return syncError(unavailable);
    const group = this.live(groupId);
    if (group === undefined) return syncError('UNKNOWN_MEMBER_ID');
    const outcome = group.classic.sync(request);
    const answer = outcome.reply ?? this.waiters.sync(groupId, outcome.waitAs!);
    this.apply(group, outcome.effects);
    return answer;
  }

  heartbeat(groupId: string, identity: ClassicMemberIdentity, generation: number): ClassicError | null {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return unavailable;
    const group = this.live(groupId);
    if (group === undefined) return 'UNKNOWN_MEMBER_ID';
    return group.classic.heartbeat(identity, generation);
  }

  leave(
    groupId: string,
    identities: readonly ClassicMemberIdentity[],
  ): { error: ClassicError | null; results: Array<ClassicError | null> } {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return { error: unavailable, results: identities.map(() => unavailable) };
    const group = this.live(groupId);
    if (group === undefined) return { error: null, results: identities.map(() => 'UNKNOWN_MEMBER_ID') };
    const { error, results, effects } = group.classic.leave(identities);
    this.apply(group, effects);
    return { error, results };
  }

  // ---- offsets ----

  /**
   * Stores a Kafka client's commit: from the member of the current generation, or with a negative generation
   * while the group has no members. The offsets are already checked (topics, partitions, metadata size, rights).
   */
  async commit(
    groupId: string,
    identity: ClassicMemberIdentity,
    generation: number,
    offsets: readonly OffsetToCommit[],
  ): Promise<ClassicError | null> {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return unavailable;
    const group = this.live(groupId);
    const refused =
      group === undefined
        ? generation < 0
          ? null
          : 'ILLEGAL_GENERATION'
        : group.classic.validateCommit(identity, generation);
    if (refused !== null) return refused;
    if (offsets.length === 0) return null;
    try {
      await this.coordinator.storeOffsets(groupId, offsets);
      return null;
    } catch (error) {
      return this.writeError(groupId, error);
    }
  }

  /** The committed offsets of the partitions named (null: every partition the group has committed). */
  fetchOffsets(
    groupId: string,
    partitions: ReadonlyArray<{ topic: string; partition: number }> | null,
  ): { error: ClassicError | null; offsets: FetchedOffset[] } {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return { error: unavailable, offsets: [] };
    const group = this.live(groupId);
    if (partitions === null) {
      const stored = group === undefined ? [] : [...group.offsets.values()];
      return {
        error: null,
        offsets: stored.map(({ topic, partition, committed }) => ({ topic, partition, ...fetched(committed) })),
      };
    }
    return {
      error: null,
      offsets: partitions.map(({ topic, partition }) => ({
        topic,
        partition,
        ...fetched(group?.committed(topic, partition)),
      })),
    };
  }

  // ---- group administration ----

  describe(groupId: string): { error: ClassicError | null; group: GroupDescription } {
    const unavailable = this.unavailable(groupId);
    const group = unavailable === null ? this.live(groupId) : undefined;
    return { error: unavailable, group: groupDescription(group, this.coordinator.topicCounts()) };
  }

  /** The groups this broker coordinates (Kafka's ListGroups answers per broker; clients ask every broker). */
  list(): Array<{ groupId: string; protocolType: string; state: string }> {
    return this.coordinator
      .allGroups()
      .filter((group) => group.state !== 'Dead')
      .map((group) => {
        const description = groupDescription(group, this.coordinator.topicCounts());
        return { groupId: group.groupId, protocolType: description.protocolType, state: description.state };
      });
  }

  async delete(groupId: string): Promise<ClassicError | 'GROUP_ID_NOT_FOUND' | 'NON_EMPTY_GROUP' | null> {
    const unavailable = this.unavailable(groupId);
    if (unavailable !== null) return unavailable;
    const group = this.live(groupId);
    if (group === undefined) return 'GROUP_ID_NOT_FOUND';
    if (group.members.size > 0 || group.instances.size > 0 || group.usedBy !== null) return 'NON_EMPTY_GROUP';
    try {
      await this.coordinator.deleteGroup(groupId);
      return null;
    } catch (error) {
      if (error instanceof BrookError && error.errorCode === 40904) return 'NON_EMPTY_GROUP';
      if (error instanceof BrookError && error.status === 404) return 'GROUP_ID_NOT_FOUND';
      return this.writeError(groupId, error);
    }
  }

  // ---- the machine's effects ----

  apply(group: ConsumerGroup, effects: ClassicEffects): void {
    // effects of a group this broker no longer holds (it moved away meanwhile) answer nobody
    if (this.coordinator.group(group.groupId) !== group) return;
    this.waiters.deliver(group.groupId, effects);
    for (const write of effects.writes) {
      this.coordinator.writeGroupRecord(group.groupId, write.value).then(
        () => this.apply(group, group.classic.written(write.id)),
        (error: unknown) => {
          this.logger.warn(`group ${group.groupId}: writing its record failed: ${(error as Error).message}`);
          this.apply(group, group.classic.writeFailed(write.id, this.writeError(group.groupId, error)));
        },
      );
    }
  }

  unloaded(groupIds: readonly string[]): void {
    for (const groupId of groupIds) this.waiters.failGroup(groupId, 'NOT_COORDINATOR');
  }

  private live(groupId: string): ConsumerGroup | undefined {
    const group = this.coordinator.group(groupId);
    return group === undefined || group.state === 'Dead' ? undefined : group;
  }

  /** A write to the offsets partition failed: NOT_COORDINATOR if the group moved, else COORDINATOR_NOT_AVAILABLE. */
  private writeError(groupId: string, error: unknown): ClassicError {
    if (!(error instanceof BrookError) || error.status < 500) {
      this.logger.warn(`group ${groupId}: ${(error as Error)?.message ?? String(error)}`);
    }
    return this.coordinator.coordinatorState(groupId) === 'ready' ? 'COORDINATOR_NOT_AVAILABLE' : 'NOT_COORDINATOR';
  }
}

function fetched(committed: { offset: number; leaderEpoch: number; metadata: string } | undefined) {
  return committed === undefined
    ? { offset: -1, leaderEpoch: -1, metadata: '' }
    : { offset: committed.offset, leaderEpoch: committed.leaderEpoch, metadata: committed.metadata };
}
