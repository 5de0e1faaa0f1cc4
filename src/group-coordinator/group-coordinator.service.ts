// The group coordinator (Kafka's GroupCoordinator over __consumer_offsets), as the rest of the broker asks it: it
// owns the groups whose offsets partition this broker leads. Handlers validate against the in-memory group, write
// records to the partition, and replay them into the group once durable (handle -> records -> append -> replay,
// group-writer.ts). Its other jobs are in their own files: the groups held and the partitions loaded
// (held-groups.ts), loading and unloading partitions as leadership moves and the topic's creation
// (offsets-leadership.ts), and the tick: member expiry, due rebalances, offset retention (group-ticker.ts).
import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { errors } from '../common/brook-error.js';
import { CLOCK, systemClock, type Clock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ControllerService } from '../controller-election/controller.service.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import type { ClassicSink } from './classic-sink.js';
import type { ConsumerGroup, JoinRequest, MemberAssignment, TopicCounts } from './consumer-group.js';
import type { GroupMetadataValue, GroupRecord, InstanceValue, Subscription } from './group-records.js';
import { GroupTicker } from './group-ticker.js';
import { GroupWriter } from './group-writer.js';
import { HeldGroups } from './held-groups.js';
import { type MemberListener, MemberListeners } from './member-listeners.js';
import { OffsetsLeadership } from './offsets-leadership.js';
import { coordinatorOf, type CoordinatorState } from './offsets-topic.js';
import { subscribedTopics, TOPIC_VISIBILITY, type TopicVisibility } from './subscription-topics.js';

export interface OffsetToCommit {
  topic: string;
  partition: number;
  /** The next offset to read (Kafka's committed offset). */
  offset: number;
  metadata?: string;
  /** The leader epoch of the record before the offset, when the client knows it (Kafka's OffsetCommit v6+). */
  leaderEpoch?: number;
}

export type { ClassicSink, CoordinatorState, MemberListener };

