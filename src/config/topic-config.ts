// A topic's configs: validating the overrides of a creation or an update, and resolving the effective config
// (typed, as the log, the replica manager and the controller read it; described, as Kafka's DescribeConfigs with
// synonyms) from the overrides, then the broker defaults read from the environment, then Kafka's defaults
// (topic-config-table.ts). Pure.
import {
  TOPIC_CONFIGS,
  topicConfigDefinition,
  type BrokerSynonym,
  type TopicConfigDefinition,
  type TopicConfigValue,
} from './topic-config-table.js';
import { parseTopicConfigValue, parseTypedValue } from './topic-config-values.js';

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

/**
 * Where each broker default comes from, by broker config name: absent means the environment
 * (STATIC_BROKER_CONFIG); the dynamic broker configs (broker-configs.ts) name their layer.
 */
export type BrokerDefaultSources = Readonly<Record<string, BrokerDefaultSource>>;
export type BrokerDefaultSource = 'DYNAMIC_BROKER_CONFIG' | 'DYNAMIC_DEFAULT_BROKER_CONFIG' | 'STATIC_BROKER_CONFIG';

/** Where a topic's effective value comes from, and the synonym chain Kafka's DescribeConfigs reports. */
function chain(
  def: TopicConfigDefinition,
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
  sources: BrokerDefaultSources = {},
): TopicConfigSynonym[] {
  const out: TopicConfigSynonym[] = [];
  if (Object.hasOwn(overrides, def.name)) {
    out.push({ name: def.name, value: overrides[def.name]!, source: 'DYNAMIC_TOPIC_CONFIG' });
  }
  for (const syn of def.brokerSynonyms) {
    if (Object.hasOwn(brokerDefaults, syn.name)) {
      const source = Object.hasOwn(sources, syn.name) ? sources[syn.name]! : 'STATIC_BROKER_CONFIG';
      out.push({ name: syn.name, value: brokerDefaults[syn.name]!, source });
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
      const own = parseTypedValue(syn.name, syn.type, syn.unit ? undefined : def.validator, head.value!);
      if (!own.ok) throw new Error(own.message);
      raw = fromSynonym(syn, own.normalized);
    }
  }
  const r = parseTypedValue(origin, def.type, def.validator, raw);
  if (!r.ok) throw new Error(r.message);
  return { value: r.value, normalized: r.normalized };
}

function effectiveString(
  name: string,
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
): string {
  return effective(topicConfigDefinition(name)!, overrides, brokerDefaults).normalized;
}

function checkOverrideNames(overrides: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(overrides)) {
    if (topicConfigDefinition(name) === undefined) throw new Error(`Unknown topic config name: ${name}`);
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
  const get = (name: string): TopicConfigValue =>
    effective(topicConfigDefinition(name)!, overrides, brokerDefaults).value;
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
export type TopicConfigSource = 'DYNAMIC_TOPIC_CONFIG' | BrokerDefaultSource | 'DEFAULT_CONFIG';

/** Confluent v3 `ConfigSynonymData`: `{name, value, source}`. */
export interface TopicConfigSynonym {
  readonly name: string;
  readonly value: string | null;
  readonly source: TopicConfigSource;
}

/**
 * One entry of a topic's configs, the fields of Confluent v3 `TopicConfigData` (`is_default`, `is_read_only`,
 * `is_sensitive`, `source`, `synonyms`) in camelCase; the admin service adds `kind`, `metadata`, `cluster_id` and
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
 * synonyms: `source` is where the value comes from (topic override, then a broker config: dynamic for this broker,
 * dynamic cluster-wide or set in the environment, as `sources` says; then the built-in default), `isDefault` is `source === 'DEFAULT_CONFIG'`, and `synonyms` lists, in priority order,
 * the override (under the topic config name), each broker synonym set in the environment, and each broker synonym's
 * built-in default (under the broker config name, e.g. `log.retention.hours` = `168`, as Kafka reports it).
 */
export function describeTopicConfigs(
  overrides: Readonly<Record<string, string>>,
  brokerDefaults: Readonly<Record<string, string>>,
  sources: BrokerDefaultSources = {},
): TopicConfigDescription[] {
  checkOverrideNames(overrides);
  return TOPIC_CONFIGS.map((def) => {
    const synonyms = chain(def, overrides, brokerDefaults, sources);
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

/** A topic config's broker synonym by its Kafka broker config name (`log.retention.ms`), with its topic config. */
export function brokerSynonymDefinition(
  name: string,
): { synonym: BrokerSynonym; definition: TopicConfigDefinition } | undefined {
  for (const definition of TOPIC_CONFIGS) {
    const synonym = definition.brokerSynonyms.find((candidate) => candidate.name === name);
    if (synonym !== undefined) return { synonym, definition };
  }
  return undefined;
}

/**
 * Parse a broker synonym's value (`log.retention.hours` = `168`) by the synonym's own type, and by the topic
 * config's rule once converted to its unit. Returns the normalized value in the synonym's unit.
 */
export function parseBrokerSynonymValue(
  name: string,
  raw: string,
): { ok: true; normalized: string } | { ok: false; message: string } {
  const found = brokerSynonymDefinition(name);
  if (found === undefined) return { ok: false, message: `Unknown broker config name: ${name}` };
  const { synonym: syn, definition: def } = found;
  const own = parseTypedValue(syn.name, syn.type, syn.unit ? undefined : def.validator, raw);
  if (!own.ok) return own;
  if (syn.unit) {
    const converted = parseTypedValue(syn.name, def.type, def.validator, fromSynonym(syn, own.normalized));
    if (!converted.ok) return converted;
  }
  return { ok: true, normalized: own.normalized };
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
      const parsed = parseBrokerSynonymValue(syn.name, raw);
      if (!parsed.ok) throw new Error(`Invalid environment variable ${syn.env} (${syn.name}): ${parsed.message}`);
      out[syn.name] = parsed.normalized;
    }
  }
  const check = validateTopicConfigs([], out);
  if (!check.ok) throw new Error(`Invalid broker defaults from the environment: ${check.message}`);
  return out;
}
