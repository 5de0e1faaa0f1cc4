// One consumer group as a pure state machine (no I/O; time from an injected Clock): members with session
// deadlines, the rebalance that the coordinator runs on their behalf (server-side assignment; when it runs:
// assigned-rebalance.ts), generations, the committed offsets, and the REST consumer instances kept with the group. The coordinator service persists what
// the handlers return and replays stored records into the same object, so a restart rebuilds it by replay.
// Kafka clients use the group through Kafka's classic protocol instead (classic-membership.ts: their leader
// assigns), over the same states, generations and offsets.
//
// Invariants: in one generation a partition has at most one owner (the assignment of a generation is one
// function of the members); a commit is accepted only from a member that owns the partition and has owned it
// continuously since the generation its records were fetched in; a simple (memberless) commit only while the
// group has no members. A group is used by one kind of client at a time: Brook-assigned members (REST v2
// instances, WebSocket and SSE members) or Kafka clients; the other kind is refused until it is empty again.
import type { Clock } from '../common/clock.js';
import { errors } from '../common/brook-error.js';
import { AssignedRebalance } from './assigned-rebalance.js';
import type { AssignorName, TopicPartition } from './assignors/assignor.js';
import { ClassicMembership, type ClassicHost } from './classic-membership.js';
import {
  ClassicEffects,
  joinError,
  type ClassicJoinRequest,
  type ClassicOutcome,
  type JoinAnswer,
} from './classic-answers.js';
import {
  assignmentSignature,
  computeAssignment,
  loadedMembers,
  metadataValue,
  sameSubscription,
  takeAssignments,
} from './group-generation.js';
import { type JoinRequest, type Member, rejoined } from './group-member.js';
import { reconcileInstances } from './instance-members.js';
import { deletionRecords, expiredOffsets, removeOffsets, type StoredOffset, validateCommit } from './group-offsets.js';
import { assertTransition, type GroupState } from './group-state.js';
import {
  topicPartitionKey,
  type CommittedOffset,
  type GroupMetadataValue,
  type GroupRecord,
  type InstanceValue,
  type Subscription,
} from './group-records.js';
import { subscribedTopics, type TopicCounts } from './subscription-topics.js';

export interface GroupSettings {
  initialRebalanceDelayMs: number;
  defaultAssignor: AssignorName;
  maxSize: number;
  /** Bounds of a Kafka client's session timeout (group.min/max.session.timeout.ms). */
  minSessionTimeoutMs: number;
  maxSessionTimeoutMs: number;
}

/** How long a new Kafka member's JoinGroup may wait for the join phase to end (Kafka's fixed 5 minutes). */
export const NEW_MEMBER_JOIN_TIMEOUT_MS = 300_000;

export type { JoinRequest, Member, StoredOffset };

export interface MemberAssignment {
  generation: number;
  partitions: readonly TopicPartition[];
  ownedSince: ReadonlyMap<string, number>;
}

export type ReplayMode = 'load' | 'live';

export type { TopicCounts };

/** The topics a member's subscription reads, given the cluster's topics (subscription-topics.ts). */
export type SubscriptionResolver = (subscription: Subscription, topics: TopicCounts) => string[];

export class ConsumerGroup implements ClassicHost {
  state: GroupState = 'Empty';
  generation = 0;
  assignor: AssignorName;
  readonly members = new Map<string, Member>();
  readonly offsets = new Map<string, StoredOffset>();
  readonly instances = new Map<string, InstanceValue>();
  /** Wall-clock time the group entered its state (offset retention of an empty group counts from it). */
  stateTimestampMs: number;
  /** When the Brook-assigned group rebalances (assigned-rebalance.ts). */
  private readonly rebalance: AssignedRebalance;
  /** The generation of the write in flight, if any. */
  private pendingGeneration: number | null = null;
  /** The highest generation number handed out (written or in flight): numbers are never reused. */
  private issuedGeneration = 0;
  /** Whether a group metadata record exists (false for a simple group known only by its offsets). */
  private hasGroupMetadata = false;
  /** What the current assignment was computed from; a change of it (new topic, more partitions) rebalances. */
  private assignedSignature: string | null = null;
  /** Kafka's classic protocol, for a group that Kafka clients use. */
  readonly classic: ClassicMembership;
  /** REST instance records being written: the group counts as used by REST clients meanwhile. */
  instanceWritesInFlight = 0;

