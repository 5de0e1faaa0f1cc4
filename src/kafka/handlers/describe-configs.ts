// DescribeConfigs (32), v1-4: a topic's configs as REST's GET .../topics/{t}/configs describes them (effective
// value, source, read-only, sensitive), with their synonyms when asked (v1+) and their types and documentation
// (v3+); a null key list means every config, unknown keys are left out. Authorization: DESCRIBE_CONFIGS on the
// topic. Broker resources (4): a broker's configs, or with an empty name the cluster-wide defaults, as REST's
// brokers/{id}/configs and broker-configs show them (DESCRIBE_CONFIGS on the cluster).
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { brokerConfigEntry, configEntry } from '../config-entries.js';
import { describeBrokerResource } from '../broker-config-changes.js';
import { BROKER_RESOURCE, unsupportedResource } from '../topic-config-changes.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';

type Entry = ReturnType<typeof configEntry>;
type Outcome = { errorCode: number; errorMessage: string | null; configs: Entry[] };

export const describeConfigsHandler = defineHandler({
  api: 'DescribeConfigs',
  minVersion: 1,
  maxVersion: 4,
  ordering: 'pipelined',
  async handle(request, context) {
    const { includeSynonyms, includeDocumentation } = request.body;
    const results = [];
    for (const { resourceType, resourceName, configurationKeys } of request.body.resources) {
      const wanted = configurationKeys === null ? null : new Set(configurationKeys);
      const keep = (name: string) => wanted === null || wanted.has(name);
      const refused = unsupportedResource(resourceType);
      const outcome: Outcome =
        refused !== null
          ? { errorCode: refused.errorCode, errorMessage: refused.errorMessage, configs: [] }
          : resourceType === BROKER_RESOURCE
            ? await describeBroker(context, resourceName, keep, includeSynonyms, includeDocumentation)
            : describeTopic(context, resourceName, keep, includeSynonyms, includeDocumentation);
      results.push({ ...outcome, resourceType, resourceName });
    }
    return { throttleTimeMs: 0, results };
  },
});

async function describeBroker(
  context: KafkaRequestContext,
  resourceName: string,
  keep: (name: string) => boolean,
  synonyms: boolean,
  docs: boolean,
): Promise<Outcome> {
  const described = await describeBrokerResource(context, resourceName);
  if (!Array.isArray(described)) return { ...described, configs: [] };
  const configs = described
    .filter((description) => keep(description.name))
    .map((description) => brokerConfigEntry(description, synonyms, docs));
  return { errorCode: KafkaErrorCode.NONE, errorMessage: null, configs };
}

function describeTopic(
  context: KafkaRequestContext,
  resourceName: string,
  keep: (name: string) => boolean,
  synonyms: boolean,
  docs: boolean,
): Outcome {
  if (!authorized(context, 'DescribeConfigs', 'DESCRIBE_CONFIGS', topicResource(resourceName))) {
    return failed(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, `not authorized to DESCRIBE_CONFIGS ${resourceName}`);
  }
  const topic = context.services.metadata.topic(resourceName);
  if (topic === undefined) return failed(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${resourceName} not found.`);
  const configs = context.services.admin
    .describeConfigs(topic)
    .filter((description) => keep(description.name))
    .map((description) => configEntry(description, synonyms, docs));
  return { errorCode: KafkaErrorCode.NONE, errorMessage: null, configs };
}

function failed(errorCode: number, errorMessage: string): Outcome {
  return { errorCode, errorMessage, configs: [] };
}
