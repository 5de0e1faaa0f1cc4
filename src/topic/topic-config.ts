/**
 * Topic-level configs Brook knows: Kafka's names, types, defaults and validators (checked against Kafka's
 * `LogConfig`, `ServerLogConfigs` and `ServerTopicConfigSynonyms`), in one table. Pure: no I/O.
 *
 * Values travel as strings, as in Kafka's admin API. Parsing follows Kafka's `ConfigDef`: the string is trimmed;
 * longs and ints are decimal integers within Java's `long`/`int` range; booleans are `true`/`false` in any case;
 * lists are comma separated (blanks around commas ignored). Errors read like Kafka's `ConfigException`:
 * `Invalid value abc for configuration retention.ms: Not a number of type LONG`.
 *
 * Java's `Long.MAX_VALUE` (the default of `flush.messages`, `flush.ms` and `max.compaction.lag.ms`, meaning
 * "never") cannot be a JavaScript number exactly. Strings keep Kafka's exact value (`9223372036854775807`);
 * {@link ResolvedTopicConfig} clamps every long to [`Number.MIN_SAFE_INTEGER`, `Number.MAX_SAFE_INTEGER`], so
 * "never" reads as `Number.MAX_SAFE_INTEGER` (2^53 - 1 ms is 285,000 years; 2^53 - 1 messages is as unreachable).
 *
 * Broker-level defaults: each topic config has Kafka's broker synonyms (`log.retention.ms`, then
 * `log.retention.minutes`, then `log.retention.hours` for `retention.ms`; the first one set wins, as in Kafka), read
 * from `BROOK_` + upper snake case environment variables (`BROOK_LOG_RETENTION_MS`).
 */

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

const JAVA_INT_MIN = -(2n ** 31n);
const JAVA_INT_MAX = 2n ** 31n - 1n;
const JAVA_LONG_MIN_BIG = -(2n ** 63n);
const JAVA_LONG_MAX_BIG = 2n ** 63n - 1n;

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

export type ParseResult = { ok: true; value: TopicConfigValue; normalized: string } | { ok: false; message: string };

function invalid(name: string, raw: unknown, reason: string): { ok: false; message: string } {
  return { ok: false, message: `Invalid value ${String(raw)} for configuration ${name}: ${reason}` };
}

/** Clamp a Java long to the safe integer range of a JavaScript number. */
function toSafeNumber(v: bigint): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (v < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(v);
}

