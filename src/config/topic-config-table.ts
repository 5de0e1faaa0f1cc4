// Topic-level configs Brook knows: Kafka's names, types, defaults, validators and broker synonyms (checked against
// Kafka's `LogConfig`, `ServerLogConfigs` and `ServerTopicConfigSynonyms`), in one table. Pure: no I/O.
// topic-config-values.ts parses a value by its definition; topic-config.ts validates a topic's overrides and
// resolves its effective config from them, the broker defaults and Kafka's.
//
// Java's `Long.MAX_VALUE` (the default of `flush.messages`, `flush.ms` and `max.compaction.lag.ms`, meaning
// "never") cannot be a JavaScript number exactly. Strings keep Kafka's exact value (`9223372036854775807`);
// ResolvedTopicConfig clamps every long to [`Number.MIN_SAFE_INTEGER`, `Number.MAX_SAFE_INTEGER`], so "never" reads
// as `Number.MAX_SAFE_INTEGER` (2^53 - 1 ms is 285,000 years; 2^53 - 1 messages is as unreachable).
//
// Broker-level defaults: each topic config has Kafka's broker synonyms (`log.retention.ms`, then
// `log.retention.minutes`, then `log.retention.hours` for `retention.ms`; the first one set wins, as in Kafka), read
// from `BROOK_` + upper snake case environment variables (`BROOK_LOG_RETENTION_MS`).

export type TopicConfigType = 'long' | 'int' | 'boolean' | 'string' | 'list' | 'double';

/** A parsed value: numbers (long, int, double), booleans, strings, or lists of strings. */
export type TopicConfigValue = number | boolean | string | readonly string[];

export type TopicConfigValidator =
  | { readonly kind: 'range'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'enum'; readonly values: readonly string[] };

/** A broker config that supplies a topic config's default, as Kafka's `ConfigSynonym`. */
export interface BrokerSynonym {
  /** Kafka's broker config name, e.g. `log.retention.ms`. */
  readonly name: string;
  /** The environment variable that sets it: `BROOK_` + upper snake case. */
  readonly env: string;
  /** The synonym's own type (`int` for the `*.hours` and `*.minutes` ones). */
  readonly type: TopicConfigType;
  /** Unit of the synonym's value when it differs from the topic config's (milliseconds). */
  readonly unit?: 'minutes' | 'hours';
  /** Kafka's default for this broker config when it has one (shown as the DEFAULT_CONFIG synonym). */
  readonly kafkaDefault?: string;
}

export interface TopicConfigDefinition {
  /** Kafka's topic config name, e.g. `retention.ms`. */
  readonly name: string;
  readonly type: TopicConfigType;
  /** Kafka's default, as Kafka prints it (`9223372036854775807` for Long.MAX_VALUE). */
  readonly default: string;
  readonly validator?: TopicConfigValidator;
  readonly doc: string;
  /** Kafka's broker synonyms in priority order; the first is the one Kafka's docs call the server default property. */
  readonly brokerSynonyms: readonly BrokerSynonym[];
}

/** Java's Long.MAX_VALUE as Kafka prints it. */
export const JAVA_LONG_MAX = '9223372036854775807';

/**
 * Minimum `segment.bytes`: Kafka 3.x's `LegacyRecord.RECORD_OVERHEAD_V0` (crc 4 + magic 1 + attributes 1 + key
 * length 4 + value length 4 = 14). Kafka 4.0 (KIP-1030) raised the minimum to 1 MiB and added an internal
 * `internal.segment.bytes` for tests; Brook keeps 14 so that tests and small deployments can roll tiny segments.
 */
export const MIN_SEGMENT_BYTES = 14;

function env(name: string): string {
  return 'BROOK_' + name.toUpperCase().replace(/[.-]/g, '_');
}

function synonym(
  name: string,
  type: TopicConfigType,
  kafkaDefault?: string,
  unit?: 'minutes' | 'hours',
): BrokerSynonym {
  return {
    name,
    env: env(name),
    type,
    ...(unit ? { unit } : {}),
    ...(kafkaDefault !== undefined ? { kafkaDefault } : {}),
  };
}

const atLeast = (min: number): TopicConfigValidator => ({ kind: 'range', min });

