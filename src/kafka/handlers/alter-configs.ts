// AlterConfigs (33), v0-2: replaces a topic's whole set of overrides with the ones given (Kafka's non-incremental
// semantics: an override not named is removed), through topic-config-changes.ts. Authorization: ALTER_CONFIGS on
// the topic. Broker resources: not served yet (INVALID_REQUEST naming REST's broker configs).
import type { ConfigChange } from '../../controller-election/controller.service.js';
import { alterTopicConfigs, resourceAnswer, unsupportedResource } from '../topic-config-changes.js';
import { defineHandler } from '../kafka-handler.js';

export const alterConfigsHandler = defineHandler({
  api: 'AlterConfigs',
  minVersion: 0,
  maxVersion: 2,
  ordering: 'exclusive',
  async handle(request, context) {
    const responses = [];
    for (const resource of request.body.resources) {
      const refused = unsupportedResource(resource.resourceType);
      const outcome =
        refused ??
        (await alterTopicConfigs(
          context,
          'AlterConfigs',
          resource.resourceName,
          request.body.validateOnly,
          (overrides) => {
            const given = new Map(resource.configs.map(({ name, value }) => [name, value]));
            const changes: ConfigChange[] = [...given].map(([name, value]) =>
              value === null ? { name, value: null, operation: 'DELETE' } : { name, value, operation: 'SET' },
            );
            for (const name of Object.keys(overrides)) {
              if (!given.has(name)) changes.push({ name, value: null, operation: 'DELETE' });
            }
            return changes;
          },
        ));
      responses.push(resourceAnswer(resource.resourceType, resource.resourceName, outcome));
    }
    return { throttleTimeMs: 0, responses };
  },
});
