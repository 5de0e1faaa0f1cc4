// The capture broker's answers: one node (id 1) that leads every partition, keeps produced batches in memory so
// that consumers can fetch them back, and completes every group generation with the joining member alone as its
// leader. Enough for kafkajs, @platformatic/kafka and librdkafka to get from one request to the next; nothing
// here is Brook's broker logic.
import { randomUUID } from 'node:crypto';
import { ADVERTISED_VERSION_RANGES } from '../../../src/kafka/protocol/apis.js';
import { encodeResponse, type KafkaRequest } from '../../../src/kafka/protocol/codec.js';
import { KafkaErrorCode } from '../../../src/kafka/protocol/error-codes.js';
import { readBatchHeader } from '../../../src/partition-log/record-batch.js';

const NODE_ID = 1;
const CLUSTER_ID = 'capture-cluster';
const PRODUCER_ID = 4000;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
/** How long an empty fetch is held before it is answered (at most the client's max wait). */
const EMPTY_FETCH_HOLD_MS = 200;

export type Answer =
  | { readonly kind: 'frame'; readonly chunks: Buffer[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'wait'; readonly waitMs: number; readonly then: () => Buffer[] };

interface StoredBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly bytes: Buffer;
}

interface Topic {
  readonly id: string;
  partitions: number;
}

interface Group {
  generation: number;
  memberId: string;
  protocol: string | null;
  assignment: Buffer;
  readonly committed: Map<string, number>;
}

export class CaptureState {
  readonly topics = new Map<string, Topic>();
  readonly logs = new Map<string, StoredBatch[]>();
  readonly groups = new Map<string, Group>();

  constructor(
    readonly host: string,
    readonly port: number,
    topics: Record<string, number>,
  ) {
    for (const [name, partitions] of Object.entries(topics)) this.createTopic(name, partitions);
  }

  createTopic(name: string, partitions: number): boolean {
    if (this.topics.has(name)) return false;
    this.topics.set(name, { id: randomUUID(), partitions: Math.max(1, partitions) });
    return true;
  }

  /**
   * The topic a Fetch names. @platformatic/kafka 1.35.0 sends Fetch v12 with the topic's id, as text, where the
   * topic's name belongs (and expects the same text back), so a name that is a known topic id means that topic.
   */
  topicNamedInFetch(nameOrId: string): string {
    for (const [name, topic] of this.topics) if (topic.id === nameOrId) return name;
    return nameOrId;
  }

  log(topic: string, partition: number): StoredBatch[] {
    const key = `${topic}:${partition}`;
    let log = this.logs.get(key);
    if (log === undefined) this.logs.set(key, (log = []));
    return log;
  }

  endOffset(topic: string, partition: number): number {
    const log = this.log(topic, partition);
    return log.length === 0 ? 0 : log[log.length - 1].lastOffset + 1;
  }

  append(topic: string, partition: number, batches: Buffer): number {
    const base = this.endOffset(topic, partition);
    let position = 0;
    let next = base;
    while (position < batches.length) {
      const header = readBatchHeader(batches.subarray(position));
      const bytes = Buffer.from(batches.subarray(position, position + header.sizeBytes));
      bytes.writeBigInt64BE(BigInt(next), 0);
      this.log(topic, partition).push({ baseOffset: next, lastOffset: next + header.lastOffsetDelta, bytes });
      next += header.lastOffsetDelta + 1;
      position += header.sizeBytes;
    }
    return base;
  }

  group(groupId: string): Group {
    let group = this.groups.get(groupId);
    if (group === undefined) {
      group = { generation: 0, memberId: '', protocol: null, assignment: Buffer.alloc(0), committed: new Map() };
      this.groups.set(groupId, group);
    }
    return group;
  }

  unsupportedApiVersions(correlationId: number): Buffer[] {
    return encodeResponse('ApiVersions', 0, correlationId, {
      errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
      apiKeys: apiKeys(),
      throttleTimeMs: 0,
    });
  }
}

function apiKeys() {
  return ADVERTISED_VERSION_RANGES.map(({ apiKey, minVersion, maxVersion }) => ({ apiKey, minVersion, maxVersion }));
}

const frame = (chunks: Buffer[]): Answer => ({ kind: 'frame', chunks });

function brokers(state: CaptureState) {
  return [{ nodeId: NODE_ID, host: state.host, port: state.port, rack: null }];
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

function answerAdmin(state: CaptureState, request: KafkaRequest): Answer {
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