@Injectable()
export class GroupCoordinator implements OnApplicationShutdown {
  private readonly logger = new Logger('GroupCoordinator');
  private readonly listeners = new MemberListeners(this.logger);
  private readonly held: HeldGroups;
  private readonly writer: GroupWriter;
  private readonly leadership: OffsetsLeadership;
  private readonly ticker: GroupTicker;
  private readonly groups: Map<string, ConsumerGroup>;
  private classicSink: ClassicSink | null = null;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    controller: ControllerService,
    replicas: ReplicaManager,
    @Optional() @Inject(TOPIC_VISIBILITY) private readonly visibility: TopicVisibility | null = null,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    const { logger } = this;
    const held = new HeldGroups(config, metadata, clock, visibility);
    const writer = new GroupWriter(held, replicas, clock, logger, () => this.ensureOffsetsTopic());
    const classicSink = () => this.classicSink;
    this.held = held;
    this.groups = held.groups;
    this.writer = writer;
    this.leadership = new OffsetsLeadership({
      config,
      metadata,
      controller,
      replicas,
      clock,
      logger,
      held,
      writer,
      classicSink,
    });
    this.ticker = new GroupTicker({ config, clock, logger, held, writer, listeners: this.listeners, classicSink });
  }

  /** Replays the offsets partitions this broker leads, then starts ticking. */
  async start(): Promise<void> {
    await this.leadership.start();
    this.ticker.start();
  }

  attachClassic(sink: ClassicSink): void {
    this.classicSink = sink;
  }

  onApplicationShutdown(): void {
    this.ticker.stop();
  }

  // ---- lookups ----

  group(groupId: string): ConsumerGroup | undefined {
    return this.groups.get(groupId);
  }

  allGroups(): ConsumerGroup[] {
    return [...this.groups.values()];
  }

  instance(groupId: string, name: string): InstanceValue | undefined {
    return this.groups.get(groupId)?.instances.get(name);
  }

  instanceCount(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group.instances.size;
    return count;
  }

  /** The same map while the metadata is unchanged, so that pattern matches are evaluated once per change. */
  topicCounts(): TopicCounts {
    return this.held.topicCounts();
  }

  /** The topics a subscription reads now: a pattern's matches that its subscriber may describe. */
  subscribedTopics(subscription: Subscription): string[] {
    return subscribedTopics(subscription, this.topicCounts(), this.visibility);
  }

  // ---- REST instances ----

  async putInstance(groupId: string, name: string, value: InstanceValue): Promise<void> {
    await this.ensureOffsetsTopic();
    this.assertCoordinator(groupId);
    // Kafka clients and REST instances never share a group: the check holds while the record is written.
    const reserved = this.groupOrCreate(groupId);
    reserved.assertUsableByBrookClients();
    reserved.instanceWritesInFlight++;
    try {
      await this.writer.append(groupId, [{ kind: 'instance', group: groupId, instance: name, value }]);
    } finally {
      reserved.instanceWritesInFlight--;
    }
    const group = this.groupOrCreate(groupId);
    if (value.subscription !== null) {
      group.join({
        memberId: name,
        groupInstanceId: null,
        clientId: name,
        kind: 'rest',
        subscription: value.subscription,
        sessionTimeoutMs: this.held.instanceSessionMs(),
        rebalanceTimeoutMs: this.config.groups.consumerInstanceTimeoutMs,
      });
    } else {
      group.leave(name);
    }
    this.ticker.wakeForRebalance(group);
  }

  async deleteInstance(groupId: string, name: string): Promise<void> {
    await this.writer.append(groupId, [{ kind: 'instance', group: groupId, instance: name, value: null }]);
    const group = this.groups.get(groupId);
    if (group === undefined) return;
    group.leave(name);
    this.ticker.wakeForRebalance(group);
  }

  // ---- members (WebSocket subscriptions and REST instances) ----

  async join(groupId: string, request: JoinRequest): Promise<void> {
    await this.ensureOffsetsTopic();
    this.assertCoordinator(groupId);
    const group = this.groupOrCreate(groupId);
    group.join(request);
    this.ticker.wakeForRebalance(group);
  }

  heartbeat(groupId: string, memberId: string): boolean {
    return this.groups.get(groupId)?.heartbeat(memberId) ?? false;
  }

  leave(groupId: string, memberId: string): void {
    const group = this.groups.get(groupId);
    group?.leave(memberId);
    this.listeners.forget(groupId, memberId);
    if (group !== undefined) this.ticker.wakeForRebalance(group);
  }

  /** The group's current generation here; -1 for a group this broker does not hold. */
  generationOf(groupId: string): number {
    return this.groups.get(groupId)?.generation ?? -1;
  }

  /** Whether the group here has the member, and its assignment once the group is stable (a generation it is in). */
  memberStatus(groupId: string, memberId: string): { known: boolean; assignment: MemberAssignment | null } {
    const group = this.groups.get(groupId);
    const assignment = group?.assignmentOf(memberId) ?? null;
    return { known: assignment !== null, assignment: group?.state === 'Stable' ? assignment : null };
  }

  assignment(groupId: string, memberId: string): MemberAssignment | null {
    return this.groups.get(groupId)?.assignmentOf(memberId) ?? null;
  }

  /** Called with the member's assignment after every generation it is part of, and with null when it is gone. */
  watchMember(groupId: string, memberId: string, listener: MemberListener): () => void {
    return this.listeners.watch(groupId, memberId, listener);
  }

  // ---- offsets ----

  async commit(
    groupId: string,
    memberId: string | null,
    offsets: readonly OffsetToCommit[],
    fetchedInGeneration?: ReadonlyMap<string, number>,
  ): Promise<void> {
    if (offsets.length === 0) return;
    for (const { topic, partition, offset } of offsets) {
      const metadata = this.metadata.topic(topic);
      if (metadata === undefined) throw errors.topicNotFound(topic);
      if (!Number.isInteger(partition) || partition < 0 || partition >= metadata.assignment.replicas.length) {
        throw errors.partitionNotFound(partition);
      }
      if (!Number.isSafeInteger(offset) || offset < 0) {
        throw errors.invalidPayload(`The offset to commit for ${topic}-${partition} must be a non-negative integer.`);
      }
    }
    await this.ensureOffsetsTopic();
    this.assertCoordinator(groupId);
    const group = this.groupOrCreate(groupId);
    group.validateCommit(memberId, offsets, fetchedInGeneration);
    await this.storeOffsets(groupId, offsets);
  }

  /** Writes committed offsets that their caller has validated (a Kafka client's commit, classic-groups.service.ts). */
  async storeOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<void> {
    const now = this.clock.nowMs();
    await this.writer.append(
      groupId,
      offsets.map(({ topic, partition, offset, metadata, leaderEpoch }): GroupRecord => ({
        kind: 'offset',
        group: groupId,
        topic,
        partition,
        value: { offset, leaderEpoch: leaderEpoch ?? -1, metadata: metadata ?? '', commitTimestampMs: now },
      })),
    );
  }

  /** Writes a group record that Kafka's classic protocol asked for, and replays it once durable. */
  writeGroupRecord(groupId: string, value: GroupMetadataValue): Promise<void> {
    return this.writer.append(groupId, [{ kind: 'group', group: groupId, value }]);
  }

  committed(groupId: string, topic: string, partition: number): number | null {
    return this.groups.get(groupId)?.committed(topic, partition)?.offset ?? null;
  }

  /** Writes offsets chosen by an operator; only while the group has no members (as kafka-consumer-groups). */
  async resetOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<void> {
    const group = this.groups.get(groupId);
    if (group !== undefined && group.members.size > 0) throw errors.groupNotEmpty(groupId);
    await this.commit(groupId, null, offsets);
  }

  async deleteGroup(groupId: string): Promise<void> {
    const group = this.groups.get(groupId);
    if (group === undefined) throw errors.groupNotFound(groupId);
    await this.writer.append(groupId, group.deletionRecords());
    this.groups.delete(groupId);
  }

  // ---- the offsets topic ----

  /** Creates __consumer_offsets when it does not exist yet; returns once the partitions led here are loaded. */
  ensureOffsetsTopic(): Promise<void> {
    return this.leadership.ensureOffsetsTopic();
  }

  /** The group, created (Empty) when this broker holds none of that name; callers check the coordinator first. */
  groupOrCreate(groupId: string): ConsumerGroup {
    return this.held.groupOrCreate(groupId);
  }

  /** The broker coordinating the group (the leader of its offsets partition), or null before the topic exists. */
  coordinatorOf(groupId: string): number | null {
    return coordinatorOf(this.held.offsetsTopic(), groupId);
  }

  coordinatorState(groupId: string): CoordinatorState {
    return this.held.coordinatorState(groupId);
  }

  /** Throws unless this broker coordinates the group and has loaded it (a retriable error otherwise). */
  assertCoordinator(groupId: string): void {
    this.held.assertCoordinator(groupId);
  }
}
