// Fetch (1), v4-12: the stored record batches of each partition, sent as they are (zero re-encoding: the buffers
// the log read returns are spliced into the answer), from the read path the REST raw read uses
// (ReplicaManager.read: never past the high watermark). The high watermark, the last stable offset (the HW:
// Brook has no transactions) and the log start offset are in every partition's answer; a partition with nothing
// to send has empty records, never null (librdkafka 2.0 refuses null).
//
// - Long poll: when the answer holds fewer than min_bytes, the request waits on the partitions' waiters (the
//   ones REST's wait_ms uses) until data arrives or max_wait_ms (at most BROOK_READ_WAIT_MS_MAX) has passed,
//   then reads again; a partition with an error or a diverging epoch answers at once, as Kafka does. A wait is
//   for records past what is stored now (what the last round could not take stays there), and a request with no
//   partition to wait on sleeps out its max_wait_ms: a round that cannot grow never spins on the event loop.
// - Only batches with records count toward min_bytes: a partition whose answer is nothing but empty batches (an
//   idempotency key's markers, application/produce/partition-appends.ts) waits like an empty one, and gets them
//   when the wait ends. Kafka's cleaner never empties a batch of the active segment, so a Kafka log never ends with
//   one; a Brook log may end with a marker, and kafkajs, which does not move its fetch offset past a fetch with no
//   record, would fetch it again at once, forever (hundreds of Fetch requests a second).
// - Bounds: each partition reads at most its partition_max_bytes, and the whole answer at most max_bytes; only
//   the first partition with data may exceed them by its first batch (KIP-74), so a client always progresses.
// - Errors per partition: TOPIC_AUTHORIZATION_FAILED (READ on the topic, asked of ReadAccess, the one check of
//   every path records leave by, at every read round: after a long poll's wait too), UNKNOWN_TOPIC_OR_PARTITION,
//   NOT_LEADER_OR_FOLLOWER (no forwarding), FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH against the client's current
//   leader epoch (v9+, KIP-320), OFFSET_OUT_OF_RANGE outside [log start, log end]; v12's last fetched epoch is
//   checked against the epoch history (a diverging epoch answered instead of records).
// - Fetch sessions (KIP-227) are answered as "no session": session id 0, every request a full fetch; a request
//   naming a session is FETCH_SESSION_ID_NOT_FOUND.
// - A client over consumer_byte_rate gets an empty answer with its throttle time (Kafka's throttled fetch); the
//   bytes sent are charged to it.
// - @platformatic/kafka 1.35.0 names v12 topics by their ids' text: such a name means that topic and is echoed.
import { sleep } from '../../common/clock.js';
import { divergingEpoch } from '../../replication/fetch-divergence.js';
import type { TopicMetadata } from '../../topic/cluster-metadata.js';
import { batchesSummary } from '../../partition-log/record-batch.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext, type RequestOf } from '../kafka-handler.js';

type FetchAnswer = ResponseInput<'Fetch'>;
type PartitionAnswer = FetchAnswer['responses'][number]['partitions'][number];
type PartitionRequest = RequestOf<'Fetch'>['body']['topics'][number]['partitions'][number];

const EMPTY = Buffer.alloc(0);
/** Kafka's FINAL_EPOCH: a full fetch outside any session. */
const SESSIONLESS_EPOCH = -1;

interface ResolvedTopic {
  /** The name as the client sent it, echoed in the answer. */
  readonly asSent: string;
  readonly metadata: TopicMetadata | undefined;
}

export const fetchHandler = defineHandler({
  api: 'Fetch',
  minVersion: 4,
  maxVersion: 12,
  ordering: 'pipelined',
  async handle(request, context) {
    const body = request.body;
    if (body.sessionId !== 0) return sessionError(KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND);
    if (body.sessionEpoch !== 0 && body.sessionEpoch !== SESSIONLESS_EPOCH) {
      return sessionError(KafkaErrorCode.INVALID_FETCH_SESSION_EPOCH);
    }
    const throttled = context.charge('consumer_byte_rate', 0);
    if (throttled > 0) return { throttleTimeMs: throttled, errorCode: 0, sessionId: 0, responses: [] };
    const topics = body.topics.map((topic) => resolveTopic(context, topic.topic));
    const waitMs = Math.min(Math.max(0, body.maxWaitMs), context.services.config.readWaitMsMax);
    const deadline = context.services.clock.monotonicMs() + waitMs;
    for (;;) {
      const round = await readAll(context, body, topics);
      const remainingMs = deadline - context.services.clock.monotonicMs();
      if (round.recordBytes >= body.minBytes || round.failed || remainingMs <= 0 || context.signal.aborted) {
        context.charge('consumer_byte_rate', round.bytes);
        return { throttleTimeMs: 0, errorCode: 0, sessionId: 0, responses: round.responses };
      }
      const { replicas } = context.services;
      const positions = body.topics.flatMap((topic, t) => {
        const name = topics[t].metadata?.assignment.name;
        return name === undefined
          ? []
          : topic.partitions.map((p) => ({
              topic: name,
              partition: p.partition,
              // records below the high watermark are there already: only what comes past it can add bytes
              offset: Math.max(p.fetchOffset, replicas.highWatermarkOf(name, p.partition) ?? p.fetchOffset),
            }));
      });
      if (positions.length === 0) await sleep(context.services.clock, remainingMs, context.signal);
      else await replicas.waitForAny(positions, remainingMs, context.signal);
    }
  },
});

function sessionError(errorCode: KafkaErrorCode): FetchAnswer {
  return { throttleTimeMs: 0, errorCode, sessionId: 0, responses: [] };
}

