// DescribeConfigs (32), v1-4: a topic's configs as REST's GET .../topics/{t}/configs describes them (effective
// value, source, read-only, sensitive), with their synonyms when asked (v1+) and their types and documentation
// (v3+); a null key list means every config, unknown keys are left out. Authorization: DESCRIBE_CONFIGS on the
// topic. Broker resources: not served yet (INVALID_REQUEST naming REST's broker configs).
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { configEntry } from '../config-entries.js';
import { unsupportedResource } from '../topic-config-changes.js';
import { defineHandler } from '../kafka-handler.js';

export const describeConfigsHandler = defineHandler({
  api: 'DescribeConfigs',
  minVersion: 1,
  maxVersion: 4,
  ordering: 'pipelined',
  handle(request, context) {
    const { includeSynonyms, includeDocumentation } = request.body;
    const results = request.body.resources.map(({ resourceType, resourceName, configurationKeys }) => {
      const answer = (
        errorCode: number,
        errorMessage: string | null,
        configs: ReturnType<typeof configEntry>[] = [],
      ) => ({
        errorCode,
        errorMessage,
        resourceType,
        resourceName,
        configs,
      });
      const refused = unsupportedResource(resourceType);
      if (refused !== null) return answer(refused.errorCode, refused.errorMessage);
      if (!authorized(context, 'DescribeConfigs', 'DESCRIBE_CONFIGS', topicResource(resourceName))) {
        return answer(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, `not authorized to DESCRIBE_CONFIGS ${resourceName}`);
      }
      const topic = context.services.metadata.topic(resourceName);
      if (topic === undefined)
        return answer(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${resourceName} not found.`);
      const wanted = configurationKeys === null ? null : new Set(configurationKeys);
      const configs = context.services.admin
        .describeConfigs(topic)
        .filter((description) => wanted === null || wanted.has(description.name))
        .map((description) => configEntry(description, includeSynonyms, includeDocumentation));
      return answer(KafkaErrorCode.NONE, null, configs);
    });
    return { throttleTimeMs: 0, results };
  },
});
