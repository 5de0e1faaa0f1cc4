// The broker's settings, read once at start-up from environment variables (flags are mapped onto them by main.ts)
// with defaults in one place. A bad value stops the broker with a message naming the setting.
//
// Brook's own settings: BROOK_PORT, BROOK_HOST, BROOK_DATA_DIR, BROOK_BROKER_ID, BROOK_REDIS_URL,
// BROOK_ADVERTISED_URL, BROOK_LOG_LEVEL, BROOK_CLUSTER_SECRET (mandatory with BROOK_REDIS_URL), plus Brook's
// bounds below. Cluster timings are named as Kafka's KRaft ones: BROOK_BROKER_SESSION_TIMEOUT_MS,
// BROOK_BROKER_HEARTBEAT_INTERVAL_MS. Settings Kafka also has keep Kafka's name and
// default as BROOK_ + upper snake case; topic-config defaults (BROOK_LOG_RETENTION_MS...) are read by
// brokerDefaultsFromEnv in topic-config.ts.
import { resolve } from 'node:path';
import { parseRedisUrl, RedisUrlError } from './redis-url.js';
import { brokerDefaultsFromEnv } from './topic-config.js';
import { boolean, choice, ConfigError, integer, url, type Env } from './env-values.js';
import { loadGroupConfig, type GroupConfig } from './group-config.js';

export { ConfigError };
import { loadKafkaConfig, type KafkaListenerConfig } from './kafka-config.js';
import { loadSchemaRegistryConfig, type SchemaRegistryConfig } from './schema-registry-config.js';
import { loadSecurityConfig, type SecurityConfig } from './security-config.js';
import { wsLimitsFromEnv, type WsLimits } from './stream-limits.js';
import { corsOriginsFromEnv, type CorsOrigins } from './cors-origins.js';

/** The shortest cluster secret accepted: brokers trust any request that carries it. */
export const CLUSTER_SECRET_LENGTH_MIN = 16;

export interface BrokerConfig {
  port: number;
  host: string;
  dataDir: string;
  brokerId: number;
  /** Unset: one broker on the embedded store. Set: cluster mode (redis-url.ts has the syntax). */
  redisUrl: string | null;
  /** Shared by the brokers of a cluster; guards the internal routes. Null only without redisUrl. */
  clusterSecret: string | null;
  /** Kafka's broker.session.timeout.ms: a registration and the controller lease expire after it. */
  brokerSessionTimeoutMs: number;
  /** Kafka's broker.heartbeat.interval.ms: how often registration and lease are renewed. */
  brokerHeartbeatIntervalMs: number;
  advertisedUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** BROOK_LOG_FORMAT: text for people, json (one object a line) for log pipelines. */
  logFormat: 'text' | 'json';
  /** Kafka's num.partitions: partitions of a topic created without a count. */
  numPartitions: number;
  defaultReplicationFactor: number;
  autoCreateTopicsEnable: boolean;
  /** BROOK_CONSOLE_ENABLED: this broker serves Brook Console at /console/. */
  consoleEnabled: boolean;
  logRetentionCheckIntervalMs: number;
  logCleanerBackoffMs: number;
  logFlushSchedulerIntervalMs: number;
  /** Kafka's socket.request.max.bytes: the largest request body accepted (413 above). */
  socketRequestMaxBytes: number;
  /** BROOK_CORS_ALLOWED_ORIGINS (cors-origins.ts): null, the default, is no CORS. */
  corsAllowedOrigins: CorsOrigins;
  /** Brook's bound on a read's wait_ms long-poll. */
  readWaitMsMax: number;
  /** Brook's bound on a read's max_bytes. */
  readBytesMax: number;
  /** Brook's bound on entries in one records:batch or v2 produce request. */
  produceBatchEntriesMax: number;
  /** Bound on open segment file descriptors. */
  maxOpenFiles: number;
  /** BROOK_IDLE_MEMORY_REDUCE_AFTER_MS: after this long idle, once per idle stretch, memory goes back to the
   *  system (common/idle-memory-reducer.ts; a large start-up's full collection after at most 2 s); 0 is never. */
  idleMemoryReduceAfterMs: number;
  /** Topic-config defaults set at broker level (Kafka's log.* settings). */
  topicConfigDefaults: Record<string, string>;
  /** The BROOK_ variables set (not blank) in the environment or by flags: the broker configs whose source is
   *  STATIC_BROKER_CONFIG (broker-config-table.ts). Names only. */
  settingsFromEnv: readonly string[];
  /** Kafka's replica.lag.time.max.ms: a follower not caught up for longer leaves the ISR. */
  replicaLagTimeMaxMs: number;
  /** Kafka's replica.high.watermark.checkpoint.interval.ms: how often the hosted partitions' HWs are saved. */
  replicaHighWatermarkCheckpointIntervalMs: number;
  /** Kafka's replica.fetch.wait.max.ms: how long a follower's fetch waits at the leader for new data. */
  replicaFetchWaitMaxMs: number;
  /** Kafka's replica.fetch.max.bytes: bytes a follower asks for per fetch (one batch at least). */
  replicaFetchMaxBytes: number;
  /** Kafka's replica.fetch.backoff.ms: a follower's pause after a failed fetch. */
  replicaFetchBackoffMs: number;
  /** Brook's bound on how long an acks=all produce waits for the ISR before failing (outcome unknown). */
  acksAllTimeoutMs: number;
  /** Kafka's producer.id.expiration.ms: a producer id silent this long is forgotten by each partition. */
  producerIdExpirationMs: number;
  /** Kafka's producer.id.expiration.check.interval.ms. */
  producerIdExpirationCheckIntervalMs: number;
  /** How long an Idempotency-Key's outcome is kept (BROOK_IDEMPOTENCY_RETENTION_MS). */
  idempotencyRetentionMs: number;
  /** The bound on producer ids one partition remembers; beyond it the one silent longest is forgotten. */
  producerIdsPerPartitionMax: number;
  /** Kafka's controlled.shutdown.enable: on SIGTERM, move leadership away before stopping (cluster mode). */
  controlledShutdownEnable: boolean;
  /** Kafka's controlled.shutdown.max.retries and controlled.shutdown.retry.backoff.ms. */
  controlledShutdownMaxRetries: number;
  controlledShutdownRetryBackoffMs: number;
  /** Kafka's auto.leader.rebalance.enable, leader.imbalance.check.interval.seconds (in ms here) and
   *  leader.imbalance.per.broker.percentage: the controller gives preferred replicas their leadership back. */
  autoLeaderRebalanceEnable: boolean;
  leaderImbalanceCheckIntervalMs: number;
  leaderImbalancePerBrokerPercentage: number;
  /** Consumer groups, the offsets topic and REST consumer instances. */
  groups: GroupConfig;
  /** Bounds of the WebSocket endpoint (GET /v3/ws) and of SSE streams (stream-limits.ts). */
  ws: WsLimits;
  /** Authentication, ACLs, TLS (security-config.ts). */
  security: SecurityConfig;
  /** The Kafka wire-protocol listener (kafka-config.ts). */
  kafka: KafkaListenerConfig;
  /** The built-in schema registry (schema-registry-config.ts). */
  schemaRegistry: SchemaRegistryConfig;
}

