// A broker's configs as Kafka's DescribeConfigs shows them for resource type BROKER, and the settings a running
// broker acts on, from three layers (highest first): the dynamic configs of this broker (DYNAMIC_BROKER_CONFIG),
// the cluster-wide dynamic defaults (DYNAMIC_DEFAULT_BROKER_CONFIG; Kafka's BROKER resource with an empty name),
// and what the broker started with: the environment (STATIC_BROKER_CONFIG) or Brook's default (DEFAULT_CONFIG).
// The table of configs is broker-config-table.ts. Pure: the dynamic layers are read from the coordination store by
// topic/dynamic-broker-configs.service.ts.
import type { BrokerConfig } from './broker-config.js';
import { BROKER_CONFIGS, brokerConfigDefinition, setInEnv } from './broker-config-table.js';
import { validateTopicConfigs, type BrokerDefaultSource } from './topic-config.js';

export type BrokerConfigSource =
  'DYNAMIC_BROKER_CONFIG' | 'DYNAMIC_DEFAULT_BROKER_CONFIG' | 'STATIC_BROKER_CONFIG' | 'DEFAULT_CONFIG';

/** One config as a broker started with it: its value and whether the environment set it. */
export interface StartValue {
  readonly value: string | null;
  readonly fromEnv: boolean;
}

/** What a broker started with, by config name; each broker publishes its own so that any broker describes it. */
export type StartLayer = Readonly<Record<string, StartValue>>;

/** Dynamic configs, name → value (normalized): one broker's, or the cluster-wide defaults. */
export type DynamicLayer = Readonly<Record<string, string>>;

export interface BrokerConfigSynonym {
  readonly name: string;
  readonly value: string | null;
  readonly source: BrokerConfigSource;
}

/** The fields of Confluent's AbstractConfigData, in camelCase; the admin service adds the envelope. */
export interface BrokerConfigDescription {
  readonly name: string;
  readonly value: string | null;
  readonly isDefault: boolean;
  readonly isReadOnly: boolean;
  readonly isSensitive: boolean;
  readonly source: BrokerConfigSource;
  readonly synonyms: readonly BrokerConfigSynonym[];
}

export function startLayer(config: BrokerConfig): StartLayer {
  return Object.fromEntries(
    BROKER_CONFIGS.map((definition) => [
      definition.name,
      { value: definition.startValue(config), fromEnv: setInEnv(definition, config) },
    ]),
  );
}

