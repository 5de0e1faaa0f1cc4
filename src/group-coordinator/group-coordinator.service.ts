// The group coordinator (Kafka's GroupCoordinator over __consumer_offsets): it owns the groups whose offsets
// partition this broker leads. Handlers validate against the in-memory group, write records to the partition,
// and replay them into the group once durable (handle -> records -> append -> replay); start-up replays each
// led partition from its start. Rebalances run on the coordinator's tick: expired members leave, due
// generations are computed by the group's assignor and written before they take effect. Offsets of deleted
// partitions are removed from every group held here, as Kafka does (deleted-partitions.ts): when a metadata change
// shows a topic deleted or created again, and, for deletions nobody here saw, when an offsets partition is loaded.
import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { errors } from '../common/brook-error.js';
import { systemClock, type Clock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ControllerService } from '../controller-election/controller.service.js';
import { encodeBatch } from '../partition-log/record-batch.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { GROUP_METADATA_TOPIC_NAME, isInternalTopic } from '../topic/topic-name.js';
import type { TopicPartition } from './assignors/assignor.js';
import {
  assertCoordinator,
  coordinatorOf,
  coordinatorState,
  type CoordinatorState,
  createOffsetsTopic,
  replayOffsetsPartition,
} from './offsets-topic.js';
import { deletedPartitions, missingPartitions, topicShapes, type TopicShapes } from './deleted-partitions.js';
import type { ClassicEffects } from './classic-answers.js';
import { ConsumerGroup, type JoinRequest, type MemberAssignment, type TopicCounts } from './consumer-group.js';
import {
  encodeGroupRecord,
  offsetsPartitionFor,
  type GroupMetadataValue,
  type GroupRecord,
  type InstanceValue,
  type Subscription,
} from './group-records.js';
import { type MemberListener, MemberListeners } from './member-listeners.js';
import { offsetsToExpire } from './group-offsets.js';
import { subscribedTopics, TOPIC_VISIBILITY, type TopicVisibility } from './subscription-topics.js';

/** How often groups are ticked (member expiry, due rebalances). */
export const GROUP_TICK_INTERVAL_MS = 100;
/** When a load was deferred (a new leader's high watermark still below its log end), how soon it is tried again. */
const LOAD_RETRY_MS = 1_000;
/** REST members' coordinator session: the instance layer evicts idle instances well before this. */
export const REST_MEMBER_SESSION_FACTOR = 2;

export interface OffsetToCommit {
  topic: string;
  partition: number;
  /** The next offset to read (Kafka's committed offset). */
  offset: number;
  metadata?: string;
  /** The leader epoch of the record before the offset, when the client knows it (Kafka's OffsetCommit v6+). */
  leaderEpoch?: number;
}

export type { MemberListener };

export type { CoordinatorState };

/** Where the effects of Kafka's classic protocol go (classic-groups.service.ts: waiting requests, writes). */
export interface ClassicSink {
  apply(group: ConsumerGroup, effects: ClassicEffects): void;
  /** These groups are no longer served here (their offsets partition moved): their waiting requests end. */
  unloaded(groupIds: readonly string[]): void;
}

