// Which groups this broker serves follows which __consumer_offsets partitions it leads: on every metadata change it
// loads the groups of each partition it has come to lead (replaying the partition from its start) and forgets those
// of partitions it no longer leads, whose waiting classic requests then end. A new leader loads only once its high
// watermark has reached its log end (the last commits may sit above the HW it had as a follower); a deferred or
// failed load is tried again LOAD_RETRY_MS later. Offsets of deleted partitions are removed from every group held
// here, as Kafka does (deleted-partitions.ts): when a metadata change shows a topic deleted or created again, and,
// for deletions nobody here saw, when an offsets partition is loaded. Also creates the topic on first use.
import type { LoggerService } from '@nestjs/common';
import { errors } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { ControllerService } from '../controller-election/controller.service.js';
import type { ReplicaManager } from '../replication/replica-manager.service.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import { GROUP_METADATA_TOPIC_NAME } from '../topic/topic-name.js';
import type { ClassicSink } from './classic-sink.js';
import type { ConsumerGroup } from './consumer-group.js';
import { deletedPartitions, missingPartitions, topicShapes, type TopicShapes } from './deleted-partitions.js';
import { offsetsPartitionFor } from './group-records.js';
import type { GroupWriter } from './group-writer.js';
import type { HeldGroups } from './held-groups.js';
import { createOffsetsTopic, replayOffsetsPartition } from './offsets-topic.js';

/** When a load was deferred (a new leader's high watermark still below its log end), how soon it is tried again. */
const LOAD_RETRY_MS = 1_000;

export interface OffsetsLeadershipDeps {
  config: BrokerConfig;
  metadata: MetadataCache;
  controller: ControllerService;
  replicas: ReplicaManager;
  clock: Clock;
  logger: LoggerService;
  held: HeldGroups;
  writer: GroupWriter;
  /** Where unloaded groups' waiting classic requests are ended (null before classic-groups.service.ts attaches). */
  classicSink: () => ClassicSink | null;
}

export class OffsetsLeadership {
  private leadershipSync: Promise<void> = Promise.resolve();
  private ensuringTopic: Promise<void> | null = null;
  /** The topics as the last metadata change showed them: a later change that drops one deletes its offsets. */
  private knownTopics: TopicShapes = new Map();

  constructor(private readonly deps: OffsetsLeadershipDeps) {}

  /** Loads the partitions led here, then follows every metadata change. */
  async start(): Promise<void> {
    const { metadata, held, writer } = this.deps;
    await this.syncLeadership();
    this.knownTopics = topicShapes(metadata.allTopics());
    metadata.onChange((topics) => {
      const shapes = topicShapes(topics);
      const deleted = deletedPartitions(this.knownTopics, shapes);
      this.knownTopics = shapes;
      if (deleted.length > 0) void writer.removeOffsets([...held.groups.values()], () => deleted);
      void this.syncLeadership();
    });
  }

  /** Creates __consumer_offsets when it does not exist yet; returns once the partitions led here are loaded. */
  async ensureOffsetsTopic(): Promise<void> {
    const { metadata, controller, config } = this.deps;
    if (metadata.topic(GROUP_METADATA_TOPIC_NAME) !== undefined) {
      await this.leadershipSync; // a load started by a metadata change (e.g. a concurrent creation) finishes first
      return;
    }
    this.ensuringTopic ??= createOffsetsTopic(
      controller,
      config,
      () => metadata.topic(GROUP_METADATA_TOPIC_NAME) !== undefined,
    )
      .then(() => this.syncLeadership())
      .finally(() => (this.ensuringTopic = null));
    await this.ensuringTopic;
    if (metadata.topic(GROUP_METADATA_TOPIC_NAME) === undefined) {
      throw errors.retriable('The offsets topic is being created; retry.');
    }
  }

  /** Loads and unloads partitions as their leadership says; serialised. */
  syncLeadership(): Promise<void> {
    this.leadershipSync = this.leadershipSync.then(
      () => this.syncLeadershipOnce(),
      () => this.syncLeadershipOnce(),
    );
    return this.leadershipSync;
  }

  private async syncLeadershipOnce(): Promise<void> {
    const topic = this.deps.metadata.topic(GROUP_METADATA_TOPIC_NAME);
    const led = new Set<number>();
    topic?.states.forEach((state, partition) => {
      if (state?.leader === this.deps.config.brokerId) led.add(partition);
    });
    const count = topic?.assignment.replicas.length ?? 0;
    this.unloadAllBut(led, count);
    let deferred = false;
    for (const partition of led) {
      if (this.deps.held.loadedPartitions.has(partition)) continue;
      if (!(await this.load(partition, count))) deferred = true;
    }
    if (deferred) this.deps.clock.setTimer(LOAD_RETRY_MS, () => void this.syncLeadership(), { background: true });
  }

  /** Forgets the groups of every loaded partition not in `led`; their waiting classic requests end. */
  private unloadAllBut(led: ReadonlySet<number>, count: number): void {
    const { held } = this.deps;
    const unloaded: string[] = [];
    for (const partition of [...held.loadedPartitions]) {
      if (led.has(partition)) continue;
      held.loadedPartitions.delete(partition);
      for (const groupId of [...held.groups.keys()]) {
        if (offsetsPartitionFor(groupId, count) !== partition) continue;
        held.groups.delete(groupId);
        unloaded.push(groupId);
      }
    }
    if (unloaded.length > 0) this.deps.classicSink()?.unloaded(unloaded);
  }

  /** Replays one partition led here into its groups; false when the load must be tried again later. */
  private async load(partition: number, count: number): Promise<boolean> {
    const { held, replicas, logger, metadata, writer } = this.deps;
    try {
      // A leader that just took over knows only the HW it had as a follower: the last commits may sit above it.
      // Load once the HW has reached the log end, so that no committed offset is missed.
      if (!replicas.highWatermarkAtLogEnd(GROUP_METADATA_TOPIC_NAME, partition)) return false;
      const records = await replayOffsetsPartition(
        replicas,
        partition,
        (record) => held.groupOrCreate(record.group).replay(record, 'load'),
        logger,
      );
      const loaded: ConsumerGroup[] = [];
      for (const [groupId, group] of held.groups) {
        if (offsetsPartitionFor(groupId, count) !== partition) continue;
        if (group.state === 'Dead' || group.isEmptyOfState()) held.groups.delete(groupId);
        else {
          group.reconcileInstances(held.instanceSessionMs());
          loaded.push(group);
        }
      }
      held.loadedPartitions.add(partition);
      const current = topicShapes(metadata.allTopics());
      void writer.removeOffsets(loaded, (group) => missingPartitions(group.offsets.values(), current));
      if (records > 0) logger.log(`loaded ${GROUP_METADATA_TOPIC_NAME}-${partition}: ${records} record(s)`);
      return true;
    } catch (error) {
      logger.warn(`loading ${GROUP_METADATA_TOPIC_NAME}-${partition} failed: ${(error as Error).message}`);
      return false;
    }
  }
}
