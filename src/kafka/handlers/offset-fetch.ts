// OffsetFetch (9), v1-9: a group's committed offsets (-1 where it has none), the same ones REST's consumer groups
// show. A null topic list (v2+) asks for every partition the group has committed; v8+ ask for several groups at
// once, each answered on its own; v5+ answer each offset's leader epoch. Nothing is ever pending a transaction, so
// require_stable (v7+) changes nothing. v9's member id and epoch are for KIP-848 groups, which Brook does not have.
// Authorization: DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED) and READ on each topic, as Brook's REST reads
// of committed offsets ask (TOPIC_AUTHORIZATION_FAILED; topics the principal may not read are left out of "every
// partition"). Before v2 a group-level error is put on each partition, having nowhere else to go.
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource, topicResource } from '../kafka-authorization.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

type GroupAnswer = ResponseInput<'OffsetFetch'>['groups'][number] & { errorCode: number };
type TopicAnswer = GroupAnswer['topics'][number];
type Wanted = ReadonlyArray<{ name: string; partitionIndexes: readonly number[] }> | null;

export const offsetFetchHandler = defineHandler({
  api: 'OffsetFetch',
  minVersion: 1,
  maxVersion: 9,
  ordering: 'pipelined',
  handle(request, context) {
    const body = request.body;
    if (request.apiVersion >= 8) {
      return {
        throttleTimeMs: 0,
        topics: [],
        groups: body.groups.map((group) => fetchGroup(context, group.groupId, group.topics)),
      };
    }
    const { topics, errorCode } = fetchGroup(context, body.groupId, body.topics);
    if (request.apiVersion >= 2) return { throttleTimeMs: 0, errorCode, topics, groups: [] };
    const spread = (topic: TopicAnswer): TopicAnswer => ({
      ...topic,
      partitions: topic.partitions.map((partition) => ({ ...partition, errorCode: partition.errorCode || errorCode })),
    });
    const named = (body.topics ?? []).map((topic) => ({
      name: topic.name,
      partitions: topic.partitionIndexes.map((partitionIndex) => ({
        partitionIndex,
        committedOffset: -1,
        committedLeaderEpoch: -1,
        metadata: '',
        errorCode,
      })),
    }));
    return { throttleTimeMs: 0, errorCode: 0, topics: errorCode === 0 ? topics.map(spread) : named, groups: [] };
  },
});

function fetchGroup(context: KafkaRequestContext, groupId: string, wanted: Wanted): GroupAnswer {
  if (!authorized(context, 'OffsetFetch', 'DESCRIBE', groupResource(groupId))) {
    return { groupId, topics: [], errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED };
  }
  const readable = new Map<string, boolean>();
  const mayRead = (topic: string, quiet: boolean): boolean => {
    let allowed = readable.get(topic);
    if (allowed === undefined) {
      allowed = authorized(context, 'OffsetFetch', 'READ', topicResource(topic), { quiet });
      readable.set(topic, allowed);
    }
    return allowed;
  };
  const named =
    wanted === null
      ? null
      : wanted.flatMap((topic) =>
          mayRead(topic.name, false)
            ? topic.partitionIndexes.map((partition) => ({ topic: topic.name, partition }))
            : [],
        );
  const { error, offsets } = context.services.groups.fetchOffsets(groupId, named);
  if (error !== null) return { groupId, topics: [], errorCode: groupErrorCode(error) };
  const byTopic = new Map<string, TopicAnswer>();
  const answer = (topic: string): TopicAnswer => {
    let entry = byTopic.get(topic);
    if (entry === undefined) {
      entry = { name: topic, partitions: [] };
      byTopic.set(topic, entry);
    }
    return entry;
  };
  if (wanted !== null) {
    for (const topic of wanted) answer(topic.name); // every topic asked for is answered, in the order asked
  }
  const found = new Map(offsets.map((offset) => [`${offset.topic}\u0000${offset.partition}`, offset]));
  const partitionsOf = (topic: string, partitions: readonly number[]) =>
    partitions.map((partitionIndex) => {
      if (!mayRead(topic, true)) {
        return {
          partitionIndex,
          committedOffset: -1,
          committedLeaderEpoch: -1,
          metadata: '',
          errorCode: KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED,
        };
      }
      const stored = found.get(`${topic}\u0000${partitionIndex}`);
      return {
        partitionIndex,
        committedOffset: stored?.offset ?? -1,
        committedLeaderEpoch: stored?.leaderEpoch ?? -1,
        metadata: stored?.metadata ?? '',
        errorCode: KafkaErrorCode.NONE,
      };
    });
  if (wanted !== null) {
    for (const topic of wanted) answer(topic.name).partitions.push(...partitionsOf(topic.name, topic.partitionIndexes));
  } else {
    for (const offset of offsets) {
      if (!mayRead(offset.topic, true)) continue;
      answer(offset.topic).partitions.push(...partitionsOf(offset.topic, [offset.partition]));
    }
  }
  return { groupId, topics: [...byTopic.values()], errorCode: KafkaErrorCode.NONE };
}
