// Broker configs Brook serves under Kafka's names (REST's broker-configs and brokers/{id}/configs, the Kafka
// protocol's DescribeConfigs/AlterConfigs for resource type BROKER): one table of what each is, whether it can change
// at run time, and where its start-up value comes from in BrokerConfig. Pure: no I/O.
//
// Dynamic configs (is_read_only false) take effect on a running broker when altered, per broker or cluster-wide:
// every topic-config broker synonym (`log.retention.ms`, `message.max.bytes`, `min.insync.replicas`, ...), which
// supplies the default of topics without an override, and `num.partitions`, `default.replication.factor` and
// `auto.create.topics.enable`, read when a topic is created. The rest are read once at start-up: read-only.
// Kafka's own update modes differ in places (num.partitions is read-only in Kafka); Brook's are what Brook can
// really change while running.
//
// No broker setting Brook has under a Kafka name is a secret (the cluster secret and TLS keys have no Kafka name
// and are not listed), so nothing here is sensitive; a sensitive config would be described with a null value.
import type { BrokerConfig } from './broker-config.js';
import { parseBrokerSynonymValue } from './topic-config.js';
import { TOPIC_CONFIGS, type TopicConfigType } from './topic-config-table.js';
import { parseTypedValue } from './topic-config-values.js';

export interface BrokerConfigDefinition {
  /** Kafka's broker config name. */
  readonly name: string;
  /** The environment variable that sets it at start-up: `BROOK_` + upper snake case. */
  readonly env: string;
  readonly type: TopicConfigType;
  /** True: can be altered at run time, per broker and cluster-wide. */
  readonly dynamic: boolean;
  readonly sensitive: boolean;
  /** Brook's default (null: none, as Kafka's `log.retention.ms`). */
  readonly default: string | null;
  /** True for the topic-config synonyms: their start-up value is in BrokerConfig.topicConfigDefaults. */
  readonly topicSynonym: boolean;
  /** The value this broker started with (from the environment or the default), as a string. */
  readonly startValue: (config: BrokerConfig) => string | null;
  /** Checks and normalizes a value (dynamic configs only). */
  readonly parse: (raw: string) => { ok: true; normalized: string } | { ok: false; message: string };
}

function env(name: string): string {
  return 'BROOK_' + name.toUpperCase().replace(/[.-]/g, '_');
}

const noParse = (name: string) => () => ({ ok: false as const, message: `${name} is read-only` });

function readOnly(
  name: string,
  type: TopicConfigType,
  defaultValue: string | null,
  startValue: (config: BrokerConfig) => string | number | boolean | null,
  envName = env(name),
): BrokerConfigDefinition {
  return {
    name,
    env: envName,
    type,
    dynamic: false,
    sensitive: false,
    default: defaultValue,
    topicSynonym: false,
    startValue: (config) => {
      const value = startValue(config);
      return value === null ? null : String(value);
    },
    parse: noParse(name),
  };
}

function dynamicInt(
  name: string,
  defaultValue: number,
  min: number,
  max: number,
  startValue: (config: BrokerConfig) => number,
): BrokerConfigDefinition {
  return {
    name,
    env: env(name),
    type: 'int',
    dynamic: true,
    sensitive: false,
    default: String(defaultValue),
    topicSynonym: false,
    startValue: (config) => String(startValue(config)),
    parse: (raw) => {
      const parsed = parseTypedValue(name, 'int', { kind: 'range', min, max }, raw);
      return parsed.ok ? { ok: true, normalized: parsed.normalized } : parsed;
    },
  };
}

