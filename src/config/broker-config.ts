// The broker's settings, read once at start-up from environment variables (flags are mapped onto them by main.ts)
// with defaults in one place. A bad value stops the broker with a message naming the setting.
//
// Brook's own settings: BROOK_PORT, BROOK_HOST, BROOK_DATA_DIR, BROOK_BROKER_ID, BROOK_REDIS_URL,
// BROOK_ADVERTISED_URL, BROOK_LOG_LEVEL, plus Brook's bounds below. Settings Kafka also has keep Kafka's name and
// default as BROOK_ + upper snake case; topic-config defaults (BROOK_LOG_RETENTION_MS...) are read by
// brokerDefaultsFromEnv in topic/topic-config.ts.
import { resolve } from 'node:path';
import { boolean, choice, ConfigError, integer, url, type Env } from './env-values.js';

export { ConfigError };
import { brokerDefaultsFromEnv } from '../topic/topic-config.js';
import { loadGroupConfig, type GroupConfig } from './group-config.js';
import { loadSecurityConfig, type SecurityConfig } from './security-config.js';

export interface BrokerConfig {
  port: number;
  host: string;
  dataDir: string;
  brokerId: number;
  redisUrl: string | null;
  advertisedUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** BROOK_LOG_FORMAT: text for people, json (one object a line) for log pipelines. */
  logFormat: 'text' | 'json';
  /** Kafka's num.partitions: partitions of a topic created without a count. */
  numPartitions: number;
  defaultReplicationFactor: number;
  autoCreateTopicsEnable: boolean;
  logRetentionCheckIntervalMs: number;
  logCleanerBackoffMs: number;
  logFlushSchedulerIntervalMs: number;
  /** Kafka's socket.request.max.bytes: the largest request body accepted (413 above). */
  socketRequestMaxBytes: number;
  /** Brook's bound on a read's wait_ms long-poll. */
  readWaitMsMax: number;
  /** Brook's bound on a read's max_bytes. */
  readBytesMax: number;
  /** Brook's bound on entries in one records:batch or v2 produce request. */
  produceBatchEntriesMax: number;
  /** Bound on open segment file descriptors. */
  maxOpenFiles: number;
  /** Topic-config defaults set at broker level (Kafka's log.* settings). */
  topicConfigDefaults: Record<string, string>;
  /** Consumer groups, the offsets topic and REST consumer instances. */
  groups: GroupConfig;
  /** Authentication, ACLs, TLS (security-config.ts). */
  security: SecurityConfig;
}

export function loadBrokerConfig(env: Env = process.env): BrokerConfig {
  const port = integer(env, 'BROOK_PORT', 8082, 0, 65535);
  const host = env.BROOK_HOST?.trim() || '127.0.0.1';
  const advertised = url(env, 'BROOK_ADVERTISED_URL');
  const redisUrl = url(env, 'BROOK_REDIS_URL');
  if (redisUrl !== null && !/^(redis|rediss|redis-sentinel):/.test(redisUrl)) {
    throw new ConfigError(
      `BROOK_REDIS_URL=${env.BROOK_REDIS_URL} is invalid: expected redis://, rediss:// or redis-sentinel://`,
    );
  }
  let topicConfigDefaults: Record<string, string>;
  try {
    topicConfigDefaults = brokerDefaultsFromEnv(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const security = loadSecurityConfig(env);
  const scheme = security.tls === null ? 'http' : 'https';
  return {
    port,
    host,
    dataDir: resolve(env.BROOK_DATA_DIR?.trim() || './data'),
    brokerId: integer(env, 'BROOK_BROKER_ID', 0, 0, 2 ** 31 - 1),
    redisUrl,
    advertisedUrl: (advertised ?? `${scheme}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/$/, ''),
    logLevel: choice(env, 'BROOK_LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    logFormat: choice(env, 'BROOK_LOG_FORMAT', 'text', ['text', 'json']),
    numPartitions: integer(env, 'BROOK_NUM_PARTITIONS', 1, 1, 100_000),
    defaultReplicationFactor: integer(env, 'BROOK_DEFAULT_REPLICATION_FACTOR', 1, 1, 32),
    autoCreateTopicsEnable: boolean(env, 'BROOK_AUTO_CREATE_TOPICS_ENABLE', false),
    logRetentionCheckIntervalMs: integer(env, 'BROOK_LOG_RETENTION_CHECK_INTERVAL_MS', 300_000, 1),
    logCleanerBackoffMs: integer(env, 'BROOK_LOG_CLEANER_BACKOFF_MS', 15_000, 1),
    logFlushSchedulerIntervalMs: integer(env, 'BROOK_LOG_FLUSH_SCHEDULER_INTERVAL_MS', 1_000, 1),
    socketRequestMaxBytes: integer(env, 'BROOK_SOCKET_REQUEST_MAX_BYTES', 104_857_600, 1024, 2 ** 31 - 1),
    readWaitMsMax: integer(env, 'BROOK_READ_WAIT_MS_MAX', 30_000, 0),
    readBytesMax: integer(env, 'BROOK_READ_BYTES_MAX', 64 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    produceBatchEntriesMax: integer(env, 'BROOK_PRODUCE_BATCH_ENTRIES_MAX', 10_000, 1, 1_000_000),
    maxOpenFiles: integer(env, 'BROOK_MAX_OPEN_FILES', 1024, 8),
    topicConfigDefaults,
    groups: loadGroupConfig(env, { clusterMode: redisUrl !== null }),
    security,
  };
}
