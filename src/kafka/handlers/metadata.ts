// Metadata (3), v1-12: every live broker's advertised Kafka listener, the controller, the cluster id (REST's), and
// per topic its id (v10+), partitions, leaders, leader epochs, replicas, ISR and offline replicas, from the
// metadata cache every broker keeps. A null topic list means every topic the principal may DESCRIBE (internal
// ones included, as Kafka lists them); a named topic the principal may not describe is TOPIC_AUTHORIZATION_FAILED
// whether it exists or not. An unknown topic is created when auto-creation is on (BROOK_AUTO_CREATE_TOPICS_ENABLE,
// false by default, and the request allows it) and the principal may CREATE it, then answered
// LEADER_NOT_AVAILABLE as Kafka does, so the client asks again once leaders have taken over. A partition whose
// leader is down (or has no Kafka listener) is LEADER_NOT_AVAILABLE with leader -1. A topic named by its id
// alone (a null name) before v12 is an invalid request, as in Kafka: the connection closes.
// Pipelined: its only effect, creating a topic, commutes with every other request of the connection.
import { BrookError } from '../../common/brook-error.js';
import type { TopicMetadata } from '../../topic/cluster-metadata.js';
import { isInternalTopic, validateTopicName } from '../../topic/topic-name.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import {
  authorized,
  authorizedOperations,
  authorizedOrCluster,
  CLUSTER,
  CLUSTER_OPERATIONS,
  OPERATIONS_NOT_REQUESTED,
  TOPIC_OPERATIONS,
  topicResource,
} from '../kafka-authorization.js';
import { CloseConnection, defineHandler, type KafkaRequestContext } from '../kafka-handler.js';
import { kafkaErrorCode } from '../kafka-errors.js';

type TopicAnswer = ResponseInput<'Metadata'>['topics'][number];

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export const metadataHandler = defineHandler({
  api: 'Metadata',
  minVersion: 1,
  maxVersion: 12,
  ordering: 'pipelined',
  async handle(request, context) {
    const { metadata, election } = context.services;
    const body = request.body;
    if (request.apiVersion < 12 && body.topics?.some((topic) => topic.name === null)) {
      // Kafka refuses it as an invalid request: a v10-11 answer cannot carry the null name back
      return new CloseConnection(`Metadata v${request.apiVersion} names a topic by id only (ids need v12)`);
    }
    const brokers = await context.services.brokers.brokers();
    const live = new Set(brokers.map((broker) => broker.nodeId));
    const withOperations = body.includeTopicAuthorizedOperations;
    const topicAnswer = (topic: TopicMetadata, errorCode: number = KafkaErrorCode.NONE): TopicAnswer => ({
      errorCode,
      name: topic.assignment.name,
      topicId: wireTopicId(topic.assignment.topicId),
      isInternal: isInternalTopic(topic.assignment.name),
      partitions: errorCode === KafkaErrorCode.NONE ? partitionsOf(topic, live) : [],
      topicAuthorizedOperations: withOperations
        ? authorizedOperations(context, topicResource(topic.assignment.name), TOPIC_OPERATIONS)
        : OPERATIONS_NOT_REQUESTED,
    });
    let topics: TopicAnswer[];
    if (body.topics === null) {
      topics = [...metadata.allTopics().values()]
        .filter((topic) =>
          authorized(context, 'Metadata', 'DESCRIBE', topicResource(topic.assignment.name), { quiet: true }),
        )
        .map((topic) => topicAnswer(topic));
    } else {
      topics = [];
      for (const wanted of body.topics) {
        topics.push(
          await namedTopic(
            context,
            wanted,
            body.allowAutoTopicCreation,
            topicAnswer,
            context.services.brokerConfigs.settings().autoCreateTopicsEnable,
          ),
        );
      }
    }
    return {
      throttleTimeMs: 0,
      brokers: brokers.map(({ nodeId, host, port, rack }) => ({ nodeId, host, port, rack })),
      clusterId: election.clusterId,
      controllerId: await context.services.brokers.controllerId(),
      topics,
      clusterAuthorizedOperations: body.includeClusterAuthorizedOperations
        ? authorizedOperations(context, CLUSTER, CLUSTER_OPERATIONS)
        : OPERATIONS_NOT_REQUESTED,
    };
  },
});

async function namedTopic(
  context: KafkaRequestContext,
  wanted: { topicId: string; name: string | null },
  allowAutoCreation: boolean,
  topicAnswer: (topic: TopicMetadata, errorCode?: number) => TopicAnswer,
  autoCreateEnabled: boolean,
): Promise<TopicAnswer> {
  const { metadata } = context.services;
  const name = wanted.name ?? nameOfTopicId(context, wanted.topicId);
  const failed = (errorCode: number): TopicAnswer => ({
    errorCode,
    name,
    topicId: wanted.name === null ? wanted.topicId : ZERO_UUID,
    isInternal: false,
    partitions: [],
    topicAuthorizedOperations: OPERATIONS_NOT_REQUESTED,
  });
  if (name === null) return failed(KafkaErrorCode.UNKNOWN_TOPIC_ID);
  if (!authorized(context, 'Metadata', 'DESCRIBE', topicResource(name))) {
    return failed(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
  }
  const known = metadata.topic(name);
  if (known !== undefined) return topicAnswer(known);
  if (validateTopicName(name) !== null) return failed(KafkaErrorCode.INVALID_TOPIC_EXCEPTION);
  if (!allowAutoCreation || !autoCreateEnabled || isInternalTopic(name)) {
    return failed(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  }
  if (!authorizedOrCluster(context, 'Metadata', 'CREATE', topicResource(name))) {
    return failed(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
  }
  const { brokerConfigs, controller } = context.services;
  const settings = brokerConfigs.settings();
  try {
    await controller.createTopic({
      name,
      partitions: settings.numPartitions,
      replicationFactor: settings.defaultReplicationFactor,
      configs: [],
    });
  } catch (error) {
    const code = kafkaErrorCode(error);
    if (!(error instanceof BrookError) || code !== KafkaErrorCode.TOPIC_ALREADY_EXISTS) return failed(code);
  }
  return failed(KafkaErrorCode.LEADER_NOT_AVAILABLE);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A topic's id as the protocol carries it (every topic Brook creates has a random UUID; anything else is zero). */
export function wireTopicId(topicId: string): string {
  return UUID.test(topicId) ? topicId : ZERO_UUID;
}

function nameOfTopicId(context: KafkaRequestContext, topicId: string): string | null {
  for (const topic of context.services.metadata.allTopics().values()) {
    if (topic.assignment.topicId === topicId) return topic.assignment.name;
  }
  return null;
}

function partitionsOf(topic: TopicMetadata, live: ReadonlySet<number>): TopicAnswer['partitions'] {
  return topic.assignment.replicas.map((replicas, partition) => {
    const state = topic.states[partition];
    const leader = state?.leader ?? -1;
    const available = leader >= 0 && live.has(leader);
    return {
      errorCode: available ? KafkaErrorCode.NONE : KafkaErrorCode.LEADER_NOT_AVAILABLE,
      partitionIndex: partition,
      leaderId: available ? leader : -1,
      leaderEpoch: state?.leaderEpoch ?? -1,
      replicaNodes: [...replicas],
      isrNodes: [...(state?.isr ?? [])],
      offlineReplicas: replicas.filter((broker) => !live.has(broker)),
    };
  });
}
