// The groups this broker holds as their coordinator, and the __consumer_offsets partitions it has loaded: only the
// groups of a loaded partition (led here and replayed) are served and written. The state that the coordinator's
// parts share (group-coordinator.service.ts answers requests, offsets-leadership.ts loads and unloads partitions,
// group-writer.ts appends and replays records, group-ticker.ts runs expiry and retention); plain, no I/O.
import type { Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { errors } from '../common/brook-error.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { GROUP_METADATA_TOPIC_NAME, isInternalTopic } from '../topic/topic-name.js';
import { ConsumerGroup, type TopicCounts } from './consumer-group.js';
import { offsetsPartitionFor } from './group-records.js';
import { assertCoordinator, coordinatorState, type CoordinatorState } from './offsets-topic.js';
import { subscribedTopics, type TopicVisibility } from './subscription-topics.js';

/** REST members' coordinator session: the instance layer evicts idle instances well before this. */
export const REST_MEMBER_SESSION_FACTOR = 2;

export class HeldGroups {
  readonly groups = new Map<string, ConsumerGroup>();
  /** Offsets partitions this broker leads and has replayed: only their groups are served and written. */
  readonly loadedPartitions = new Set<number>();
  private countsOf: { topics: ReadonlyMap<string, unknown>; counts: TopicCounts } | null = null;

  constructor(
    private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    private readonly clock: Clock,
    private readonly visibility: TopicVisibility | null,
  ) {}

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

  /** The session of a REST instance's member: the instance timeout with room to spare. */
  instanceSessionMs(): number {
    return this.config.groups.consumerInstanceTimeoutMs * REST_MEMBER_SESSION_FACTOR;
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

  offsetsTopic(): TopicMetadata | undefined {
    return this.metadata.topic(GROUP_METADATA_TOPIC_NAME);
  }

  /** The group's partition of __consumer_offsets (a retriable error before the topic exists). */
  offsetsPartition(groupId: string): number {
    const topic = this.offsetsTopic();
    if (topic === undefined) throw errors.retriable('The offsets topic does not exist yet; retry.');
    return offsetsPartitionFor(groupId, topic.assignment.replicas.length);
  }

  coordinatorState(groupId: string): CoordinatorState {
    return coordinatorState(this.offsetsTopic(), groupId, this.config.brokerId, this.loadedPartitions);
  }

  /** Throws unless this broker coordinates the group and has loaded it (a retriable error otherwise). */
  assertCoordinator(groupId: string): void {
    assertCoordinator(this.offsetsTopic(), groupId, this.config.brokerId, this.loadedPartitions);
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
}