/** Names of settings read once at start-up that also name a topic-config synonym: read-only here. */
const READ_ONLY: readonly BrokerConfigDefinition[] = [
  readOnly('auto.leader.rebalance.enable', 'boolean', 'true', (c) => c.autoLeaderRebalanceEnable),
  readOnly('broker.heartbeat.interval.ms', 'int', '2000', (c) => c.brokerHeartbeatIntervalMs),
  readOnly('broker.id', 'int', '0', (c) => c.brokerId),
  readOnly('broker.session.timeout.ms', 'int', '9000', (c) => c.brokerSessionTimeoutMs),
  readOnly('controlled.shutdown.enable', 'boolean', 'true', (c) => c.controlledShutdownEnable),
  readOnly('controlled.shutdown.max.retries', 'int', '3', (c) => c.controlledShutdownMaxRetries),
  readOnly('controlled.shutdown.retry.backoff.ms', 'long', '5000', (c) => c.controlledShutdownRetryBackoffMs),
  readOnly('group.initial.rebalance.delay.ms', 'int', '3000', (c) => c.groups.initialRebalanceDelayMs),
  readOnly('group.max.session.timeout.ms', 'int', '1800000', (c) => c.groups.maxSessionTimeoutMs),
  readOnly('group.max.size', 'int', '1000', (c) => c.groups.maxSize),
  readOnly('group.min.session.timeout.ms', 'int', '6000', (c) => c.groups.minSessionTimeoutMs),
  readOnly('leader.imbalance.check.interval.seconds', 'long', '300', (c) => c.leaderImbalanceCheckIntervalMs / 1000),
  readOnly('leader.imbalance.per.broker.percentage', 'int', '10', (c) => c.leaderImbalancePerBrokerPercentage),
  readOnly('log.cleaner.backoff.ms', 'long', '15000', (c) => c.logCleanerBackoffMs),
  readOnly('log.dirs', 'string', null, (c) => c.dataDir, 'BROOK_DATA_DIR'),
  readOnly('log.flush.scheduler.interval.ms', 'long', '1000', (c) => c.logFlushSchedulerIntervalMs),
  readOnly('log.retention.check.interval.ms', 'long', '300000', (c) => c.logRetentionCheckIntervalMs),
  readOnly('max.connections', 'int', '10000', (c) => c.kafka.maxConnections),
  readOnly('offsets.retention.minutes', 'int', '10080', (c) => c.groups.offsetsRetentionMs / 60_000),
  readOnly('offsets.topic.num.partitions', 'int', '50', (c) => c.groups.offsetsTopicNumPartitions),
  readOnly('offsets.topic.replication.factor', 'int', null, (c) => c.groups.offsetsTopicReplicationFactor),
  readOnly('offsets.topic.segment.bytes', 'int', '104857600', (c) => c.groups.offsetsTopicSegmentBytes),
  readOnly('producer.id.expiration.ms', 'int', '86400000', (c) => c.producerIdExpirationMs),
  readOnly('replica.fetch.backoff.ms', 'int', '1000', (c) => c.replicaFetchBackoffMs),
  readOnly('replica.fetch.max.bytes', 'int', '1048576', (c) => c.replicaFetchMaxBytes),
  readOnly('replica.fetch.wait.max.ms', 'int', '500', (c) => c.replicaFetchWaitMaxMs),
  readOnly('replica.lag.time.max.ms', 'long', '30000', (c) => c.replicaLagTimeMaxMs),
  readOnly('socket.request.max.bytes', 'int', '104857600', (c) => c.socketRequestMaxBytes),
];

const CREATION_DEFAULTS: readonly BrokerConfigDefinition[] = [
  {
    name: 'auto.create.topics.enable',
    env: env('auto.create.topics.enable'),
    type: 'boolean',
    dynamic: true,
    sensitive: false,
    default: 'false',
    topicSynonym: false,
    startValue: (config) => String(config.autoCreateTopicsEnable),
    parse: (raw) => {
      const parsed = parseTypedValue('auto.create.topics.enable', 'boolean', undefined, raw);
      return parsed.ok ? { ok: true, normalized: parsed.normalized } : parsed;
    },
  },
  dynamicInt('default.replication.factor', 1, 1, 32, (config) => config.defaultReplicationFactor),
  dynamicInt('num.partitions', 1, 1, 100_000, (config) => config.numPartitions),
];

const readOnlyNames = new Set(READ_ONLY.map((definition) => definition.name));

const TOPIC_SYNONYMS: readonly BrokerConfigDefinition[] = TOPIC_CONFIGS.flatMap((topicConfig) =>
  topicConfig.brokerSynonyms
    .filter((synonym) => !readOnlyNames.has(synonym.name))
    .map((synonym): BrokerConfigDefinition => ({
      name: synonym.name,
      env: synonym.env,
      type: synonym.type,
      dynamic: true,
      sensitive: false,
      default: synonym.kafkaDefault ?? null,
      topicSynonym: true,
      startValue: (config) => config.topicConfigDefaults[synonym.name] ?? synonym.kafkaDefault ?? null,
      parse: (raw) => parseBrokerSynonymValue(synonym.name, raw),
    })),
);

/** Every broker config Brook serves, sorted by name (the order of every description). */
export const BROKER_CONFIGS: readonly BrokerConfigDefinition[] = [
  ...READ_ONLY,
  ...CREATION_DEFAULTS,
  ...TOPIC_SYNONYMS,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const byName = new Map(BROKER_CONFIGS.map((definition) => [definition.name, definition]));

export function brokerConfigDefinition(name: string): BrokerConfigDefinition | undefined {
  return byName.get(name);
}

/** True when the broker config was set in the environment (or by a flag) at start-up: STATIC_BROKER_CONFIG. */
export function setInEnv(definition: BrokerConfigDefinition, config: BrokerConfig): boolean {
  return config.settingsFromEnv.includes(definition.env);
}
