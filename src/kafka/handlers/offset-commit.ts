// OffsetCommit (8), v2-9: a Kafka client stores its group's next-to-read offsets in __consumer_offsets, the same
// committed offsets REST v2 instances and WebSocket/SSE members read and write. A classic group's member commits in
// its current generation (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS while the leader assigns,
// FENCED_INSTANCE_ID v7+ otherwise); a consumer that assigns partitions itself commits with generation -1 while the
// group has no members. Per partition: UNKNOWN_TOPIC_OR_PARTITION, OFFSET_METADATA_TOO_LARGE over Kafka's
// offset.metadata.max.bytes, INVALID_COMMIT_OFFSET_SIZE for a negative offset (Brook stores none, as its REST API
// does). v6+ carry each partition's leader epoch, stored with the offset. Authorization: READ on the group and on
// each topic. Exclusive: the commit is answered once written, before the connection's next request starts.
import type { OffsetToCommit } from '../../group-coordinator/group-coordinator.service.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource, topicResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

/** Kafka's offset.metadata.max.bytes: the longest metadata string stored with an offset. */
export const OFFSET_METADATA_BYTES_MAX = 4096;

type TopicAnswer = ResponseInput<'OffsetCommit'>['topics'][number];

export const offsetCommitHandler = defineHandler({
  api: 'OffsetCommit',
  minVersion: 2,
  maxVersion: 9,
  ordering: 'exclusive',
  async handle(request, context) {
    const body = request.body;
    const all = (errorCode: number): TopicAnswer[] =>
      body.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })),
      }));
    if (!authorized(context, 'OffsetCommit', 'READ', groupResource(body.groupId))) {
      return { throttleTimeMs: 0, topics: all(KafkaErrorCode.GROUP_AUTHORIZATION_FAILED) };
    }
    const { metadata } = context.services;
    const errors = new Map<string, number>();
    const offsets: OffsetToCommit[] = [];
    for (const topic of body.topics) {
      const readable = authorized(context, 'OffsetCommit', 'READ', topicResource(topic.name));
      const partitionCount = metadata.topic(topic.name)?.assignment.replicas.length ?? 0;
      for (const partition of topic.partitions) {
        const key = `${topic.name}\u0000${partition.partitionIndex}`;
        const metadataText = partition.committedMetadata ?? '';
        if (!readable) errors.set(key, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
        else if (partition.partitionIndex < 0 || partition.partitionIndex >= partitionCount) {
          errors.set(key, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        } else if (Buffer.byteLength(metadataText, 'utf8') > OFFSET_METADATA_BYTES_MAX) {
          errors.set(key, KafkaErrorCode.OFFSET_METADATA_TOO_LARGE);
        } else if (partition.committedOffset < 0) errors.set(key, KafkaErrorCode.INVALID_COMMIT_OFFSET_SIZE);
        else {
          offsets.push({
            topic: topic.name,
            partition: partition.partitionIndex,
            offset: partition.committedOffset,
            metadata: metadataText,
            leaderEpoch: partition.committedLeaderEpoch,
          });
        }
      }
    }
    const refused = await context.services.groups.commit(
      body.groupId,
      { memberId: body.memberId, groupInstanceId: body.groupInstanceId },
      body.generationIdOrMemberEpoch,
      offsets,
    );
    const committedCode = groupErrorCode(refused);
    return {
      throttleTimeMs: 0,
      topics: body.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          errorCode: errors.get(`${topic.name}\u0000${partitionIndex}`) ?? committedCode,
        })),
      })),
    };
  },
});
