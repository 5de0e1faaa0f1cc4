// OffsetForLeaderEpoch (23), v2-4: where a leader epoch ends on this partition's leader, from the log's epoch
// history (Kafka's LeaderEpochFileCache.endOffsetFor): the largest epoch at or below the one asked and the offset
// at which the next epoch starts (the log end for the current epoch); -1 and -1 for an epoch before any. A
// consumer uses it to detect a log truncated under it after a leader change (KIP-320). Fenced on the client's
// current leader epoch; NOT_LEADER_OR_FOLLOWER on a broker that does not lead the partition. Authorization:
// DESCRIBE on the topic (a follower's CLUSTER_ACTION does not apply: Brook's brokers replicate over HTTP).
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';

export const offsetForLeaderEpochHandler = defineHandler({
  api: 'OffsetForLeaderEpoch',
  minVersion: 2,
  maxVersion: 4,
  ordering: 'pipelined',
  handle(request, context) {
    return {
      throttleTimeMs: 0,
      topics: request.body.topics.map((topic) => {
        const describable = authorized(context, 'OffsetForLeaderEpoch', 'DESCRIBE', topicResource(topic.topic));
        return {
          topic: topic.topic,
          partitions: topic.partitions.map((wanted) =>
            describable
              ? endOfEpoch(context, topic.topic, wanted)
              : failed(wanted.partition, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED),
          ),
        };
      }),
    };
  },
});

function failed(partition: number, errorCode: number) {
  return { errorCode, partition, leaderEpoch: -1, endOffset: -1 };
}

function endOfEpoch(
  context: KafkaRequestContext,
  topic: string,
  wanted: { partition: number; currentLeaderEpoch: number; leaderEpoch: number },
) {
  try {
    const { log, leaderEpoch } = context.services.replicas.leaderLog(topic, wanted.partition);
    if (wanted.currentLeaderEpoch >= 0 && wanted.currentLeaderEpoch !== leaderEpoch) {
      return failed(
        wanted.partition,
        wanted.currentLeaderEpoch < leaderEpoch
          ? KafkaErrorCode.FENCED_LEADER_EPOCH
          : KafkaErrorCode.UNKNOWN_LEADER_EPOCH,
      );
    }
    const end = log.endOffsetForEpoch(wanted.leaderEpoch);
    return {
      errorCode: KafkaErrorCode.NONE,
      partition: wanted.partition,
      leaderEpoch: end.epoch,
      endOffset: end.endOffset,
    };
  } catch (error) {
    return failed(wanted.partition, kafkaFailure(error).errorCode);
  }
}
