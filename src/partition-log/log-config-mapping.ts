// From a topic's resolved configuration (Kafka's names, config/topic-config.ts) to the settings a log runs with.
import type { ResolvedTopicConfig } from '../config/topic-config.js';
import type { LogConfig } from './log-config.js';
import { TimestampType } from './record-batch.js';

export function toLogConfig(topic: ResolvedTopicConfig): LogConfig {
  return {
    segmentBytes: topic.segmentBytes,
    segmentMs: topic.segmentMs,
    segmentIndexBytes: topic.segmentIndexBytes,
    indexIntervalBytes: topic.indexIntervalBytes,
    retentionMs: topic.retentionMs,
    retentionBytes: topic.retentionBytes,
    maxMessageBytes: topic.maxMessageBytes,
    messageTimestampType:
      topic.messageTimestampType === 'LogAppendTime' ? TimestampType.LogAppendTime : TimestampType.CreateTime,
    cleanupPolicyDelete: topic.cleanupPolicyDelete,
    cleanupPolicyCompact: topic.cleanupPolicyCompact,
    deleteRetentionMs: topic.deleteRetentionMs,
    minCompactionLagMs: topic.minCompactionLagMs,
    minCleanableDirtyRatio: topic.minCleanableDirtyRatio,
    flushMessages: topic.flushMessages,
    flushMs: topic.flushMs,
  };
}
