// Topic and broker configs as Kafka's config APIs show them (DescribeConfigs, and CreateTopics v5+): Brook's
// description of each config (config/topic-config.ts, config/broker-configs.ts: effective value, where it comes
// from, its synonyms) with Kafka's numeric config sources and config types.
import { brokerConfigDefinition } from '../config/broker-config-table.js';
import type { BrokerConfigDescription, BrokerConfigSource } from '../config/broker-configs.js';
import { topicConfigDefinition } from '../config/topic-config-table.js';
import type { TopicConfigDescription, TopicConfigSource } from '../config/topic-config.js';

/** Kafka's DescribeConfigsResponse.ConfigSource. */
export const CONFIG_SOURCE_CODES: Readonly<Record<TopicConfigSource | BrokerConfigSource, number>> = {
  DYNAMIC_TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
};

/** Kafka's ConfigDef.Type as DescribeConfigs v3 numbers it. */
const CONFIG_TYPE_CODES: Readonly<Record<string, number>> = {
  boolean: 1,
  string: 2,
  int: 3,
  long: 5,
  double: 6,
  list: 7,
};

export interface ConfigEntry {
  name: string;
  value: string | null;
  readOnly: boolean;
  configSource: number;
  isSensitive: boolean;
  synonyms: Array<{ name: string; value: string | null; source: number }>;
  configType: number;
  documentation: string | null;
}

export function configEntry(
  description: TopicConfigDescription,
  withSynonyms: boolean,
  withDocs: boolean,
): ConfigEntry {
  return entry(description, topicConfigDefinition(description.name), withSynonyms, withDocs);
}

/** A broker config's entry (documentation: the topic config it supplies the default of, when it does). */
export function brokerConfigEntry(
  description: BrokerConfigDescription,
  withSynonyms: boolean,
  withDocs: boolean,
): ConfigEntry {
  const definition = brokerConfigDefinition(description.name);
  const doc = definition?.topicSynonym
    ? `The default of the topic config whose broker synonym this is: ${description.name}.`
    : null;
  return entry(description, definition && { type: definition.type, doc }, withSynonyms, withDocs);
}

function entry(
  description: TopicConfigDescription | BrokerConfigDescription,
  definition: { type: string; doc: string | null } | undefined,
  withSynonyms: boolean,
  withDocs: boolean,
): ConfigEntry {
  return {
    name: description.name,
    value: description.value,
    readOnly: description.isReadOnly,
    configSource: CONFIG_SOURCE_CODES[description.source],
    isSensitive: description.isSensitive,
    synonyms: withSynonyms
      ? description.synonyms.map((synonym) => ({
          name: synonym.name,
          value: synonym.value,
          source: CONFIG_SOURCE_CODES[synonym.source],
        }))
      : [],
    configType: definition === undefined ? 0 : (CONFIG_TYPE_CODES[definition.type] ?? 0),
    documentation: withDocs ? (definition?.doc ?? null) : null,
  };
}
