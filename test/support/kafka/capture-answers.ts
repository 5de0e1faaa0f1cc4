// The capture broker's answers: one node (id 1) that leads every partition, keeps produced batches in memory so
// that consumers can fetch them back, and completes every group generation with the joining member alone as its
// leader. Enough for kafkajs, @platformatic/kafka and librdkafka to get from one request to the next; nothing
// here is Brook's broker logic.
import { randomUUID } from 'node:crypto';
import { ADVERTISED_VERSION_RANGES } from '../../../src/kafka/protocol/apis.js';
import { encodeResponse, type KafkaRequest } from '../../../src/kafka/protocol/codec.js';
import { KafkaErrorCode } from '../../../src/kafka/protocol/error-codes.js';
import { answerAdmin } from './capture-admin-answers.js';
import { type Answer, brokers, type CaptureState, CLUSTER_ID, frame, NODE_ID, ZERO_UUID } from './capture-state.js';

/** How long an empty fetch is held before it is answered (at most the client's max wait). */
const EMPTY_FETCH_HOLD_MS = 200;

function apiKeys() {
  return ADVERTISED_VERSION_RANGES.map(({ apiKey, minVersion, maxVersion }) => ({ apiKey, minVersion, maxVersion }));
}

function metadataTopics(state: CaptureState, names: readonly string[]) {
  return names.map((name) => {
    const topic = state.topics.get(name);
    const partitions = Array.from({ length: topic?.partitions ?? 0 }, (_, index) => ({
      errorCode: 0,
      partitionIndex: index,
      leaderId: NODE_ID,
      leaderEpoch: 0,
      replicaNodes: [NODE_ID],
      isrNodes: [NODE_ID],
      offlineReplicas: [],
    }));
    return {
      errorCode: topic === undefined ? KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION : 0,
      name,
      topicId: topic?.id ?? ZERO_UUID,
      isInternal: false,
      partitions,
      topicAuthorizedOperations: -2147483648,
    };
  });
}

function fetchPartitions(state: CaptureState, named: string, partitions: { partition: number; fetchOffset: number }[]) {
  const topic = state.topicNamedInFetch(named);
  return partitions.map(({ partition, fetchOffset }) => {
    const records = state.log(topic, partition).filter((batch) => batch.lastOffset >= fetchOffset);
    const end = state.endOffset(topic, partition);
    return {
      partitionIndex: partition,
      errorCode: 0,
      highWatermark: end,
      lastStableOffset: end,
      logStartOffset: 0,
      abortedTransactions: null,
      records: records.map((batch) => batch.bytes),
    };
  });
}

