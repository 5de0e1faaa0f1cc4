// DescribeCluster (60), v0-1 (KIP-700): the cluster id (REST's), the controller, and every live broker's Kafka
// listener, as Metadata has them; v1's endpoint type 2 (KRaft controllers) has no meaning here:
// UNSUPPORTED_ENDPOINT_TYPE. Authorization: DESCRIBE on the cluster. The cluster's authorized operations on request.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import {
  authorized,
  authorizedOperations,
  CLUSTER,
  CLUSTER_OPERATIONS,
  OPERATIONS_NOT_REQUESTED,
} from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';

const BROKERS_ENDPOINT = 1;
/** Kafka's UNSUPPORTED_ENDPOINT_TYPE (KIP-919). */
const UNSUPPORTED_ENDPOINT_TYPE = 115;

export const describeClusterHandler = defineHandler({
  api: 'DescribeCluster',
  minVersion: 0,
  maxVersion: 1,
  ordering: 'pipelined',
  async handle(request, context) {
    const { brokers, election } = context.services;
    const answer = (errorCode: number, errorMessage: string | null) => ({
      throttleTimeMs: 0,
      errorCode,
      errorMessage,
      endpointType: request.body.endpointType,
      clusterId: election.clusterId,
      controllerId: -1,
      brokers: [] as Array<{ brokerId: number; host: string; port: number; rack: string | null }>,
      clusterAuthorizedOperations: OPERATIONS_NOT_REQUESTED,
    });
    if (request.body.endpointType !== BROKERS_ENDPOINT) {
      return answer(UNSUPPORTED_ENDPOINT_TYPE, 'Brook has no separate controller endpoints; ask for brokers (1).');
    }
    if (!authorized(context, 'DescribeCluster', 'DESCRIBE', CLUSTER)) {
      return answer(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, 'not authorized to DESCRIBE the cluster');
    }
    return {
      ...answer(KafkaErrorCode.NONE, null),
      controllerId: await brokers.controllerId(),
      brokers: (await brokers.brokers()).map(({ nodeId, host, port, rack }) => ({
        brokerId: nodeId,
        host,
        port,
        rack,
      })),
      clusterAuthorizedOperations: request.body.includeClusterAuthorizedOperations
        ? authorizedOperations(context, CLUSTER, CLUSTER_OPERATIONS)
        : OPERATIONS_NOT_REQUESTED,
    };
  },
});
