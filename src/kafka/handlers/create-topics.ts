// CreateTopics (19), v2-7: each topic through the controller, as REST's POST .../topics does (forwarded to the
// controller from any broker): -1 partitions or replication factor means the broker's default (v4+), configs are
// Kafka's topic configs, validate_only checks without creating. Manual replica assignments are not supported:
// INVALID_REPLICA_ASSIGNMENT. v5+ answers the topic's partitions, replication factor and configs (when the
// principal may DESCRIBE_CONFIGS it), v7 its id. Authorization: CREATE on the cluster or on the topic. Errors are
// Kafka's: TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION, INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR,
// INVALID_CONFIG, NOT_CONTROLLER (retriable: no controller right now).
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, authorizedOrCluster, topicResource } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext, type RequestOf } from '../kafka-handler.js';
import { configEntry } from '../config-entries.js';
import { wireTopicId } from './metadata.js';

type TopicAnswer = ResponseInput<'CreateTopics'>['topics'][number];
type TopicRequest = RequestOf<'CreateTopics'>['body']['topics'][number];

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export const createTopicsHandler = defineHandler({
  api: 'CreateTopics',
  minVersion: 2,
  maxVersion: 7,
  ordering: 'exclusive',
  async handle(request, context) {
    const counts = new Map<string, number>();
    for (const topic of request.body.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
    const topics: TopicAnswer[] = [];
    for (const topic of request.body.topics) {
      topics.push(
        counts.get(topic.name)! > 1
          ? failed(topic.name, KafkaErrorCode.INVALID_REQUEST, `topic ${topic.name} is named more than once`)
          : await create(context, topic, request.body.validateOnly),
      );
    }
    return { throttleTimeMs: 0, topics };
  },
});

function failed(name: string, errorCode: number, errorMessage: string | null): TopicAnswer {
  return { name, topicId: ZERO_UUID, errorCode, errorMessage, numPartitions: -1, replicationFactor: -1, configs: null };
}

async function create(context: KafkaRequestContext, topic: TopicRequest, validateOnly: boolean): Promise<TopicAnswer> {
  const { brokerConfigs, controller, metadata, admin } = context.services;
  const settings = brokerConfigs.settings();
  if (!authorizedOrCluster(context, 'CreateTopics', 'CREATE', topicResource(topic.name))) {
    return failed(
      topic.name,
      KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED,
      `not authorized to CREATE topic ${topic.name}`,
    );
  }
  if (topic.assignments.length > 0) {
    return failed(
      topic.name,
      KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
      'Brook places replicas itself: give num_partitions and replication_factor instead of assignments',
    );
  }
  const partitions = topic.numPartitions === -1 ? settings.numPartitions : topic.numPartitions;
  const replicationFactor =
    topic.replicationFactor === -1 ? settings.defaultReplicationFactor : topic.replicationFactor;
  let assignment;
  try {
    assignment = await controller.createTopic({
      name: topic.name,
      partitions,
      replicationFactor,
      configs: topic.configs.map(({ name, value }) => ({ name, value })),
      validateOnly,
    });
  } catch (error) {
    const { errorCode, errorMessage } = kafkaFailure(error);
    return failed(topic.name, errorCode, errorMessage);
  }
  const created = validateOnly ? undefined : metadata.topic(topic.name);
  const describable = authorized(context, 'CreateTopics', 'DESCRIBE_CONFIGS', topicResource(topic.name), {
    quiet: true,
  });
  const configs = describable
    ? admin
        .describeConfigs(created ?? { assignment, states: [], stateVersions: [], configs: configOverrides(topic) })
        .map((description) => {
          const { name, value, readOnly, configSource, isSensitive } = configEntry(description, false, false);
          return { name, value, readOnly, configSource, isSensitive };
        })
    : null;
  return {
    name: topic.name,
    topicId: wireTopicId(assignment.topicId),
    errorCode: KafkaErrorCode.NONE,
    errorMessage: null,
    topicConfigErrorCode: describable ? KafkaErrorCode.NONE : KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED,
    numPartitions: assignment.replicas.length,
    replicationFactor: assignment.replicas[0]?.length ?? replicationFactor,
    configs,
  };
}

/** The overrides a validate-only request would set (the topic does not exist to read them from). */
function configOverrides(topic: TopicRequest): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const { name, value } of topic.configs) if (value !== null) overrides[name] = value;
  return overrides;
}
