// AlterConfigs (33), v0-2: replaces a topic's whole set of overrides with the ones given (Kafka's non-incremental
// semantics: an override not named is removed), through topic-config-changes.ts. Authorization: ALTER_CONFIGS on
// the topic. Broker resources (4; empty name: the cluster-wide defaults) likewise replace the dynamic broker
// configs, through broker-config-changes.ts (ALTER_CONFIGS on the cluster).
import type { ConfigChange } from '../../controller-election/controller.service.js';
import { alterBrokerResource } from '../broker-config-changes.js';
import { alterTopicConfigs, BROKER_RESOURCE, resourceAnswer, unsupportedResource } from '../topic-config-changes.js';
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
      const replace = (overrides: Readonly<Record<string, string>>): ConfigChange[] => {
        const given = new Map(resource.configs.map(({ name, value }) => [name, value]));
        const changes: ConfigChange[] = [...given].map(([name, value]) =>
          value === null ? { name, value: null, operation: 'DELETE' } : { name, value, operation: 'SET' },
        );
        for (const name of Object.keys(overrides)) {
          if (!given.has(name)) changes.push({ name, value: null, operation: 'DELETE' });
        }
        return changes;
      };
      const { resourceName } = resource;
      const validateOnly = request.body.validateOnly;
      const outcome =
        refused ??
        (resource.resourceType === BROKER_RESOURCE
          ? await alterBrokerResource(context, 'AlterConfigs', resourceName, validateOnly, replace)
          : await alterTopicConfigs(context, 'AlterConfigs', resourceName, validateOnly, replace));
      responses.push(resourceAnswer(resource.resourceType, resource.resourceName, outcome));
    }
    return { throttleTimeMs: 0, responses };
  },
});