function resolveTopic(context: KafkaRequestContext, asSent: string): ResolvedTopic {
  const { metadata } = context.services;
  let found = metadata.topic(asSent);
  if (found === undefined) {
    for (const topic of metadata.allTopics().values()) {
      if (topic.assignment.topicId === asSent) found = topic;
    }
  }
  return { asSent, metadata: found };
}

/** May the connection's principal READ the topic now (audited as the kafka.fetch path when not)? */
function readable(context: KafkaRequestContext, topic: ResolvedTopic): boolean {
  const { principal, host } = context.session;
  const name = topic.metadata?.assignment.name ?? topic.asSent;
  return context.services.readAccess.mayRead({ principal, host, path: 'kafka.fetch' }, name);
}

/** One read of every requested partition, within the answer's byte bounds. */
async function readAll(
  context: KafkaRequestContext,
  body: RequestOf<'Fetch'>['body'],
  topics: readonly ResolvedTopic[],
): Promise<{ responses: FetchAnswer['responses']; bytes: number; recordBytes: number; failed: boolean }> {
  let bytes = 0;
  /** The bytes of the partitions whose answer holds a record: what min_bytes is compared with (see the header). */
  let recordBytes = 0;
  let failed = false;
  const responses: FetchAnswer['responses'] = [];
  for (let t = 0; t < body.topics.length; t++) {
    const partitions: PartitionAnswer[] = [];
    const mayRead = readable(context, topics[t]);
    for (const wanted of body.topics[t].partitions) {
      const limit = Math.min(wanted.partitionMaxBytes, body.maxBytes - bytes);
      const { answer, recordCount } = mayRead
        ? await readPartition(context, topics[t], wanted, limit, bytes === 0)
        : failedPartition(wanted.partition, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
      bytes += answer.records.length;
      if (recordCount > 0) recordBytes += answer.records.length;
      if (answer.errorCode !== KafkaErrorCode.NONE || answer.divergingEpoch !== undefined) failed = true;
      partitions.push(answer);
    }
    responses.push({ topic: topics[t].asSent, partitions });
  }
  return { responses, bytes, recordBytes, failed };
}

/** A partition's answer and the records its batches hold (0 for nothing but empty batches: markers). */
interface PartitionRead {
  readonly answer: PartitionAnswer & { records: Buffer };
  readonly recordCount: number;
}

function nothingRead(answer: PartitionAnswer & { records: Buffer }): PartitionRead {
  return { answer, recordCount: 0 };
}

/** A partition refused before any read (no offsets known). */
function failedPartition(partitionIndex: number, errorCode: number): PartitionRead {
  return nothingRead({
    partitionIndex,
    errorCode,
    highWatermark: -1,
    lastStableOffset: -1,
    logStartOffset: -1,
    abortedTransactions: null,
    preferredReadReplica: -1,
    records: EMPTY,
  });
}

async function readPartition(
  context: KafkaRequestContext,
  topic: ResolvedTopic,
  wanted: PartitionRequest,
  limitBytes: number,
  firstWithData: boolean,
): Promise<PartitionRead> {
  const index = wanted.partition;
  if (topic.metadata === undefined) return failedPartition(index, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  const name = topic.metadata.assignment.name;
  const { replicas, metrics } = context.services;
  let leader;
  try {
    leader = replicas.leaderLog(name, index);
  } catch (error) {
    return failedPartition(index, kafkaFailure(error).errorCode);
  }
  const { log, leaderEpoch } = leader;
  if (wanted.currentLeaderEpoch >= 0 && wanted.currentLeaderEpoch !== leaderEpoch) {
    return failedPartition(
      index,
      wanted.currentLeaderEpoch < leaderEpoch
        ? KafkaErrorCode.FENCED_LEADER_EPOCH
        : KafkaErrorCode.UNKNOWN_LEADER_EPOCH,
    );
  }
  const offsets = (highWatermark: number) => ({
    partitionIndex: index,
    highWatermark,
    lastStableOffset: highWatermark,
    logStartOffset: log.logStartOffset,
    abortedTransactions: [],
    preferredReadReplica: -1,
  });
  const highWatermark = replicas.highWatermarkOf(name, index) ?? -1;
  if (wanted.fetchOffset < log.logStartOffset || wanted.fetchOffset > log.logEndOffset) {
    return nothingRead({ ...offsets(highWatermark), errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE, records: EMPTY });
  }
  const diverging = divergingEpoch(wanted.fetchOffset, wanted.lastFetchedEpoch, (epoch) =>
    log.endOffsetForEpoch(epoch),
  );
  if (diverging !== null) {
    return nothingRead({
      ...offsets(highWatermark),
      errorCode: KafkaErrorCode.NONE,
      divergingEpoch: diverging,
      records: EMPTY,
    });
  }
  if (limitBytes <= 0 || wanted.fetchOffset >= highWatermark) {
    return nothingRead({ ...offsets(highWatermark), errorCode: KafkaErrorCode.NONE, records: EMPTY });
  }
  try {
    const read = await replicas.read(name, index, wanted.fetchOffset, {
      maxBytes: limitBytes,
      waitMs: 0,
      minOneBatch: firstWithData,
    });
    const { recordCount } = batchesSummary(read.batches, wanted.fetchOffset);
    metrics.consumed(name, recordCount, read.batches.length);
    return {
      answer: { ...offsets(read.highWatermark), errorCode: KafkaErrorCode.NONE, records: read.batches },
      recordCount,
    };
  } catch (error) {
    // the log start moved past the offset (retention) between the check and the read
    if (wanted.fetchOffset < log.logStartOffset) {
      return nothingRead({ ...offsets(highWatermark), errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE, records: EMPTY });
    }
    return failedPartition(index, kafkaFailure(error).errorCode);
  }
}
