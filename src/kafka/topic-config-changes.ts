// Changing a topic's config overrides from the Kafka config APIs (AlterConfigs, IncrementalAlterConfigs): the
// resulting overrides are validated as a whole, as the controller does (config/topic-config.ts), and with
// validate_only nothing more happens; otherwise the changes go to the controller, as REST's
// POST .../configs:alter sends them. Resources are Kafka's: 2 a topic; 4 a broker (broker-config-changes.ts);
// anything else INVALID_REQUEST.
import { validateTopicConfigs } from '../config/topic-config.js';
import type { ConfigChange } from '../controller-election/controller.service.js';
import { KafkaErrorCode } from './protocol/error-codes.js';
import { authorized, topicResource } from './kafka-authorization.js';
import { kafkaFailure, type KafkaFailure } from './kafka-errors.js';
import type { KafkaRequestContext } from './kafka-handler.js';

export const TOPIC_RESOURCE = 2;
export const BROKER_RESOURCE = 4;

const NONE: KafkaFailure = { errorCode: KafkaErrorCode.NONE, errorMessage: '' };

/** Why a resource other than a topic or a broker is refused, or null for those. */
export function unsupportedResource(resourceType: number): KafkaFailure | null {
  if (resourceType === TOPIC_RESOURCE || resourceType === BROKER_RESOURCE) return null;
  return { errorCode: KafkaErrorCode.INVALID_REQUEST, errorMessage: `resource type ${resourceType} is not supported` };
}

/**
 * Applies `changes` (computed by `plan` from the topic's current overrides) to a topic: authorization (ALTER_CONFIGS
 * on the topic), existence, validation of the result, then the controller unless `validateOnly`.
 */
export async function alterTopicConfigs(
  context: KafkaRequestContext,
  api: string,
  topic: string,
  validateOnly: boolean,
  plan: (overrides: Readonly<Record<string, string>>) => ConfigChange[] | KafkaFailure,
): Promise<KafkaFailure> {
  if (!authorized(context, api, 'ALTER_CONFIGS', topicResource(topic))) {
    return {
      errorCode: KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED,
      errorMessage: `not authorized to ALTER_CONFIGS ${topic}`,
    };
  }
  const current = context.services.metadata.topic(topic);
  if (current === undefined) {
    return { errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: `Topic ${topic} not found.` };
  }
  const changes = plan(current.configs);
  if (!Array.isArray(changes)) return changes;
  const next: Record<string, string> = { ...current.configs };
  for (const change of changes) {
    if (change.operation === 'DELETE') delete next[change.name];
    else next[change.name] = change.value ?? '';
  }
  const validated = validateTopicConfigs(
    Object.entries(next).map(([name, value]) => ({ name, value })),
    context.services.brokerConfigs.settings().topicConfigDefaults,
  );
  if (!validated.ok) return { errorCode: KafkaErrorCode.INVALID_CONFIG, errorMessage: validated.message };
  if (validateOnly) return NONE;
  try {
    await context.services.controller.alterConfigs(topic, changes);
    return NONE;
  } catch (error) {
    return kafkaFailure(error);
  }
}

/** A resource's answer in the shape both alter APIs share. */
export function resourceAnswer(resourceType: number, resourceName: string, failure: KafkaFailure) {
  return {
    errorCode: failure.errorCode,
    errorMessage: failure.errorCode === KafkaErrorCode.NONE ? null : failure.errorMessage,
    resourceType,
    resourceName,
  };
}
