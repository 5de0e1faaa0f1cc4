// IncrementalAlterConfigs (44), v0-1 (KIP-339): per config an operation, 0 SET, 1 DELETE (back to the default),
// 2 APPEND and 3 SUBTRACT (list configs only: cleanup.policy), applied to the topic's current value, through
// topic-config-changes.ts. A config named twice in one resource is INVALID_REQUEST; APPEND or SUBTRACT on a
// config that is not a list is INVALID_CONFIG. Authorization: ALTER_CONFIGS on the topic. Broker resources: not
// served yet (INVALID_REQUEST naming REST's broker configs).
import { topicConfigDefinition } from '../../config/topic-config-table.js';
import type { ConfigChange } from '../../controller-election/controller.service.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import type { KafkaFailure } from '../kafka-errors.js';
import { alterTopicConfigs, resourceAnswer, unsupportedResource } from '../topic-config-changes.js';
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
      const outcome =
        refused ??
        (await alterTopicConfigs(
          context,
          'IncrementalAlterConfigs',
          resource.resourceName,
          request.body.validateOnly,
          (overrides) => plan(context, resource.resourceName, overrides, resource.configs),
        ));
      responses.push(resourceAnswer(resource.resourceType, resource.resourceName, outcome));
    }
    return { throttleTimeMs: 0, responses };
  },
});

function invalid(errorCode: KafkaErrorCode, errorMessage: string): KafkaFailure {
  return { errorCode, errorMessage };
}

function plan(
  context: KafkaRequestContext,
  topic: string,
  overrides: Readonly<Record<string, string>>,
  operations: readonly ConfigOperation[],
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
      if (topicConfigDefinition(name)?.type !== 'list') {
        return invalid(
          KafkaErrorCode.INVALID_CONFIG,
          `config ${name} is not a list: it cannot be appended to or subtracted from`,
        );
      }
      const current = currentList(context, topic, overrides, name);
      const items = (value ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      const next =
        configOperation === APPEND
          ? [...current, ...items.filter((item) => !current.includes(item))]
          : current.filter((item) => !items.includes(item));
      changes.push({ name, value: next.join(','), operation: 'SET' });
    } else {
      return invalid(KafkaErrorCode.INVALID_REQUEST, `unknown config operation ${configOperation} for ${name}`);
    }
  }
  return changes;
}

/** A list config's effective value (override, broker default or Kafka's), as items. */
function currentList(
  context: KafkaRequestContext,
  topic: string,
  overrides: Readonly<Record<string, string>>,
  name: string,
): string[] {
  const { admin, metadata } = context.services;
  const description = admin
    .describeConfigs({ ...metadata.topic(topic)!, configs: { ...overrides } })
    .find((entry) => entry.name === name);
  return (description?.value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