/** The table. Sorted by name, which is also the order of {@link describeTopicConfigs}. */
export const TOPIC_CONFIGS: readonly TopicConfigDefinition[] = [
  {
    name: 'cleanup.policy',
    type: 'list',
    default: 'delete',
    validator: { kind: 'enum', values: ['compact', 'delete'] },
    doc: 'Comma-separated cleanup policies for old segments: "delete" removes segments past retention, "compact" keeps the last record per key; both may be given, or none (keep everything).',
    brokerSynonyms: [synonym('log.cleanup.policy', 'list', 'delete')],
  },
  {
    name: 'delete.retention.ms',
    type: 'long',
    default: '86400000',
    validator: atLeast(0),
    doc: 'How long tombstones (null-value records) are kept in a compacted topic after compaction reaches them.',
    brokerSynonyms: [synonym('log.cleaner.delete.retention.ms', 'long', '86400000')],
  },
  {
    name: 'file.delete.delay.ms',
    type: 'long',
    default: '60000',
    validator: atLeast(0),
    doc: 'How long a deleted segment file is kept on disk (renamed) before it is removed.',
    brokerSynonyms: [synonym('log.segment.delete.delay.ms', 'long', '60000')],
  },
  {
    name: 'flush.messages',
    type: 'long',
    default: JAVA_LONG_MAX,
    validator: atLeast(1),
    doc: 'Force an fsync after this many records appended to a partition; the default never forces one (durability comes from replication).',
    brokerSynonyms: [synonym('log.flush.interval.messages', 'long', JAVA_LONG_MAX)],
  },
  {
    name: 'flush.ms',
    type: 'long',
    default: JAVA_LONG_MAX,
    validator: atLeast(0),
    doc: 'Force an fsync when the oldest unflushed record of a partition is this old; the default never forces one.',
    brokerSynonyms: [
      synonym('log.flush.interval.ms', 'long'),
      synonym('log.flush.scheduler.interval.ms', 'long', JAVA_LONG_MAX),
    ],
  },
  {
    name: 'index.interval.bytes',
    type: 'int',
    default: '4096',
    validator: atLeast(0),
    doc: 'Bytes of records between two entries of the sparse offset index.',
    brokerSynonyms: [synonym('log.index.interval.bytes', 'int', '4096')],
  },
  {
    name: 'max.compaction.lag.ms',
    type: 'long',
    default: JAVA_LONG_MAX,
    validator: atLeast(1),
    doc: 'Longest time a record may stay uncompacted in a compacted topic.',
    brokerSynonyms: [synonym('log.cleaner.max.compaction.lag.ms', 'long', JAVA_LONG_MAX)],
  },
  {
    name: 'max.message.bytes',
    type: 'int',
    default: '1048588',
    validator: atLeast(0),
    doc: 'Largest record batch the topic accepts (1 MiB plus the 12-byte log overhead by default).',
    brokerSynonyms: [synonym('message.max.bytes', 'int', '1048588')],
  },
  {
    name: 'message.timestamp.type',
    type: 'string',
    default: 'CreateTime',
    validator: { kind: 'enum', values: ['CreateTime', 'LogAppendTime'] },
    doc: "Whether record timestamps are the producer's (CreateTime) or the broker's append time (LogAppendTime).",
    brokerSynonyms: [synonym('log.message.timestamp.type', 'string', 'CreateTime')],
  },
  {
    name: 'min.cleanable.dirty.ratio',
    type: 'double',
    default: '0.5',
    validator: { kind: 'range', min: 0, max: 1 },
    doc: 'Compaction starts when the uncompacted part of the log is at least this fraction of it.',
    brokerSynonyms: [synonym('log.cleaner.min.cleanable.ratio', 'double', '0.5')],
  },
  {
    name: 'min.compaction.lag.ms',
    type: 'long',
    default: '0',
    validator: atLeast(0),
    doc: 'Shortest time a record stays uncompacted in a compacted topic.',
    brokerSynonyms: [synonym('log.cleaner.min.compaction.lag.ms', 'long', '0')],
  },
  {
    name: 'min.insync.replicas',
    type: 'int',
    default: '1',
    validator: atLeast(1),
    doc: 'With acks=all, the fewest in-sync replicas for a produce to succeed; fewer fail with NOT_ENOUGH_REPLICAS.',
    brokerSynonyms: [synonym('min.insync.replicas', 'int', '1')],
  },
  {
    name: 'preallocate',
    type: 'boolean',
    default: 'false',
    doc: 'Preallocate a new segment file to its full size.',
    brokerSynonyms: [synonym('log.preallocate', 'boolean', 'false')],
  },
  {
    name: 'retention.bytes',
    type: 'long',
    default: '-1',
    doc: 'Largest size of a partition before old segments are deleted (with the delete policy); -1 means no size limit.',
    brokerSynonyms: [synonym('log.retention.bytes', 'long', '-1')],
  },
  {
    name: 'retention.ms',
    type: 'long',
    default: '604800000',
    validator: atLeast(-1),
    doc: 'Longest time a segment is kept before it is deleted (with the delete policy); -1 means no time limit.',
    brokerSynonyms: [
      synonym('log.retention.ms', 'long'),
      synonym('log.retention.minutes', 'int', undefined, 'minutes'),
      synonym('log.retention.hours', 'int', '168', 'hours'),
    ],
  },
  {
    name: 'segment.bytes',
    type: 'int',
    default: '1073741824',
    validator: atLeast(MIN_SEGMENT_BYTES),
    doc: 'Size at which the active segment is rolled.',
    brokerSynonyms: [synonym('log.segment.bytes', 'int', '1073741824')],
  },
  {
    name: 'segment.index.bytes',
    type: 'int',
    default: '10485760',
    validator: atLeast(4),
    doc: "Size of a segment's offset index file.",
    brokerSynonyms: [synonym('log.index.size.max.bytes', 'int', '10485760')],
  },
  {
    name: 'segment.ms',
    type: 'long',
    default: '604800000',
    validator: atLeast(1),
    doc: 'Age at which the active segment is rolled even if it is not full.',
    brokerSynonyms: [synonym('log.roll.ms', 'long'), synonym('log.roll.hours', 'int', '168', 'hours')],
  },
  {
    name: 'unclean.leader.election.enable',
    type: 'boolean',
    default: 'false',
    doc: 'Allow a replica outside the ISR to become leader when no in-sync replica is alive, at the cost of losing data.',
    brokerSynonyms: [synonym('unclean.leader.election.enable', 'boolean', 'false')],
  },
];

const BY_NAME: ReadonlyMap<string, TopicConfigDefinition> = new Map(TOPIC_CONFIGS.map((d) => [d.name, d]));

/** The definition of a topic config, or undefined for an unknown name. */
export function topicConfigDefinition(name: string): TopicConfigDefinition | undefined {
  return BY_NAME.get(name);
}