  constructor(
    readonly groupId: string,
    private readonly settings: GroupSettings,
    private readonly clock: Clock,
    private readonly resolve: SubscriptionResolver = (subscription, topics) => subscribedTopics(subscription, topics),
  ) {
    this.assignor = settings.defaultAssignor;
    this.stateTimestampMs = clock.nowMs();
    this.rebalance = new AssignedRebalance(this, settings.initialRebalanceDelayMs, clock);
    this.classic = new ClassicMembership(
      this,
      { ...settings, newMemberJoinTimeoutMs: NEW_MEMBER_JOIN_TIMEOUT_MS },
      clock,
    );
  }

  // ---- who uses the group ----

  /** 'kafka' while Kafka clients are members (or joining), 'brook' while Brook-assigned members are, else null. */
  get usedBy(): 'kafka' | 'brook' | null {
    const first = this.members.values().next().value;
    if (first !== undefined) return first.kind === 'kafka' ? 'kafka' : 'brook';
    return this.classic.active ? 'kafka' : null;
  }

  /** Throws (409) while Kafka clients use the group: REST v2 instances and WebSocket or SSE members must wait. */
  assertUsableByBrookClients(): void {
    if (this.usedBy !== 'kafka') return;
    throw errors.groupUsedByKafkaClients(this.groupId);
  }

  /** The assignor shown for the group: a Kafka group's selected protocol, else Brook's assignor. */
  get partitionAssignor(): string {
    return this.usedBy === 'kafka' ? (this.classic.protocolName ?? '') : this.assignor;
  }

  // ---- Kafka's classic protocol (classic-membership.ts) ----

  /** A Kafka client's JoinGroup; refused while REST instances or Brook-assigned members use the group. */
  classicJoin(request: ClassicJoinRequest): ClassicOutcome<JoinAnswer> {
    if (this.usedBy === 'brook' || this.instances.size > 0 || this.instanceWritesInFlight > 0) {
      const reply = joinError('INCONSISTENT_GROUP_PROTOCOL', request.memberId);
      return { effects: new ClassicEffects(), reply, waitAs: null };
    }
    return this.classic.join(request);
  }

  moveTo(state: GroupState): void {
    this.transition(state);
  }

  beginGeneration(): number {
    this.generation = this.nextGeneration();
    return this.generation;
  }

  // ---- membership (in memory; a generation is persisted when it completes) ----

  /** Adds or updates a member; returns whether this started or extended a rebalance. */
  join(request: JoinRequest): { rebalance: boolean } {
    this.assertUsableByBrookClients();
    const now = this.clock.monotonicMs();
    const staticMember =
      request.groupInstanceId === null
        ? undefined
        : [...this.members.values()].find((member) => member.groupInstanceId === request.groupInstanceId);
    const existing = this.members.get(request.memberId) ?? staticMember;
    if (existing !== undefined) {
      const subscriptionChanged = !sameSubscription(existing.subscription, request.subscription);
      if (existing.memberId !== request.memberId) {
        // A static member came back under a new member id: it takes over its old slot and partitions.
        this.members.delete(existing.memberId);
      }
      this.members.set(request.memberId, rejoined(existing, request, now));
      if (!subscriptionChanged) return { rebalance: false };
      this.rebalance.trigger();
      return { rebalance: true };
    }
    if (this.members.size >= this.settings.maxSize) {
      throw errors.invalidRequest(
        `Consumer group ${this.groupId} already has the maximum of ${this.settings.maxSize} members.`,
      );
    }
    this.members.set(request.memberId, {
      ...request,
      assignment: [],
      ownedSince: new Map(),
      deadlineMs: now + request.sessionTimeoutMs,
    });
    this.rebalance.trigger();
    return { rebalance: true };
  }