export function loadBrokerConfig(env: Env = process.env): BrokerConfig {
  const port = integer(env, 'BROOK_PORT', 8082, 0, 65535);
  const host = env.BROOK_HOST?.trim() || '127.0.0.1';
  const advertised = url(env, 'BROOK_ADVERTISED_URL');
  const redisUrl = env.BROOK_REDIS_URL?.trim() || null;
  if (redisUrl !== null) {
    try {
      parseRedisUrl(redisUrl);
    } catch (error) {
      if (!(error instanceof RedisUrlError)) throw error;
      throw new ConfigError(`BROOK_REDIS_URL is invalid: ${error.message}`);
    }
  }
  const clusterSecret = env.BROOK_CLUSTER_SECRET?.trim() || null;
  if (redisUrl !== null && clusterSecret === null) {
    throw new ConfigError(
      'BROOK_CLUSTER_SECRET is required with BROOK_REDIS_URL (cluster mode): brokers use it to call each other; ' +
        `give every broker of the cluster the same random string of at least ${CLUSTER_SECRET_LENGTH_MIN} characters`,
    );
  }
  if (clusterSecret !== null && clusterSecret.length < CLUSTER_SECRET_LENGTH_MIN) {
    throw new ConfigError(`BROOK_CLUSTER_SECRET is too short: use at least ${CLUSTER_SECRET_LENGTH_MIN} characters`);
  }
  const brokerSessionTimeoutMs = integer(env, 'BROOK_BROKER_SESSION_TIMEOUT_MS', 9_000, 100, 3_600_000);
  const brokerHeartbeatIntervalMs = integer(env, 'BROOK_BROKER_HEARTBEAT_INTERVAL_MS', 2_000, 10, 3_600_000);
  if (brokerHeartbeatIntervalMs * 2 > brokerSessionTimeoutMs) {
    throw new ConfigError(
      `BROOK_BROKER_HEARTBEAT_INTERVAL_MS=${brokerHeartbeatIntervalMs} must be at most half of ` +
        `BROOK_BROKER_SESSION_TIMEOUT_MS=${brokerSessionTimeoutMs}, or a registration lapses between heartbeats`,
    );
  }
  let topicConfigDefaults: Record<string, string>;
  try {
    topicConfigDefaults = brokerDefaultsFromEnv(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const ws = wsLimitsFromEnv(env);
  const schemaRegistry = loadSchemaRegistryConfig(env, host);
  if (schemaRegistry.enabled && schemaRegistry.port === port && schemaRegistry.host === host) {
    throw new ConfigError(
      `BROOK_SCHEMA_REGISTRY_PORT=${port} is the HTTP port: give the schema registry's listener another port ` +
        '(the HTTP port serves the registry at its root paths anyway)',
    );
  }
  const security = loadSecurityConfig(env);
  const scheme = security.tls === null ? 'http' : 'https';
  const advertisedUrl = (advertised ?? `${scheme}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(
    /\/$/,
    '',
  );
  return {
    port,
    host,
    dataDir: resolve(env.BROOK_DATA_DIR?.trim() || './data'),
    brokerId: integer(env, 'BROOK_BROKER_ID', 0, 0, 2 ** 31 - 1),
    redisUrl,
    clusterSecret,
    brokerSessionTimeoutMs,
    brokerHeartbeatIntervalMs,
    advertisedUrl,
    logLevel: choice(env, 'BROOK_LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    logFormat: choice(env, 'BROOK_LOG_FORMAT', 'text', ['text', 'json']),
    numPartitions: integer(env, 'BROOK_NUM_PARTITIONS', 1, 1, 100_000),
    defaultReplicationFactor: integer(env, 'BROOK_DEFAULT_REPLICATION_FACTOR', 1, 1, 32),
    autoCreateTopicsEnable: boolean(env, 'BROOK_AUTO_CREATE_TOPICS_ENABLE', false),
    consoleEnabled: boolean(env, 'BROOK_CONSOLE_ENABLED', true),
    logRetentionCheckIntervalMs: integer(env, 'BROOK_LOG_RETENTION_CHECK_INTERVAL_MS', 300_000, 1),
    logCleanerBackoffMs: integer(env, 'BROOK_LOG_CLEANER_BACKOFF_MS', 15_000, 1),
    logFlushSchedulerIntervalMs: integer(env, 'BROOK_LOG_FLUSH_SCHEDULER_INTERVAL_MS', 1_000, 1),
    socketRequestMaxBytes: integer(env, 'BROOK_SOCKET_REQUEST_MAX_BYTES', 104_857_600, 1024, 2 ** 31 - 1),
    corsAllowedOrigins: corsOriginsFromEnv(env),
    readWaitMsMax: integer(env, 'BROOK_READ_WAIT_MS_MAX', 30_000, 0),
    readBytesMax: integer(env, 'BROOK_READ_BYTES_MAX', 64 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    produceBatchEntriesMax: integer(env, 'BROOK_PRODUCE_BATCH_ENTRIES_MAX', 10_000, 1, 1_000_000),
    maxOpenFiles: integer(env, 'BROOK_MAX_OPEN_FILES', 1024, 8),
    idleMemoryReduceAfterMs: integer(env, 'BROOK_IDLE_MEMORY_REDUCE_AFTER_MS', 5_000, 0, 3_600_000),
    topicConfigDefaults,
    settingsFromEnv: Object.keys(env)
      .filter((name) => name.startsWith('BROOK_') && (env[name] ?? '').trim() !== '')
      .sort(),
    replicaLagTimeMaxMs: integer(env, 'BROOK_REPLICA_LAG_TIME_MAX_MS', 30_000, 10, 3_600_000),
    replicaHighWatermarkCheckpointIntervalMs: integer(
      env,
      'BROOK_REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS',
      5_000,
      10,
      3_600_000,
    ),
    replicaFetchWaitMaxMs: integer(env, 'BROOK_REPLICA_FETCH_WAIT_MAX_MS', 500, 0, 60_000),
    replicaFetchMaxBytes: integer(env, 'BROOK_REPLICA_FETCH_MAX_BYTES', 1_048_576, 1024, 64 * 1024 * 1024),
    replicaFetchBackoffMs: integer(env, 'BROOK_REPLICA_FETCH_BACKOFF_MS', 1_000, 1, 60_000),
    acksAllTimeoutMs: integer(env, 'BROOK_ACKS_ALL_TIMEOUT_MS', 15_000, 1, 600_000),
    producerIdExpirationMs: integer(env, 'BROOK_PRODUCER_ID_EXPIRATION_MS', 86_400_000, 1_000),
    producerIdExpirationCheckIntervalMs: integer(env, 'BROOK_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS', 600_000, 1),
    idempotencyRetentionMs: integer(env, 'BROOK_IDEMPOTENCY_RETENTION_MS', 86_400_000, 1_000),
    producerIdsPerPartitionMax: integer(env, 'BROOK_PRODUCER_IDS_PER_PARTITION_MAX', 10_000, 1, 1_000_000),
    autoLeaderRebalanceEnable: boolean(env, 'BROOK_AUTO_LEADER_REBALANCE_ENABLE', true),
    leaderImbalanceCheckIntervalMs:
      integer(env, 'BROOK_LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS', 300, 1, 86_400) * 1_000,
    leaderImbalancePerBrokerPercentage: integer(env, 'BROOK_LEADER_IMBALANCE_PER_BROKER_PERCENTAGE', 10, 0, 100),
    controlledShutdownEnable: boolean(env, 'BROOK_CONTROLLED_SHUTDOWN_ENABLE', true),
    controlledShutdownMaxRetries: integer(env, 'BROOK_CONTROLLED_SHUTDOWN_MAX_RETRIES', 3, 0, 100),
    controlledShutdownRetryBackoffMs: integer(env, 'BROOK_CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS', 5_000, 1, 600_000),
    groups: loadGroupConfig(env, { clusterMode: redisUrl !== null }),
    ws,
    security,
    kafka: loadKafkaConfig(env, { host, advertisedUrl }),
    schemaRegistry,
  };
}
