// FindCoordinator (10), v0-4: the broker coordinating a consumer group, the leader of the group's partition of
// __consumer_offsets (as REST's group routing finds it); v4 asks for several groups at once. The offsets topic is
// created by the first request that needs it (as Kafka does); until it has a leader with a Kafka listener the answer
// is COORDINATOR_NOT_AVAILABLE, and the client asks again. Brook has no transactions: a transaction coordinator
// (key type 1) is INVALID_REQUEST. Authorization: DESCRIBE on the group.
// Pipelined: its one effect, creating the offsets topic, commutes with every other request of the connection.
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';

const GROUP_KEY_TYPE = 0;

interface Coordinator {
  key: string;
  nodeId: number;
  host: string;
  port: number;
  errorCode: number;
  errorMessage: string | null;
}

export const findCoordinatorHandler = defineHandler({
  api: 'FindCoordinator',
  minVersion: 0,
  maxVersion: 4,
  ordering: 'pipelined',
  async handle(request, context) {
    const body = request.body;
    if (request.apiVersion >= 4) {
      const coordinators: Coordinator[] = [];
      for (const key of body.coordinatorKeys) coordinators.push(await coordinatorOf(context, key, body.keyType));
      return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, nodeId: 0, host: '', port: 0, coordinators };
    }
    const { errorCode, errorMessage, nodeId, host, port } = await coordinatorOf(context, body.key, body.keyType);
    return { throttleTimeMs: 0, errorCode, errorMessage, nodeId, host, port, coordinators: [] };
  },
});

async function coordinatorOf(context: KafkaRequestContext, key: string, keyType: number): Promise<Coordinator> {
  const failed = (errorCode: number, errorMessage: string): Coordinator => ({
    key,
    nodeId: -1,
    host: '',
    port: -1,
    errorCode,
    errorMessage,
  });
  if (keyType !== GROUP_KEY_TYPE) {
    return failed(KafkaErrorCode.INVALID_REQUEST, 'Brook coordinates consumer groups only; it has no transactions.');
  }
  if (!authorized(context, 'FindCoordinator', 'DESCRIBE', groupResource(key))) {
    return failed(KafkaErrorCode.GROUP_AUTHORIZATION_FAILED, `Not authorized to describe group ${key}.`);
  }
  const { coordinator, brokers } = context.services;
  try {
    await coordinator.ensureOffsetsTopic();
  } catch (error) {
    return failed(KafkaErrorCode.COORDINATOR_NOT_AVAILABLE, (error as Error).message);
  }
  const leader = coordinator.coordinatorOf(key);
  const broker =
    leader === null || leader === NO_LEADER
      ? undefined
      : (await brokers.brokers()).find((candidate) => candidate.nodeId === leader);
  if (broker === undefined) {
    return failed(KafkaErrorCode.COORDINATOR_NOT_AVAILABLE, `The coordinator of group ${key} is not available yet.`);
  }
  return { key, nodeId: broker.nodeId, host: broker.host, port: broker.port, errorCode: 0, errorMessage: null };
}