/** The answer to one request (the state is updated as the request says). */
export function answer(state: CaptureState, request: KafkaRequest): Answer {
  const { apiVersion: version, correlationId: id } = request;
  switch (request.apiName) {
    case 'ApiVersions':
      return frame(encodeResponse('ApiVersions', version, id, { errorCode: 0, apiKeys: apiKeys(), throttleTimeMs: 0 }));
    case 'Metadata': {
      const requested = request.body.topics;
      const names = requested === null ? [...state.topics.keys()] : requested.map((topic) => topic.name ?? '');
      if (request.body.allowAutoTopicCreation) for (const name of names) state.createTopic(name, 1);
      return frame(
        encodeResponse('Metadata', version, id, {
          throttleTimeMs: 0,
          brokers: brokers(state),
          clusterId: CLUSTER_ID,
          controllerId: NODE_ID,
          topics: metadataTopics(state, names),
          clusterAuthorizedOperations: -2147483648,
        }),
      );
    }
    case 'Produce': {
      const responses = request.body.topicData.map((topic) => ({
        name: topic.name,
        partitionResponses: topic.partitionData.map((partition) => ({
          index: partition.index,
          errorCode: 0,
          baseOffset: partition.records === null ? -1 : state.append(topic.name, partition.index, partition.records),
          recordErrors: [],
        })),
      }));
      if (request.body.acks === 0) return { kind: 'none' };
      return frame(encodeResponse('Produce', version, id, { responses, throttleTimeMs: 0 }));
    }
    case 'Fetch': {
      const build = () =>
        encodeResponse('Fetch', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          sessionId: 0,
          responses: request.body.topics.map((topic) => ({
            topic: topic.topic,
            partitions: fetchPartitions(state, topic.topic, topic.partitions),
          })),
        });
      const hasData = request.body.topics.some((topic) =>
        topic.partitions.some(
          (p) => state.endOffset(state.topicNamedInFetch(topic.topic), p.partition) > p.fetchOffset,
        ),
      );
      if (hasData) return frame(build());
      return { kind: 'wait', waitMs: Math.min(request.body.maxWaitMs, EMPTY_FETCH_HOLD_MS), then: build };
    }
    case 'ListOffsets':
      return frame(
        encodeResponse('ListOffsets', version, id, {
          throttleTimeMs: 0,
          topics: request.body.topics.map((topic) => ({
            name: topic.name,
            partitions: topic.partitions.map((partition) => ({
              partitionIndex: partition.partitionIndex,
              errorCode: 0,
              timestamp: -1,
              offset: partition.timestamp === -1 ? state.endOffset(topic.name, partition.partitionIndex) : 0,
            })),
          })),
        }),
      );
    case 'OffsetForLeaderEpoch':
      return frame(
        encodeResponse('OffsetForLeaderEpoch', version, id, {
          throttleTimeMs: 0,
          topics: request.body.topics.map((topic) => ({
            topic: topic.topic,
            partitions: topic.partitions.map((partition) => ({
              errorCode: 0,
              partition: partition.partition,
              leaderEpoch: 0,
              endOffset: state.endOffset(topic.topic, partition.partition),
            })),
          })),
        }),
      );
    case 'FindCoordinator': {
      const node = { nodeId: NODE_ID, host: state.host, port: state.port, errorCode: 0, errorMessage: null };
      const batched = version >= 4;
      return frame(
        encodeResponse('FindCoordinator', version, id, {
          throttleTimeMs: 0,
          ...(batched ? { errorCode: 0, nodeId: 0, host: '', port: 0, errorMessage: null } : node),
          coordinators: batched ? request.body.coordinatorKeys.map((key) => ({ key, ...node })) : [],
        }),
      );
    }
    case 'JoinGroup': {
      const group = state.group(request.body.groupId);
      group.generation += 1;
      group.memberId =
        request.body.memberId === '' ? `${request.clientId ?? 'member'}-${randomUUID()}` : request.body.memberId;
      const chosen = request.body.protocols[0];
      group.protocol = chosen?.name ?? null;
      return frame(
        encodeResponse('JoinGroup', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          generationId: group.generation,
          protocolType: request.body.protocolType,
          protocolName: group.protocol,
          leader: group.memberId,
          memberId: group.memberId,
          members: [
            {
              memberId: group.memberId,
              groupInstanceId: request.body.groupInstanceId,
              metadata: chosen?.metadata ?? Buffer.alloc(0),
            },
          ],
        }),
      );
    }
    case 'SyncGroup': {
      const group = state.group(request.body.groupId);
      const mine = request.body.assignments.find((assignment) => assignment.memberId === request.body.memberId);
      if (mine !== undefined) group.assignment = Buffer.from(mine.assignment);
      return frame(
        encodeResponse('SyncGroup', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          protocolType: request.body.protocolType,
          protocolName: group.protocol,
          assignment: group.assignment,
        }),
      );
    }
    case 'Heartbeat':
      return frame(encodeResponse('Heartbeat', version, id, { throttleTimeMs: 0, errorCode: 0 }));
    case 'LeaveGroup':
      return frame(
        encodeResponse('LeaveGroup', version, id, {
          throttleTimeMs: 0,
          errorCode: 0,
          members: request.body.members.map((member) => ({ ...member, errorCode: 0 })),
        }),
      );
    case 'OffsetCommit': {
      const group = state.group(request.body.groupId);
      for (const topic of request.body.topics) {
        for (const partition of topic.partitions)
          group.committed.set(`${topic.name}:${partition.partitionIndex}`, partition.committedOffset);
      }
      return frame(
        encodeResponse('OffsetCommit', version, id, {
          throttleTimeMs: 0,
          topics: request.body.topics.map((topic) => ({
            name: topic.name,
            partitions: topic.partitions.map((partition) => ({
              partitionIndex: partition.partitionIndex,
              errorCode: 0,
            })),
          })),
        }),
      );
    }
    case 'OffsetFetch': {
      const committed = (groupId: string, topics: { name: string; partitionIndexes: number[] }[] | null) =>
        (topics ?? []).map((topic) => ({
          name: topic.name,
          partitions: topic.partitionIndexes.map((partitionIndex) => ({
            partitionIndex,
            committedOffset: state.group(groupId).committed.get(`${topic.name}:${partitionIndex}`) ?? -1,
            committedLeaderEpoch: -1,
            metadata: '',
            errorCode: 0,
          })),
        }));
      return frame(
        encodeResponse('OffsetFetch', version, id, {
          throttleTimeMs: 0,
          topics: committed(request.body.groupId, request.body.topics),
          errorCode: 0,
          groups: request.body.groups.map((group) => ({
            groupId: group.groupId,
            topics: committed(group.groupId, group.topics),
            errorCode: 0,
          })),
        }),
      );
    }
    default:
      return answerAdmin(state, request);
  }
}

/** The v0-shaped ApiVersions answer to a version the broker does not have (KIP-511). */
export function unsupportedApiVersions(correlationId: number): Buffer[] {
  return encodeResponse('ApiVersions', 0, correlationId, {
    errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
    apiKeys: apiKeys(),
    throttleTimeMs: 0,
  });
}