/** Java's `Double.toString` for the values a config can hold: `1.0`, `0.5`, `1.0E-4`. */
function formatDouble(x: number): string {
  const abs = Math.abs(x);
  if (abs === 0 || (abs >= 1e-3 && abs < 1e7)) {
    return Number.isInteger(x) ? x.toFixed(1) : String(x);
  }
  const [mantissa, exponent] = x.toExponential().split('e');
  return `${mantissa!.includes('.') ? mantissa : `${mantissa}.0`}E${exponent!.replace('+', '')}`;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parse and check a value of the given type and validator; `name` is only used in messages. */
function parseTyped(
  name: string,
  type: TopicConfigType,
  validator: TopicConfigValidator | undefined,
  raw: string,
): ParseResult {
  if (typeof raw !== 'string') return invalid(name, raw, 'Expected value to be a string');
  const trimmed = raw.trim();
  switch (type) {
    case 'long':
    case 'int': {
      const [lo, hi] = type === 'long' ? [JAVA_LONG_MIN_BIG, JAVA_LONG_MAX_BIG] : [JAVA_INT_MIN, JAVA_INT_MAX];
      if (!INTEGER.test(trimmed)) return invalid(name, raw, `Not a number of type ${type.toUpperCase()}`);
      const big = BigInt(trimmed);
      if (big < lo || big > hi) return invalid(name, raw, `Not a number of type ${type.toUpperCase()}`);
      if (validator?.kind === 'range') {
        if (validator.min !== undefined && big < BigInt(validator.min)) {
          return invalid(name, raw, `Value must be at least ${validator.min}`);
        }
        if (validator.max !== undefined && big > BigInt(validator.max)) {
          return invalid(name, raw, `Value must be no more than ${validator.max}`);
        }
      }
      return { ok: true, value: toSafeNumber(big), normalized: big.toString() };
    }
    case 'double': {
      if (!DECIMAL.test(trimmed)) return invalid(name, raw, 'Not a number of type DOUBLE');
      const x = Number(trimmed) + 0; // + 0 turns -0 into 0: "-0" and "0" are the same setting
      if (!Number.isFinite(x)) return invalid(name, raw, 'Not a number of type DOUBLE');
      if (validator?.kind === 'range') {
        if (validator.min !== undefined && x < validator.min) {
          return invalid(name, raw, `Value must be at least ${validator.min}`);
        }
        if (validator.max !== undefined && x > validator.max) {
          return invalid(name, raw, `Value must be no more than ${validator.max}`);
        }
      }
      return { ok: true, value: x, normalized: formatDouble(x) };
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (lower !== 'true' && lower !== 'false') {
        return invalid(name, raw, 'Expected value to be either true or false');
      }
      return { ok: true, value: lower === 'true', normalized: lower };
    }
    case 'string': {
      if (validator?.kind === 'enum' && !validator.values.includes(trimmed)) {
        return invalid(name, raw, `String must be one of: ${validator.values.join(', ')}`);
      }
      return { ok: true, value: trimmed, normalized: trimmed };
    }
    case 'list': {
      const items = trimmed === '' ? [] : trimmed.split(/\s*,\s*/);
      if (validator?.kind === 'enum') {
        for (const item of items) {
          if (!validator.values.includes(item)) {
            return invalid(name, raw, `String must be one of: ${validator.values.join(', ')}`);
          }
        }
      }
      return { ok: true, value: items, normalized: items.join(',') };
    }
  }
}

/**
 * Parse one topic config value. On success, `value` is typed (longs clamped to safe integers, see the module doc)
 * and `normalized` is the value as Kafka prints it back (`" 100 "` → `"100"`, `"TRUE"` → `"true"`, `"1"` → `"1.0"`
 * for a double), which is what Brook stores and describes.
 */
export function parseTopicConfigValue(name: string, raw: string): ParseResult {
  const def = BY_NAME.get(name);
  if (!def) return { ok: false, message: `Unknown topic config name: ${name}` };
  return parseTyped(name, def.type, def.validator, raw);
}

export type ValidateResult = { ok: true; configs: Record<string, string> } | { ok: false; message: string };

/**
 * Validate the configs of a topic creation or a full replacement of overrides: every name known, no value null, no
 * name twice, every value valid, and `min.compaction.lag.ms` <= `max.compaction.lag.ms` once merged with the broker
 * defaults (Kafka's `LogConfig.validateValues`). Returns the overrides with normalized values, or the first error.
 */
export function validateTopicConfigs(
  entries: ReadonlyArray<{ name: string; value: string | null }>,
  brokerDefaults: Readonly<Record<string, string>> = {},
): ValidateResult {
  const nulls = entries.filter((e) => e.value === null || e.value === undefined).map((e) => e.name);
  if (nulls.length > 0) return { ok: false, message: `Null value not supported for topic configs: ${nulls.join(',')}` };
  const configs: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { name, value } of entries) {
    if (seen.has(name)) return { ok: false, message: `Duplicate topic config name: ${name}` };
    seen.add(name);
    const r = parseTopicConfigValue(name, value as string);
    if (!r.ok) return r;
    configs[name] = r.normalized;
  }
  let minLag: bigint;
  let maxLag: bigint;
  try {
    minLag = BigInt(effectiveString('min.compaction.lag.ms', configs, brokerDefaults));
    maxLag = BigInt(effectiveString('max.compaction.lag.ms', configs, brokerDefaults));
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  if (minLag > maxLag) {
    return {
      ok: false,
      message: `conflict topic config setting min.compaction.lag.ms (${minLag}) > max.compaction.lag.ms (${maxLag})`,
    };
  }
  return { ok: true, configs };
}

/** The effective config of a topic, typed; built from its overrides, then the broker defaults, then Kafka's. */
export interface ResolvedTopicConfig {
  readonly cleanupPolicyCompact: boolean;
  readonly cleanupPolicyDelete: boolean;
  readonly deleteRetentionMs: number;
  readonly fileDeleteDelayMs: number;
  /** `Number.MAX_SAFE_INTEGER` means never (Kafka's Long.MAX_VALUE). */
  readonly flushMessages: number;
  /** `Number.MAX_SAFE_INTEGER` means never (Kafka's Long.MAX_VALUE). */
  readonly flushMs: number;
  readonly indexIntervalBytes: number;
  /** `Number.MAX_SAFE_INTEGER` means no limit (Kafka's Long.MAX_VALUE). */
  readonly maxCompactionLagMs: number;
  readonly maxMessageBytes: number;
  readonly messageTimestampType: 'CreateTime' | 'LogAppendTime';
  readonly minCleanableDirtyRatio: number;
  readonly minCompactionLagMs: number;
  readonly minInsyncReplicas: number;
  readonly preallocate: boolean;
  /** -1 (or any negative value) means no size limit. */
  readonly retentionBytes: number;
  /** -1 means no time limit. */
  readonly retentionMs: number;
  readonly segmentBytes: number;
  readonly segmentIndexBytes: number;
  readonly segmentMs: number;
  readonly uncleanLeaderElectionEnable: boolean;
}

const MS_PER: Record<'minutes' | 'hours', bigint> = { minutes: 60_000n, hours: 3_600_000n };

/**
 * Convert a broker synonym's value to the topic config's unit. A negative retention in minutes or hours means no
 * limit (-1), as Kafka's `KafkaConfig.logRetentionTimeMillis` has it.
 */
function fromSynonym(syn: BrokerSynonym, normalized: string): string {
  if (!syn.unit) return normalized;
  const v = BigInt(normalized);
  if (v < 0n) return '-1';
  return (v * MS_PER[syn.unit]).toString();
}

/** Where a topic's effective value comes from, and the synonym chain Kafka's DescribeConfigs reports. */
function chain(
  def: TopicConfigDefinition,
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): TopicConfigSynonym[] {
  const out: TopicConfigSynonym[] = [];
  if (Object.hasOwn(overrides, def.name)) {
    out.push({ name: def.name, value: overrides[def.name]!, source: 'DYNAMIC_TOPIC_CONFIG' });
  }
  for (const syn of def.brokerSynonyms) {
    if (Object.hasOwn(brokerDefaults, syn.name)) {
      out.push({ name: syn.name, value: brokerDefaults[syn.name]!, source: 'STATIC_BROKER_CONFIG' });
    }
  }
  for (const syn of def.brokerSynonyms) {
    if (syn.kafkaDefault !== undefined) {
      out.push({ name: syn.name, value: syn.kafkaDefault, source: 'DEFAULT_CONFIG' });
    }
  }
  return out;
}

/** The effective value of one config as a string in the topic config's unit, validated. Throws when invalid. */
function effective(
  def: TopicConfigDefinition,
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): { value: TopicConfigValue; normalized: string } {
  const head = chain(def, overrides, brokerDefaults)[0];
  let raw = def.default;
  let origin = def.name;
  if (head) {
    origin = head.name;
    if (head.source === 'DYNAMIC_TOPIC_CONFIG') {
      raw = head.value!;
    } else {
      const syn = def.brokerSynonyms.find((s) => s.name === head.name)!;
      const own = parseTyped(syn.name, syn.type, syn.unit ? undefined : def.validator, head.value!);
      if (!own.ok) throw new Error(own.message);
      raw = fromSynonym(syn, own.normalized);
    }
  }
  const r = parseTyped(origin, def.type, def.validator, raw);
  if (!r.ok) throw new Error(r.message);
  return { value: r.value, normalized: r.normalized };
}

function effectiveString(
  name: string,
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): string {
  return effective(BY_NAME.get(name)!, overrides, brokerDefaults).normalized;
}

function checkOverrideNames(overrides: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(overrides)) {
    if (!BY_NAME.has(name)) throw new Error(`Unknown topic config name: ${name}`);
  }
}