@Injectable()
export class GroupCoordinator implements OnApplicationShutdown {
  private readonly logger = new Logger('GroupCoordinator');
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly writeChains = new Map<number, Promise<unknown>>();
  private readonly listeners = new MemberListeners(this.logger);
  private readonly clock: Clock = systemClock;
  private ensuringTopic: Promise<void> | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private lastRetentionCheckMs = 0;
  private countsOf: { topics: ReadonlyMap<string, unknown>; counts: TopicCounts } | null = null;
  private loaded = false;
  /** Offsets partitions this broker leads and has replayed: only their groups are served and written. */
  private readonly loadedPartitions = new Set<number>();
  private leadershipSync: Promise<void> = Promise.resolve();
  /** The topics as the last metadata change showed them: a later change that drops one deletes its offsets. */
  private knownTopics: TopicShapes = new Map();
  private classicSink: ClassicSink | null = null;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    private readonly controller: ControllerService,
    private readonly replicas: ReplicaManager,
    @Optional() @Inject(TOPIC_VISIBILITY) private readonly visibility: TopicVisibility | null = null,
  ) {}

  /** Replays the offsets partitions this broker leads, then starts ticking. */
  async start(): Promise<void> {
    await this.syncLeadership();
    this.knownTopics = topicShapes(this.metadata.allTopics());
    this.metadata.onChange((topics) => {
      const shapes = topicShapes(topics);
      const deleted = deletedPartitions(this.knownTopics, shapes);
      this.knownTopics = shapes;
      if (deleted.length > 0) void this.removeOffsets([...this.groups.values()], () => deleted);
      void this.syncLeadership();
    });
    this.loaded = true;
    this.lastRetentionCheckMs = this.clock.monotonicMs();
    this.ticker = setInterval(() => this.tick(), GROUP_TICK_INTERVAL_MS);
    this.ticker.unref();
  }

  attachClassic(sink: ClassicSink): void {
    this.classicSink = sink;
  }

  onApplicationShutdown(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
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
    const topics = this.metadata.allTopics();
    if (this.countsOf?.topics === topics) return this.countsOf.counts;
    const counts = new Map<string, number>();
    for (const [name, topic] of topics) {
      if (!isInternalTopic(name)) counts.set(name, topic.assignment.replicas.length);
    }
    this.countsOf = { topics, counts };
    return counts;
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
      await this.append(groupId, [{ kind: 'instance', group: groupId, instance: name, value }]);
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
        sessionTimeoutMs: this.config.groups.consumerInstanceTimeoutMs * REST_MEMBER_SESSION_FACTOR,
        rebalanceTimeoutMs: this.config.groups.consumerInstanceTimeoutMs,
      });
    } else {
      group.leave(name);
    }
  }

  async deleteInstance(groupId: string, name: string): Promise<void> {
    await this.append(groupId, [{ kind: 'instance', group: groupId, instance: name, value: null }]);
    this.groups.get(groupId)?.leave(name);
  }

  // ---- members (WebSocket subscriptions and REST instances) ----

  async join(groupId: string, request: JoinRequest): Promise<void> {
    await this.ensureOffsetsTopic();
    this.assertCoordinator(groupId);
    this.groupOrCreate(groupId).join(request);
  }

  heartbeat(groupId: string, memberId: string): boolean {
    return this.groups.get(groupId)?.heartbeat(memberId) ?? false;
  }

  leave(groupId: string, memberId: string): void {
    this.groups.get(groupId)?.leave(memberId);
    this.listeners.forget(groupId, memberId);
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
    await this.append(
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
    return this.append(groupId, [{ kind: 'group', group: groupId, value }]);
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
    await this.append(groupId, group.deletionRecords());
    this.groups.delete(groupId);
  }

  // ---- the offsets topic ----

  /** Creates __consumer_offsets when it does not exist yet; returns once the partitions led here are loaded. */
  async ensureOffsetsTopic(): Promise<void> {
    if (this.metadata.topic(GROUP_METADATA_TOPIC_NAME) !== undefined) {
      await this.leadershipSync; // a load started by a metadata change (e.g. a concurrent creation) finishes first
      return;
    }
    this.ensuringTopic ??= createOffsetsTopic(
      this.controller,
      this.config,
      () => this.metadata.topic(GROUP_METADATA_TOPIC_NAME) !== undefined,
    )
      .then(() => this.syncLeadership())
      .finally(() => (this.ensuringTopic = null));
    await this.ensuringTopic;
    if (this.metadata.topic(GROUP_METADATA_TOPIC_NAME) === undefined) {
      throw errors.retriable('The offsets topic is being created; retry.');
    }
  }

  private offsetsPartition(groupId: string): number {
    const topic = this.metadata.topic(GROUP_METADATA_TOPIC_NAME);
    if (topic === undefined) throw errors.retriable('The offsets topic does not exist yet; retry.');
    return offsetsPartitionFor(groupId, topic.assignment.replicas.length);
  }

  /** The group, created (Empty) when this broker holds none of that name; callers check the coordinator first. */
  groupOrCreate(groupId: string): ConsumerGroup {
    let group = this.groups.get(groupId);
    if (group === undefined || group.state === 'Dead') {
      group = new ConsumerGroup(groupId, this.groupSettings(), this.clock, (subscription, topics) =>
        subscribedTopics(subscription, topics, this.visibility),
      );
      this.groups.set(groupId, group);
    }
    return group;
  }

  private groupSettings() {
    return {
      initialRebalanceDelayMs: this.config.groups.initialRebalanceDelayMs,
      defaultAssignor: this.config.groups.defaultAssignor,
      maxSize: this.config.groups.maxSize,
      minSessionTimeoutMs: this.config.groups.minSessionTimeoutMs,
      maxSessionTimeoutMs: this.config.groups.maxSessionTimeoutMs,
    };
  }

  /**
   * Appends the records of one group to its offsets partition (one batch, in order with every other write to
   * that partition) and replays them once written.
   */
  private async append(groupId: string, records: GroupRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.ensureOffsetsTopic();
    this.assertCoordinator(groupId);
    const partition = this.offsetsPartition(groupId);
    const timestamp = this.clock.nowMs();
    const batch = encodeBatch(records.map((record) => ({ ...encodeGroupRecord(record), timestamp })));
    const previous = this.writeChains.get(partition) ?? Promise.resolve();
    const write = previous
      .catch(() => undefined)
      .then(() => this.replicas.produce(GROUP_METADATA_TOPIC_NAME, partition, batch, 'all'));
    this.writeChains.set(partition, write);
    try {
      await write;
    } finally {
      if (this.writeChains.get(partition) === write) this.writeChains.delete(partition);
    }
    const group = this.groupOrCreate(groupId);
    for (const record of records) group.replay(record, 'live');
    if (group.state === 'Dead') this.groups.delete(groupId);
  }

  /**
   * Loads the groups of every offsets partition this broker has come to lead (replaying it) and forgets those of
   * partitions it no longer leads. Serialised; called at start and on every metadata change.
   */
  syncLeadership(): Promise<void> {
    this.leadershipSync = this.leadershipSync.then(
      () => this.syncLeadershipOnce(),
      () => this.syncLeadershipOnce(),
    );
    return this.leadershipSync;
  }

  private async syncLeadershipOnce(): Promise<void> {
    const topic = this.metadata.topic(GROUP_METADATA_TOPIC_NAME);
    const led = new Set<number>();
    topic?.states.forEach((state, partition) => {
      if (state?.leader === this.config.brokerId) led.add(partition);
    });
    const count = topic?.assignment.replicas.length ?? 0;
    const unloaded: string[] = [];
    for (const partition of [...this.loadedPartitions]) {
      if (led.has(partition)) continue;
      this.loadedPartitions.delete(partition);
      for (const groupId of [...this.groups.keys()]) {
        if (offsetsPartitionFor(groupId, count) !== partition) continue;
        this.groups.delete(groupId);
        unloaded.push(groupId);
      }
    }
    if (unloaded.length > 0) this.classicSink?.unloaded(unloaded);
    const instanceSessionMs = this.config.groups.consumerInstanceTimeoutMs * REST_MEMBER_SESSION_FACTOR;
    let deferred = false;
    for (const partition of led) {
      if (this.loadedPartitions.has(partition)) continue;
      try {
        // A leader that just took over knows only the HW it had as a follower: the last commits may sit above it.
        // Load once the HW has reached the log end, so that no committed offset is missed.
        if (!this.replicas.highWatermarkAtLogEnd(GROUP_METADATA_TOPIC_NAME, partition)) {
          deferred = true;
          continue;
        }
        const records = await replayOffsetsPartition(
          this.replicas,
          partition,
          (record) => this.groupOrCreate(record.group).replay(record, 'load'),
          this.logger,
        );
        const loaded: ConsumerGroup[] = [];
        for (const [groupId, group] of this.groups) {
          if (offsetsPartitionFor(groupId, count) !== partition) continue;
          if (group.state === 'Dead' || group.isEmptyOfState()) this.groups.delete(groupId);
          else {
            group.reconcileInstances(instanceSessionMs);
            loaded.push(group);
          }
        }
        this.loadedPartitions.add(partition);
        const current = topicShapes(this.metadata.allTopics());
        void this.removeOffsets(loaded, (group) => missingPartitions(group.offsets.values(), current));
        if (records > 0) this.logger.log(`loaded ${GROUP_METADATA_TOPIC_NAME}-${partition}: ${records} record(s)`);
      } catch (error) {
        this.logger.warn(`loading ${GROUP_METADATA_TOPIC_NAME}-${partition} failed: ${(error as Error).message}`);
        deferred = true;
      }
    }
    if (deferred) setTimeout(() => void this.syncLeadership(), LOAD_RETRY_MS).unref();
  }

  /** The broker coordinating the group (the leader of its offsets partition), or null before the topic exists. */
  coordinatorOf(groupId: string): number | null {
    return coordinatorOf(this.metadata.topic(GROUP_METADATA_TOPIC_NAME), groupId);
  }

  coordinatorState(groupId: string): CoordinatorState {
    const topic = this.metadata.topic(GROUP_METADATA_TOPIC_NAME);
    return coordinatorState(topic, groupId, this.config.brokerId, this.loadedPartitions);
  }

  /** Throws unless this broker coordinates the group and has loaded it (a retriable error otherwise). */
  assertCoordinator(groupId: string): void {
    const topic = this.metadata.topic(GROUP_METADATA_TOPIC_NAME);
    assertCoordinator(topic, groupId, this.config.brokerId, this.loadedPartitions);
  }

  // ---- time ----

  private tick(): void {
    if (!this.loaded) return;
    const topics = this.topicCounts();
    for (const group of [...this.groups.values()]) {
      const { expired, write, classic } = group.tick(topics);
      if (classic !== undefined && !classic.empty) this.classicSink?.apply(group, classic);
      for (const member of expired) this.listeners.notify(group.groupId, member.memberId, null);
      if (write === null) continue;
      this.append(group.groupId, [{ kind: 'group', group: group.groupId, value: write }]).then(
        () => {
          for (const member of group.members.values()) {
            this.listeners.notify(group.groupId, member.memberId, group.assignmentOf(member.memberId));
          }
        },
        (error: unknown) => {
          group.rebalanceWriteFailed(write.generation);
          this.logger.warn(`group ${group.groupId}: writing generation failed: ${(error as Error).message}`);
        },
      );
    }
    const now = this.clock.monotonicMs();
    if (now - this.lastRetentionCheckMs >= this.config.groups.offsetsRetentionCheckIntervalMs) {
      this.lastRetentionCheckMs = now;
      void this.expireOffsets(topics);
    }
  }

  /** Offset retention: offsets of groups empty past offsets.retention.minutes, and of deleted topics, go. */
  private async expireOffsets(topics: TopicCounts): Promise<void> {
    for (const group of [...this.groups.values()]) {
      const expired = offsetsToExpire(group, topics, this.config.groups.offsetsRetentionMs);
      try {
        await this.append(group.groupId, expired);
        if (group.isEmptyOfState() && group.state === 'Empty') {
          await this.append(group.groupId, [{ kind: 'group', group: group.groupId, value: null }]);
        }
      } catch (error) {
        this.logger.warn(`group ${group.groupId}: offset expiry failed: ${(error as Error).message}`);
      }
    }
  }

  /**
   * Removes from each group the offsets of the partitions `deletedOf` names, at once in memory, then writes their
   * tombstones. A failed write is logged (as Kafka does); the periodic expiry retries offsets of topics that are gone.
   */
  private async removeOffsets(
    groups: readonly ConsumerGroup[],
    deletedOf: (group: ConsumerGroup) => readonly TopicPartition[],
  ): Promise<void> {
    for (const group of groups) {
      const tombstones = group.removeOffsets(deletedOf(group));
      if (tombstones.length === 0) continue;
      try {
        await this.append(group.groupId, tombstones);
      } catch (error) {
        this.logger.warn(
          `group ${group.groupId}: removing offsets of deleted partitions failed: ${(error as Error).message}`,
        );
      }
    }
  }
}