  /**
   * When the rebalance that Brook runs for its members is due (monotonic ms): set while the group prepares one,
   * null otherwise (Kafka clients' groups end their join phase in classic-membership.ts).
   */
  get rebalanceDueMs(): number | null {
    return this.usedBy !== 'kafka' ? this.rebalance.dueMs : null;
  }

  /** Extends the member's session; false for an unknown member. */
  heartbeat(memberId: string): boolean {
    const member = this.members.get(memberId);
    if (member === undefined) return false;
    member.deadlineMs = this.clock.monotonicMs() + member.sessionTimeoutMs;
    return true;
  }

  /** Removes the member at once (a dynamic member leaving, an instance deleted or evicted). */
  leave(memberId: string): boolean {
    if (!this.members.delete(memberId)) return false;
    this.rebalance.trigger();
    return true;
  }

  /**
   * Advances time: expires members whose session lapsed and, when a rebalance is due, computes the next
   * generation's assignment. Returns the members that expired and the group record to persist, if any.
   */
  tick(topics: TopicCounts): { expired: Member[]; write: GroupMetadataValue | null; classic?: ClassicEffects } {
    if (this.usedBy === 'kafka') return { expired: [], write: null, classic: this.classic.tick() };
    const now = this.clock.monotonicMs();
    const expired = [...this.members.values()].filter((member) => member.deadlineMs < now);
    for (const member of expired) this.leave(member.memberId);
    if (this.state === 'Stable' && this.assignedSignature !== null) {
      if (this.assignedSignature !== assignmentSignature(this.members.values(), topics, this.resolve))
        this.rebalance.trigger();
    } else if (this.state === 'Stable') {
      this.assignedSignature = assignmentSignature(this.members.values(), topics, this.resolve);
    }
    if (!this.rebalance.due(now)) return { expired, write: null };
    this.rebalance.computed();
    const next = this.nextGeneration();
    if (this.members.size === 0) {
      this.transition('Empty');
      this.generation = next;
      return {
        expired,
        write: metadataValue(next, this.assignor, this.clock.nowMs(), this.members.values(), new Map()),
      };
    }
    const assignments = computeAssignment(this.assignor, this.members.values(), topics, this.resolve);
    this.pendingGeneration = next;
    this.assignedSignature = assignmentSignature(this.members.values(), topics, this.resolve);
    this.transition('CompletingRebalance');
    return {
      expired,
      write: metadataValue(next, this.assignor, this.clock.nowMs(), this.members.values(), assignments),
    };
  }

  private nextGeneration(): number {
    this.issuedGeneration = Math.max(this.issuedGeneration, this.generation) + 1;
    return this.issuedGeneration;
  }

  /** The write of generation `generation` failed: if it was the one awaited, rebalance again at the next tick. */
  rebalanceWriteFailed(generation: number): void {
    if (this.state !== 'CompletingRebalance' || this.pendingGeneration !== generation) return;
    this.pendingGeneration = null;
    this.rebalance.trigger();
  }

  /** The topics a member's subscription reads now (a pattern: those its subscriber may describe). */
  subscribedTopicsOf(member: Member, topics: TopicCounts): string[] {
    return this.resolve(member.subscription, topics);
  }

  // ---- replay: the only way stored records change the group ----

  replay(record: GroupRecord, mode: ReplayMode): void {
    switch (record.kind) {
      case 'offset': {
        const key = topicPartitionKey(record.topic, record.partition);
        if (record.value === null) this.offsets.delete(key);
        else this.offsets.set(key, { topic: record.topic, partition: record.partition, committed: record.value });
        return;
      }
      case 'instance':
        if (record.value === null) this.instances.delete(record.instance);
        else this.instances.set(record.instance, record.value);
        return;
      case 'group':
        if (record.value === null) {
          this.transition('Dead');
          this.members.clear();
          return;
        }
        if (mode === 'load') this.loadGeneration(record.value);
        else this.completeGeneration(record.value);
        return;
    }
  }