/**
 * The typed effective config of a topic. `overrides` are topic config names → values (as stored after
 * {@link validateTopicConfigs}); `brokerDefaults` are Kafka broker config names → values (as returned by
 * {@link brokerDefaultsFromEnv}; names that are not topic synonyms are ignored). Throws an Error on an unknown
 * override name or an invalid value, which validation before storing rules out.
 */
export function resolveTopicConfig(
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): ResolvedTopicConfig {
  checkOverrideNames(overrides);
  const get = (name: string): TopicConfigValue => effective(BY_NAME.get(name)!, overrides, brokerDefaults).value;
  const num = (name: string): number => get(name) as number;
  const bool = (name: string): boolean => get(name) as boolean;
  const policy = get('cleanup.policy') as readonly string[];
  return {
    cleanupPolicyCompact: policy.includes('compact'),
    cleanupPolicyDelete: policy.includes('delete'),
    deleteRetentionMs: num('delete.retention.ms'),
    fileDeleteDelayMs: num('file.delete.delay.ms'),
    flushMessages: num('flush.messages'),
    flushMs: num('flush.ms'),
    indexIntervalBytes: num('index.interval.bytes'),
    maxCompactionLagMs: num('max.compaction.lag.ms'),
    maxMessageBytes: num('max.message.bytes'),
    messageTimestampType: get('message.timestamp.type') as 'CreateTime' | 'LogAppendTime',
    minCleanableDirtyRatio: num('min.cleanable.dirty.ratio'),
    minCompactionLagMs: num('min.compaction.lag.ms'),
    minInsyncReplicas: num('min.insync.replicas'),
    preallocate: bool('preallocate'),
    retentionBytes: num('retention.bytes'),
    retentionMs: num('retention.ms'),
    segmentBytes: num('segment.bytes'),
    segmentIndexBytes: num('segment.index.bytes'),
    segmentMs: num('segment.ms'),
    uncleanLeaderElectionEnable: bool('unclean.leader.election.enable'),
  };
}

