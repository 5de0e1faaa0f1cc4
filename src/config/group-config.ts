// Settings of consumer groups, the offsets topic and REST consumer instances. Kafka's names and defaults as
// BROOK_ + upper snake case (group.initial.rebalance.delay.ms is BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS), plus
// Confluent REST Proxy's consumer.instance.timeout.ms and Brook's own bounds.
import { choice, integer, type Env } from './env-values.js';

export interface GroupConfig {
  /** Kafka's group.initial.rebalance.delay.ms: how long a new group waits for more members before assigning. */
  initialRebalanceDelayMs: number;
  /** Kafka's group.min.session.timeout.ms / group.max.session.timeout.ms: bounds for members' session timeouts. */
  minSessionTimeoutMs: number;
  maxSessionTimeoutMs: number;
  /** Kafka's group.max.size (Kafka: unbounded; Brook bounds it). */
  maxSize: number;
  /** Kafka's offsets.topic.num.partitions and offsets.topic.replication.factor. */
  offsetsTopicNumPartitions: number;
  offsetsTopicReplicationFactor: number;
  /** Kafka's offsets.topic.segment.bytes. */
  offsetsTopicSegmentBytes: number;
  /** Kafka's offsets.retention.minutes, in ms: committed offsets of a group empty this long are removed. */
  offsetsRetentionMs: number;
  offsetsRetentionCheckIntervalMs: number;
  /** REST Proxy's consumer.instance.timeout.ms: an instance idle this long is removed and leaves its group. */
  consumerInstanceTimeoutMs: number;
  /** REST Proxy's consumer.request.timeout.ms: how long a records poll waits by default. */
  consumerRequestTimeoutMs: number;
  /** Brook's bound on live REST consumer instances on one broker. */
  consumerInstancesMax: number;
  /** The assignor used when a member does not name one. */
  defaultAssignor: 'range' | 'roundrobin' | 'sticky';
}

export function loadGroupConfig(env: Env, options: { clusterMode: boolean }): GroupConfig {
  const minSessionTimeoutMs = integer(env, 'BROOK_GROUP_MIN_SESSION_TIMEOUT_MS', 6_000, 1);
  return {
    initialRebalanceDelayMs: integer(env, 'BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS', 3_000, 0, 300_000),
    minSessionTimeoutMs,
    maxSessionTimeoutMs: integer(env, 'BROOK_GROUP_MAX_SESSION_TIMEOUT_MS', 1_800_000, minSessionTimeoutMs),
    maxSize: integer(env, 'BROOK_GROUP_MAX_SIZE', 1_000, 1, 100_000),
    offsetsTopicNumPartitions: integer(env, 'BROOK_OFFSETS_TOPIC_NUM_PARTITIONS', 50, 1, 1_000),
    offsetsTopicReplicationFactor: integer(
      env,
      'BROOK_OFFSETS_TOPIC_REPLICATION_FACTOR',
      options.clusterMode ? 3 : 1,
      1,
      32,
    ),
    offsetsTopicSegmentBytes: integer(env, 'BROOK_OFFSETS_TOPIC_SEGMENT_BYTES', 104_857_600, 1024),
    offsetsRetentionMs: integer(env, 'BROOK_OFFSETS_RETENTION_MINUTES', 10_080, 1) * 60_000,
    offsetsRetentionCheckIntervalMs: integer(env, 'BROOK_OFFSETS_RETENTION_CHECK_INTERVAL_MS', 600_000, 1),
    consumerInstanceTimeoutMs: integer(env, 'BROOK_CONSUMER_INSTANCE_TIMEOUT_MS', 300_000, 100),
    consumerRequestTimeoutMs: integer(env, 'BROOK_CONSUMER_REQUEST_TIMEOUT_MS', 1_000, 0),
    consumerInstancesMax: integer(env, 'BROOK_CONSUMER_INSTANCES_MAX', 10_000, 1, 1_000_000),
    defaultAssignor: choice(env, 'BROOK_GROUP_DEFAULT_ASSIGNOR', 'range', ['range', 'roundrobin', 'sticky']),
  };
}