  /** Start-up replay: the stored generation is the group (members get a fresh session to come back). */
  private loadGeneration(value: GroupMetadataValue): void {
    const now = this.clock.monotonicMs();
    this.generation = value.generation;
    this.issuedGeneration = Math.max(this.issuedGeneration, value.generation);
    this.hasGroupMetadata = true;
    this.stateTimestampMs = value.stateTimestampMs;
    this.members.clear();
    if (value.classic !== undefined) {
      for (const member of loadedMembers(value, now)) this.members.set(member.memberId, member);
      this.classic.restore(value.classic);
      this.state = this.members.size > 0 ? 'Stable' : 'Empty';
      this.assignedSignature = null;
      return;
    }
    this.assignor = value.assignor as AssignorName;
    for (const member of loadedMembers(value, now)) this.members.set(member.memberId, member);
    this.state = this.members.size > 0 ? 'Stable' : 'Empty';
    this.assignedSignature = null;
  }

  /**
   * A generation this coordinator computed is now durable. Members present in it take its assignment (a static
   * member that came back under a new id meanwhile is matched by its instance id); members that joined while it
   * was being written own nothing until the next one. Only the awaited generation makes the group Stable: an
   * older one landing late never does.
   */
  private completeGeneration(value: GroupMetadataValue): void {
    this.generation = Math.max(this.generation, value.generation);
    this.hasGroupMetadata = true;
    this.stateTimestampMs = value.stateTimestampMs;
    if (value.members.length === 0) return; // an empty generation: the group is already Empty in memory
    if (value.classic !== undefined) return; // the classic machine is told of its writes (ClassicMembership.written)
    takeAssignments(this.members.values(), value);
    if (this.state === 'CompletingRebalance' && this.pendingGeneration === value.generation) {
      this.pendingGeneration = null;
      this.transition('Stable');
    }
  }

  /** Brings members in line with the stored REST instances after a load (instance-members.ts). */
  reconcileInstances(instanceSessionTimeoutMs: number): boolean {
    return reconcileInstances(this, instanceSessionTimeoutMs);
  }

  // ---- queries and checks ----

  assignmentOf(memberId: string): MemberAssignment | null {
    const member = this.members.get(memberId);
    if (member === undefined) return null;
    return { generation: this.generation, partitions: member.assignment, ownedSince: member.ownedSince };
  }

  /**
   * Throws unless the commit may be stored (group-offsets.ts). `memberId` null is a simple consumer (manual
   * assignment); `fetchedInGeneration` maps partitions to the generation in which the committing member read them.
   */
  validateCommit(
    memberId: string | null,
    partitions: readonly TopicPartition[],
    fetchedInGeneration?: ReadonlyMap<string, number>,
  ): void {
    validateCommit(this, memberId, partitions, fetchedInGeneration);
  }

  committed(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topicPartitionKey(topic, partition))?.committed;
  }

  /** Records removing the offsets of a group that has been empty longer than the retention (Kafka's KIP-211). */
  expiredOffsets(retentionMs: number): GroupRecord[] {
    return expiredOffsets(this, this.hasGroupMetadata, this.clock.nowMs(), retentionMs);
  }

  /** Forgets the committed offsets of deleted partitions and returns their tombstones (group-offsets.ts). */
  removeOffsets(partitions: readonly TopicPartition[]): GroupRecord[] {
    return removeOffsets(this, partitions);
  }

  /** True once nothing is left: no members, offsets or instances (the coordinator then forgets the group). */
  isEmptyOfState(): boolean {
    return this.members.size === 0 && this.offsets.size === 0 && this.instances.size === 0;
  }

  /** Tombstones for everything of an empty group (delete). */
  deletionRecords(): GroupRecord[] {
    return deletionRecords(this);
  }

  private transition(to: GroupState): void {
    assertTransition(this.groupId, this.state, to);
    this.state = to;
    this.stateTimestampMs = this.clock.nowMs();
  }
}