/** Kafka's `ConfigEntry.ConfigSource` values Brook can produce for a topic config. */
export type TopicConfigSource = 'DYNAMIC_TOPIC_CONFIG' | 'STATIC_BROKER_CONFIG' | 'DEFAULT_CONFIG';

/** Confluent v3 `ConfigSynonymData`: `{name, value, source}`. */
export interface TopicConfigSynonym {
  readonly name: string;
  readonly value: string | null;
  readonly source: TopicConfigSource;
}

/**
 * One entry of a topic's configs, the fields of Confluent v3 `TopicConfigData` (`is_default`, `is_read_only`,
 * `is_sensitive`, `source`, `synonyms`) in camelCase; the gateway adds `kind`, `metadata`, `cluster_id` and
 * `topic_name` and renames to snake case.
 */
export interface TopicConfigDescription {
  readonly name: string;
  readonly value: string | null;
  readonly isDefault: boolean;
  readonly isReadOnly: false;
  readonly isSensitive: false;
  readonly source: TopicConfigSource;
  readonly synonyms: readonly TopicConfigSynonym[];
}

/**
 * Every topic config Brook knows, with its effective value, sorted by name, as Kafka's DescribeConfigs with
 * synonyms: `source` is where the value comes from (topic override, then a broker config set in the environment,
 * then the built-in default), `isDefault` is `source === 'DEFAULT_CONFIG'`, and `synonyms` lists, in priority order,
 * the override (under the topic config name), each broker synonym set in the environment, and each broker synonym's
 * built-in default (under the broker config name, e.g. `log.retention.hours` = `168`, as Kafka reports it).
 */
export function describeTopicConfigs(
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): TopicConfigDescription[] {
  checkOverrideNames(overrides);
  return TOPIC_CONFIGS.map((def) => {
    const synonyms = chain(def, overrides, brokerDefaults);
    const source: TopicConfigSource = synonyms[0]?.source ?? 'DEFAULT_CONFIG';
    return {
      name: def.name,
      value: effective(def, overrides, brokerDefaults).normalized,
      isDefault: source === 'DEFAULT_CONFIG',
      isReadOnly: false,
      isSensitive: false,
      source,
      synonyms,
    };
  });
}

/**
 * Read the broker-level defaults of topic configs from the environment: for each broker synonym, `BROOK_` + its
 * Kafka name in upper snake case (`log.retention.ms` → `BROOK_LOG_RETENTION_MS`, `message.max.bytes` →
 * `BROOK_MESSAGE_MAX_BYTES`). Unset or blank variables are ignored. Returns broker config names → normalized values.
 * Throws an Error naming the variable when a value is invalid (by the synonym's type, and by the topic config's rule
 * once converted to its unit).
 */
export function brokerDefaultsFromEnv(envVars: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const def of TOPIC_CONFIGS) {
    for (const syn of def.brokerSynonyms) {
      const raw = Object.hasOwn(envVars, syn.env) ? envVars[syn.env] : undefined;
      if (raw === undefined || raw.trim() === '') continue;
      const fail = (message: string): never => {
        throw new Error(`Invalid environment variable ${syn.env} (${syn.name}): ${message}`);
      };
      const own = parseTyped(syn.name, syn.type, syn.unit ? undefined : def.validator, raw);
      if (!own.ok) return fail(own.message);
      const normalized = own.normalized;
      if (syn.unit) {
        const converted = parseTyped(syn.name, def.type, def.validator, fromSynonym(syn, normalized));
        if (!converted.ok) fail(converted.message);
      }
      out[syn.name] = normalized;
    }
  }
  const check = validateTopicConfigs([], out);
  if (!check.ok) throw new Error(`Invalid broker defaults from the environment: ${check.message}`);
  return out;
}