/** Every config of one broker, sorted by name. Sensitive values are never shown (null). */
export function describeBrokerConfigs(
  start: StartLayer,
  clusterDefault: DynamicLayer,
  broker: DynamicLayer,
): BrokerConfigDescription[] {
  return BROKER_CONFIGS.map((definition) => {
    const name = definition.name;
    const synonyms: BrokerConfigSynonym[] = [];
    if (definition.dynamic && Object.hasOwn(broker, name)) {
      synonyms.push({ name, value: broker[name]!, source: 'DYNAMIC_BROKER_CONFIG' });
    }
    if (definition.dynamic && Object.hasOwn(clusterDefault, name)) {
      synonyms.push({ name, value: clusterDefault[name]!, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' });
    }
    const started = start[name] ?? { value: definition.default, fromEnv: false };
    if (started.fromEnv) synonyms.push({ name, value: started.value, source: 'STATIC_BROKER_CONFIG' });
    const defaultValue = started.fromEnv ? definition.default : started.value;
    if (defaultValue !== null) synonyms.push({ name, value: defaultValue, source: 'DEFAULT_CONFIG' });
    const head = synonyms[0] ?? { name, value: null, source: 'DEFAULT_CONFIG' as const };
    return hideSensitive(definition.sensitive, {
      name,
      value: head.value,
      isDefault: head.source === 'DEFAULT_CONFIG',
      isReadOnly: !definition.dynamic,
      isSensitive: definition.sensitive,
      source: head.source,
      synonyms,
    });
  });
}

/** The cluster-wide dynamic defaults that are set (Kafka's describe of the default BROKER resource), by name. */
export function describeClusterDefaults(clusterDefault: DynamicLayer): BrokerConfigDescription[] {
  return BROKER_CONFIGS.filter(
    (definition) => definition.dynamic && Object.hasOwn(clusterDefault, definition.name),
  ).map((definition) => {
    const value = clusterDefault[definition.name]!;
    const synonyms: BrokerConfigSynonym[] = [{ name: definition.name, value, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' }];
    if (definition.default !== null) {
      synonyms.push({ name: definition.name, value: definition.default, source: 'DEFAULT_CONFIG' });
    }
    return hideSensitive(definition.sensitive, {
      name: definition.name,
      value,
      isDefault: false,
      isReadOnly: false,
      isSensitive: definition.sensitive,
      source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' as const,
      synonyms,
    });
  });
}

function hideSensitive(sensitive: boolean, description: BrokerConfigDescription): BrokerConfigDescription {
  if (!sensitive) return description;
  return {
    ...description,
    value: null,
    synonyms: description.synonyms.map((synonym) => ({ ...synonym, value: null })),
  };
}

export interface BrokerConfigChange {
  readonly name: string;
  readonly value: string | null;
  readonly operation: 'SET' | 'DELETE';
}

export type BrokerConfigChangeError = { kind: 'unknown' | 'read-only' | 'invalid'; message: string };

export type ApplyResult = { ok: true; configs: Record<string, string> } | ({ ok: false } & BrokerConfigChangeError);

/**
 * Applies changes to one dynamic layer: each name known and dynamic, each SET value valid (normalized), each name at
 * most once. DELETE of a config not set is no change (Kafka's). Returns the new layer or the first error.
 */
export function applyBrokerConfigChanges(current: DynamicLayer, changes: readonly BrokerConfigChange[]): ApplyResult {
  const next: Record<string, string> = { ...current };
  const seen = new Set<string>();
  for (const change of changes) {
    const definition = brokerConfigDefinition(change.name);
    if (definition === undefined) {
      return { ok: false, kind: 'unknown', message: `Unknown broker config name: ${change.name}` };
    }
    if (!definition.dynamic) {
      return { ok: false, kind: 'read-only', message: `Cannot update these configs dynamically: ${change.name}` };
    }
    if (seen.has(change.name)) {
      return { ok: false, kind: 'invalid', message: `Broker config ${change.name} is named more than once` };
    }
    seen.add(change.name);
    if (change.operation === 'DELETE') {
      delete next[change.name];
      continue;
    }
    if (change.value === null) {
      return { ok: false, kind: 'invalid', message: `Null value not supported for broker config ${change.name}` };
    }
    const parsed = definition.parse(change.value);
    if (!parsed.ok) return { ok: false, kind: 'invalid', message: parsed.message };
    next[change.name] = parsed.normalized;
  }
  return { ok: true, configs: next };
}

/** What a running broker acts on: its start-up settings with the dynamic layers applied. */
export interface EffectiveBrokerSettings {
  readonly numPartitions: number;
  readonly defaultReplicationFactor: number;
  readonly autoCreateTopicsEnable: boolean;
  /** Broker synonyms of topic configs (as BrokerConfig.topicConfigDefaults), for resolveTopicConfig. */
  readonly topicConfigDefaults: Readonly<Record<string, string>>;
  /** Where each of topicConfigDefaults comes from (describeTopicConfigs' sources). */
  readonly topicDefaultSources: Readonly<Record<string, BrokerDefaultSource>>;
}

/**
 * The settings of a broker from its config and the dynamic layers. A stored value this broker finds invalid is
 * skipped (it was written by another broker, perhaps of another version); topic defaults whose combination is
 * invalid (min.compaction.lag.ms above max.compaction.lag.ms) fall back to the environment's.
 */
export function effectiveBrokerSettings(
  config: BrokerConfig,
  clusterDefault: DynamicLayer,
  broker: DynamicLayer,
): EffectiveBrokerSettings {
  const layers = [
    { layer: broker, source: 'DYNAMIC_BROKER_CONFIG' as const },
    { layer: clusterDefault, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' as const },
  ];
  const dynamicValue = (name: string): { value: string; source: BrokerDefaultSource } | undefined => {
    const definition = brokerConfigDefinition(name);
    if (definition === undefined || !definition.dynamic) return undefined;
    for (const { layer, source } of layers) {
      if (!Object.hasOwn(layer, name)) continue;
      const parsed = definition.parse(layer[name]!);
      if (parsed.ok) return { value: parsed.normalized, source };
    }
    return undefined;
  };
  const value = (name: string): string | undefined => dynamicValue(name)?.value;
  const topicConfigDefaults: Record<string, string> = { ...config.topicConfigDefaults };
  const topicDefaultSources: Record<string, BrokerDefaultSource> = {};
  for (const definition of BROKER_CONFIGS) {
    if (!definition.topicSynonym || !definition.dynamic) continue;
    const dynamic = dynamicValue(definition.name);
    if (dynamic === undefined) continue;
    topicConfigDefaults[definition.name] = dynamic.value;
    topicDefaultSources[definition.name] = dynamic.source;
  }
  const coherent = validateTopicConfigs([], topicConfigDefaults).ok;
  const partitions = value('num.partitions');
  const replicationFactor = value('default.replication.factor');
  const autoCreate = value('auto.create.topics.enable');
  return {
    numPartitions: partitions === undefined ? config.numPartitions : Number(partitions),
    defaultReplicationFactor:
      replicationFactor === undefined ? config.defaultReplicationFactor : Number(replicationFactor),
    autoCreateTopicsEnable: autoCreate === undefined ? config.autoCreateTopicsEnable : autoCreate === 'true',
    topicConfigDefaults: coherent ? topicConfigDefaults : config.topicConfigDefaults,
    topicDefaultSources: coherent ? topicDefaultSources : {},
  };
}

/** The new topic defaults a change would give a broker, checked as a whole (compaction lags); null when fine. */
export function checkTopicDefaults(
  config: BrokerConfig,
  clusterDefault: DynamicLayer,
  broker: DynamicLayer,
): string | null {
  const merged: Record<string, string> = { ...config.topicConfigDefaults };
  for (const layer of [clusterDefault, broker]) {
    for (const [name, value] of Object.entries(layer)) {
      if (brokerConfigDefinition(name)?.topicSynonym) merged[name] = value;
    }
  }
  const check = validateTopicConfigs([], merged);
  return check.ok ? null : check.message;
}
