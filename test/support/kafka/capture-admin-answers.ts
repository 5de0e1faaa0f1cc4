// The capture broker's answers to admin requests (topics, configs, groups, ACLs, the cluster, SASL).
import { encodeResponse, type KafkaRequest } from '../../../src/kafka/protocol/codec.js';
import { KafkaErrorCode } from '../../../src/kafka/protocol/error-codes.js';
import { type Answer, brokers, CLUSTER_ID, type CaptureState, frame, NODE_ID, ZERO_UUID } from './capture-state.js';

const PRODUCER_ID = 4000;

export function answerAdmin(state: CaptureState, request: KafkaRequest): Answer {
  const { apiVersion: version, correlationId: id } = request;
  switch (request.apiName) {
    case 'CreateTopics':
      return frame(
        encodeResponse('CreateTopics', version, id, {
          throttleTimeMs: 0,
          topics: request.body.topics.map((topic) => {
            const created = state.createTopic(topic.name, topic.numPartitions);
            return {
              name: topic.name,
              topicId: state.topics.get(topic.name)?.id ?? ZERO_UUID,
              errorCode: created ? 0 : KafkaErrorCode.TOPIC_ALREADY_EXISTS,
              errorMessage: null,
              numPartitions: state.topics.get(topic.name)?.partitions ?? -1,
              replicationFactor: 1,
              configs: [],
            };
          }),
        }),
      );
    case 'DeleteTopics': {
      const names =
        request.apiVersion >= 6 ? request.body.topics.map((topic) => topic.name ?? '') : request.body.topicNames;
      for (const name of names) state.topics.delete(name);
      return frame(
        encodeResponse('DeleteTopics', version, id, {
          throttleTimeMs: 0,
          responses: names.map((name) => ({ name, topicId: ZERO_UUID, errorCode: 0 })),
        }),
      );
    }
    case 'CreatePartitions':
      return frame(
        encodeResponse('CreatePartitions', version, id, {
          throttleTimeMs: 0,
          results: request.body.topics.map((topic) => ({ name: topic.name, errorCode: 0 })),
        }),
      );
    case 'DescribeConfigs':
      return frame(
        encodeResponse('DescribeConfigs', version, id, {
          throttleTimeMs: 0,
          results: request.body.resources.map((resource) => ({
            errorCode: 0,
            errorMessage: null,
            resourceType: resource.resourceType,
            resourceName: resource.resourceName,
            configs: [
              {
                name: 'retention.ms',
                value: '604800000',
                readOnly: false,
                isSensitive: false,
                synonyms: [],
                documentation: null,
              },
            ],
          })),
        }),
      );
    case 'AlterConfigs':
    case 'IncrementalAlterConfigs':
      return frame(
        encodeResponse(request.apiName, version, id, {
          throttleTimeMs: 0,
          responses: request.body.resources.map((resource) => ({
            errorCode: 0,
            errorMessage: null,
            resourceType: resource.resourceType,
            resourceName: resource.resourceName,
          })),
        }),
      );
    case 'InitProducerId':
      return frame(
        encodeResponse('InitProducerId', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          producerId: PRODUCER_ID,
          producerEpoch: 0,
        }),
      );
    case 'ListGroups':
      return frame(
        encodeResponse('ListGroups', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          groups: [...state.groups.keys()].map((groupId) => ({
            groupId,
            protocolType: 'consumer',
            groupState: 'Stable',
          })),
        }),
      );
    case 'DescribeGroups':
      return frame(
        encodeResponse('DescribeGroups', version, id, {
          throttleTimeMs: 0,
          groups: request.body.groups.map((groupId) => ({
            errorCode: 0,
            groupId,
            groupState: state.groups.has(groupId) ? 'Stable' : 'Dead',
            protocolType: 'consumer',
            protocolData: state.groups.get(groupId)?.protocol ?? '',
            members: [],
            authorizedOperations: -2147483648,
          })),
        }),
      );
    case 'DeleteGroups':
      return frame(
        encodeResponse('DeleteGroups', version, id, {
          throttleTimeMs: 0,
          results: request.body.groupsNames.map((groupId) => ({ groupId, errorCode: 0 })),
        }),
      );
    case 'CreateAcls':
      return frame(
        encodeResponse('CreateAcls', version, id, {
          throttleTimeMs: 0,
          results: request.body.creations.map(() => ({ errorCode: 0, errorMessage: null })),
        }),
      );
    case 'DescribeAcls':
      return frame(
        encodeResponse('DescribeAcls', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          errorMessage: null,
          resources: [],
        }),
      );
    case 'DeleteAcls':
      return frame(
        encodeResponse('DeleteAcls', version, id, {
          throttleTimeMs: 0,
          filterResults: request.body.filters.map(() => ({ errorCode: 0, errorMessage: null, matchingAcls: [] })),
        }),
      );
    case 'DescribeCluster':
      return frame(
        encodeResponse('DescribeCluster', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          clusterId: CLUSTER_ID,
          controllerId: NODE_ID,
          brokers: brokers(state).map(({ nodeId, host, port }) => ({ brokerId: nodeId, host, port })),
        }),
      );
    case 'SaslHandshake':
      return frame(encodeResponse('SaslHandshake', version, id, { errorCode: 0, mechanisms: ['PLAIN'] }));
    case 'SaslAuthenticate':
      return frame(
        encodeResponse('SaslAuthenticate', version, id, {
          errorCode: 0,
          errorMessage: null,
          authBytes: Buffer.alloc(0),
        }),
      );
    default:
      throw new Error(`the capture broker has no answer for ${request.apiName}`);
  }
}
