// ListOffsets (2), v1-7: per partition, on its leader (NOT_LEADER_OR_FOLLOWER elsewhere), the offset for a
// timestamp: -2 the log start, -1 the high watermark (also the last stable offset: Brook has no transactions),
// -3 (v7, KIP-734) the first record with the largest timestamp, if it is below the high watermark, and otherwise
// the first record whose timestamp is at or after it, with that record's timestamp, or offset -1 when there is
// none (Kafka's answers). v4+ answers the leader epoch of the offset and fences on the client's current leader
// epoch (KIP-320). Authorization: DESCRIBE on the topic.
import type { PartitionLog } from '../../partition-log/partition-log.js';
import { decodeRecords } from '../../partition-log/record-batch.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';

type PartitionAnswer = ResponseInput<'ListOffsets'>['topics'][number]['partitions'][number];

const LATEST = -1;
const EARLIEST = -2;
const MAX_TIMESTAMP = -3;

export const listOffsetsHandler = defineHandler({
  api: 'ListOffsets',
  minVersion: 1,
  maxVersion: 7,
  ordering: 'pipelined',
  async handle(request, context) {
    const topics = [];
    for (const topic of request.body.topics) {
      const describable = authorized(context, 'ListOffsets', 'DESCRIBE', topicResource(topic.name));
      const partitions: PartitionAnswer[] = [];
      for (const wanted of topic.partitions) {
        partitions.push(
          describable
            ? await offsetOf(context, topic.name, wanted.partitionIndex, wanted.currentLeaderEpoch, wanted.timestamp)
            : failed(wanted.partitionIndex, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED),
        );
      }
      topics.push({ name: topic.name, partitions: request.apiVersion >= 4 ? partitions : withoutEpochs(partitions) });
    }
    return { throttleTimeMs: 0, topics };
  },
});

/** Before v4 the answer has no leader epoch (the field keeps its default). */
function withoutEpochs(partitions: PartitionAnswer[]): PartitionAnswer[] {
  return partitions.map((partition) => ({ ...partition, leaderEpoch: -1 }));
}

function failed(partitionIndex: number, errorCode: number): PartitionAnswer {
  return { partitionIndex, errorCode, timestamp: -1, offset: -1, leaderEpoch: -1 };
}

async function offsetOf(
  context: KafkaRequestContext,
  topic: string,
  partitionIndex: number,
  currentLeaderEpoch: number,
  timestamp: number,
): Promise<PartitionAnswer> {
  const { replicas } = context.services;
  try {
    const { log, leaderEpoch } = replicas.leaderLog(topic, partitionIndex);
    if (currentLeaderEpoch >= 0 && currentLeaderEpoch !== leaderEpoch) {
      return failed(
        partitionIndex,
        currentLeaderEpoch < leaderEpoch ? KafkaErrorCode.FENCED_LEADER_EPOCH : KafkaErrorCode.UNKNOWN_LEADER_EPOCH,
      );
    }
    const highWatermark = replicas.highWatermarkOf(topic, partitionIndex) ?? log.logStartOffset;
    const answer = (offset: number, recordTimestamp: number): PartitionAnswer => ({
      partitionIndex,
      errorCode: KafkaErrorCode.NONE,
      timestamp: recordTimestamp,
      offset,
      leaderEpoch: epochAt(log, offset),
    });
    if (timestamp === LATEST) return { ...answer(highWatermark, -1), leaderEpoch };
    if (timestamp === EARLIEST) return answer(log.logStartOffset, -1);
    if (timestamp < MAX_TIMESTAMP) {
      return failed(partitionIndex, KafkaErrorCode.INVALID_REQUEST);
    }
    const target = timestamp === MAX_TIMESTAMP ? log.maxTimestampMs : timestamp;
    const offset = target < 0 ? null : await log.offsetForTimestamp(target);
    if (offset === null || offset >= highWatermark) return { ...failed(partitionIndex, KafkaErrorCode.NONE) };
    return answer(offset, await recordTimestamp(log, offset, highWatermark));
  } catch (error) {
    return failed(partitionIndex, kafkaFailure(error).errorCode);
  }
}

/** The timestamp of the record at `offset` (its batch read and decoded). */
async function recordTimestamp(log: PartitionLog, offset: number, highWatermark: number): Promise<number> {
  const { batches } = await log.read(offset, { maxBytes: 1, minOneBatch: true, maxOffsetExclusive: highWatermark });
  const record = decodeRecords(batches).find((candidate) => candidate.offset >= offset);
  return record?.timestamp ?? -1;
}

/** The leader epoch that wrote `offset`, from the log's epoch history; -1 before the first entry. */
function epochAt(log: PartitionLog, offset: number): number {
  let epoch = -1;
  for (const entry of log.epochs.all()) {
    if (entry.startOffset > offset) break;
    epoch = entry.epoch;
  }
  return epoch;
}
