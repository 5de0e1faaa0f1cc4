// IncrementalAlterConfigs (44), v0-1 (KIP-339): per config an operation, 0 SET, 1 DELETE (back to the default),
// 2 APPEND and 3 SUBTRACT (list configs only: cleanup.policy), applied to the topic's current value, through
// topic-config-changes.ts. A config named twice in one resource is INVALID_REQUEST; APPEND or SUBTRACT on a
// config that is not a list is INVALID_CONFIG. Authorization: ALTER_CONFIGS on the topic. Broker resources (4;
// empty name: the cluster-wide defaults) change the dynamic broker configs the same way, through
// broker-config-changes.ts (ALTER_CONFIGS on the cluster; APPEND and SUBTRACT on log.cleanup.policy).
import { brokerConfigDefinition } from '../../config/broker-config-table.js';
import { topicConfigDefinition } from '../../config/topic-config-table.js';
import type { ConfigChange } from '../../controller-election/controller.service.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import type { KafkaFailure } from '../kafka-errors.js';
import { alterBrokerResource } from '../broker-config-changes.js';
import { alterTopicConfigs, BROKER_RESOURCE, resourceAnswer, unsupportedResource } from '../topic-config-changes.js';
import { defineHandler, type KafkaRequestContext, type RequestOf } from '../kafka-handler.js';

type ConfigOperation = RequestOf<'IncrementalAlterConfigs'>['body']['resources'][number]['configs'][number];

const SET = 0;
const DELETE = 1;
const APPEND = 2;
const SUBTRACT = 3;

export const incrementalAlterConfigsHandler = defineHandler({
  api: 'IncrementalAlterConfigs',
  minVersion: 0,
  maxVersion: 1,
  ordering: 'exclusive',
  async handle(request, context) {
    const responses = [];
    for (const resource of request.body.resources) {
      const refused = unsupportedResource(resource.resourceType);
      const { resourceName } = resource;
      const validateOnly = request.body.validateOnly;
      const api = 'IncrementalAlterConfigs';
      const outcome =
        refused ??
        (resource.resourceType === BROKER_RESOURCE
          ? await alterBrokerResource(context, api, resourceName, validateOnly, (current) =>
              plan(
                resource.configs,
                (name) => brokerConfigDefinition(name)?.type === 'list',
                (name) => current[name] ?? brokerListValue(context, name),
              ),
            )
          : await alterTopicConfigs(context, api, resourceName, validateOnly, (overrides) =>
              plan(
                resource.configs,
                (name) => topicConfigDefinition(name)?.type === 'list',
                (name) => currentList(context, resourceName, overrides, name),
              ),
            ));
      responses.push(resourceAnswer(resource.resourceType, resource.resourceName, outcome));
    }
    return { throttleTimeMs: 0, responses };
  },
});

function invalid(errorCode: KafkaErrorCode, errorMessage: string): KafkaFailure {
  return { errorCode, errorMessage };
}

/** The changes of one resource's operations; `isList` and `currentValue` know the resource's configs. */
function plan(
  operations: readonly ConfigOperation[],
  isList: (name: string) => boolean,
  currentValue: (name: string) => string | null,
): ConfigChange[] | KafkaFailure {
  const changes: ConfigChange[] = [];
  const seen = new Set<string>();
  for (const { name, configOperation, value } of operations) {
    if (seen.has(name)) return invalid(KafkaErrorCode.INVALID_REQUEST, `config ${name} is named more than once`);
    seen.add(name);
    if (configOperation === SET) {
      if (value === null) return invalid(KafkaErrorCode.INVALID_CONFIG, `config ${name} needs a value to SET`);
      changes.push({ name, value, operation: 'SET' });
    } else if (configOperation === DELETE) {
      changes.push({ name, value: null, operation: 'DELETE' });
    } else if (configOperation === APPEND || configOperation === SUBTRACT) {
      if (!isList(name)) {
        return invalid(
          KafkaErrorCode.INVALID_CONFIG,
          `config ${name} is not a list: it cannot be appended to or subtracted from`,
        );
      }
      const current = items(currentValue(name));
      const given = items(value);
      const next =
        configOperation === APPEND
          ? [...current, ...given.filter((item) => !current.includes(item))]
          : current.filter((item) => !given.includes(item));
      changes.push({ name, value: next.join(','), operation: 'SET' });
    } else {
      return invalid(KafkaErrorCode.INVALID_REQUEST, `unknown config operation ${configOperation} for ${name}`);
    }
  }
  return changes;
}

function items(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list config's effective value for a topic (override, broker default or Kafka's). */
function currentList(
  context: KafkaRequestContext,
  topic: string,
  overrides: Readonly<Record<string, string>>,
  name: string,
): string | null {
  const { admin, metadata } = context.services;
  const description = admin
    .describeConfigs({ ...metadata.topic(topic)!, configs: { ...overrides } })
    .find((entry) => entry.name === name);
  return description?.value ?? null;
}

/** A broker list config's value where the resource sets none: this broker's effective one (or the default). */
function brokerListValue(context: KafkaRequestContext, name: string): string | null {
  return (
    context.services.brokerConfigs.settings().topicConfigDefaults[name] ?? brokerConfigDefinition(name)?.default ?? null
  );
}
