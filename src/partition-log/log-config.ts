// The settings one partition log runs with: the storage half of a topic's resolved configuration, plus the
// broker-level limits that apply to every log. Defaults are Kafka's.
import { TimestampType } from './record-batch-layout.js';

export interface LogConfig {
  segmentBytes: number;
  segmentMs: number;
  segmentIndexBytes: number;
  indexIntervalBytes: number;
  retentionMs: number; // -1: unlimited
  retentionBytes: number; // -1: unlimited
  maxMessageBytes: number;
  messageTimestampType: TimestampType;
  cleanupPolicyDelete: boolean;
  cleanupPolicyCompact: boolean;
  deleteRetentionMs: number;
  minCompactionLagMs: number;
  minCleanableDirtyRatio: number;
  flushMessages: number; // Number.MAX_SAFE_INTEGER: never on count
  flushMs: number; // Number.MAX_SAFE_INTEGER: never on time
}

export const DEFAULT_LOG_CONFIG: Readonly<LogConfig> = Object.freeze({
  segmentBytes: 1024 * 1024 * 1024,
  segmentMs: 7 * 24 * 60 * 60 * 1000,
  segmentIndexBytes: 10 * 1024 * 1024,
  indexIntervalBytes: 4096,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  retentionBytes: -1,
  maxMessageBytes: 1024 * 1024 + 12,
  messageTimestampType: TimestampType.CreateTime,
  cleanupPolicyDelete: true,
  cleanupPolicyCompact: false,
  deleteRetentionMs: 24 * 60 * 60 * 1000,
  minCompactionLagMs: 0,
  minCleanableDirtyRatio: 0.5,
  flushMessages: Number.MAX_SAFE_INTEGER,
  flushMs: Number.MAX_SAFE_INTEGER,
});

export function logConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return { ...DEFAULT_LOG_CONFIG, ...overrides };
}
