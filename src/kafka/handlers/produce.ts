// Produce (0), v3-9 (advertised from v0, see apis.ts; the codec refuses v0-2 and the connection closes, as Kafka 4
// does): each partition's records are one record batch of the client's, appended as it is through the
// application's produce path (ProduceService.appendClientBatch): CRC and records checked by the log, offsets and
// the leader epoch assigned there, `acks` 0, 1 or -1 with min.insync.replicas, compression kept as the client
// chose it (gzip, snappy, lz4, zstd), message.timestamp.type and max.message.bytes applied. A partition this
// broker does not lead is NOT_LEADER_OR_FOLLOWER: the client refreshes its metadata, nothing is forwarded.
// Authorization: WRITE on each topic. Quotas: the request's bytes on producer_byte_rate. The client's timeout is
// not used: an acks=-1 wait is bounded by BROOK_ACKS_ALL_TIMEOUT_MS (REQUEST_TIMED_OUT past it, outcome unknown).
// With acks=0 there is no answer, and a partition that fails closes the connection, as in Kafka.
// Pipelined: every append is queued before the handler returns, so a connection's Produce requests take their
// offsets in the order they were sent (librdkafka pipelines up to five). The answer is built once every append
// settled, after one promise reaction per partition (no chain of async functions per request: K1's Produce path).
import type { Acks } from '../../replication/replica-manager.service.js';
import { readBatchHeader, BATCH_HEADER_BYTES } from '../../partition-log/record-batch.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { kafkaFailure, type KafkaFailure } from '../kafka-errors.js';
import {
  CloseConnection,
  defineHandler,
  NO_RESPONSE,
  type HandlerAnswer,
  type KafkaRequestContext,
} from '../kafka-handler.js';

type PartitionAnswer = ResponseInput<'Produce'>['responses'][number]['partitionResponses'][number];

const ACKS: ReadonlyMap<number, Acks> = new Map<number, Acks>([
  [0, '0'],
  [1, '1'],
  [-1, 'all'],
]);

function failure(errorCode: KafkaErrorCode, errorMessage: string): KafkaFailure {
  return { errorCode, errorMessage };
}

export const produceHandler = defineHandler({
  api: 'Produce',
  minVersion: 3,
  maxVersion: 9,
  advertisedMinVersion: 0,
  ordering: 'pipelined',
  handle(request, context) {
    const { acks, topicData, transactionalId } = request.body;
    context.charge('producer_byte_rate', context.requestBytes);
    const mode = ACKS.get(acks);
    const refusal =
      mode === undefined
        ? failure(KafkaErrorCode.INVALID_REQUIRED_ACKS, `acks must be 0, 1 or -1, not ${acks}`)
        : transactionalId !== null
          ? failure(KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, 'Brook has no transactions')
          : null;
    // every append is queued here, synchronously, in request order; outcomes[] in topic then partition order
    const outcomes: Outcome[] = [];
    for (const topic of topicData) {
      const writable = refusal === null && authorized(context, 'Produce', 'WRITE', topicResource(topic.name));
      for (const { index, records } of topic.partitionData) {
        outcomes.push(
          refusal ??
            (writable
              ? append(context, topic.name, index, records, mode!)
              : failure(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, `not authorized to WRITE topic ${topic.name}`)),
        );
      }
    }
    const answer = (settled: readonly Settled[]): HandlerAnswer<'Produce'> => {
      let at = 0;
      const responses = topicData.map((topic) => ({
        name: topic.name,
        partitionResponses: topic.partitionData.map(({ index }) =>
          partitionAnswer(context, topic.name, index, settled[at++]),
        ),
      }));
      if (acks !== 0) return { responses, throttleTimeMs: 0 };
      const failed = responses.flatMap((topic) => topic.partitionResponses).find((one) => one.errorCode !== 0);
      return failed === undefined ? NO_RESPONSE : new CloseConnection(`acks=0 Produce failed: ${failed.errorMessage}`);
    };
    return whenSettled(outcomes, answer);
  },
});

type Appended = { firstOffset: number; logAppendTimeMs: number } | null;
type Outcome = Promise<Appended> | KafkaFailure;
type Settled = Appended | KafkaFailure;

/**
 * `then` of the outcomes once every append settled, a failed one as its failure: at once when none is pending (a
 * request refused whole), in the append's own promise reaction when one is (the usual Produce: one partition).
 */
function whenSettled<T>(outcomes: readonly Outcome[], then: (settled: Settled[]) => T): T | Promise<T> {
  const settled: Settled[] = [];
  const pending: number[] = [];
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i];
    settled.push(outcome instanceof Promise ? null : outcome);
    if (outcome instanceof Promise) pending.push(i);
  }
  if (pending.length === 0) return then(settled);
  const settle = (i: number) =>
    (outcomes[i] as Promise<Appended>).then(
      (result) => void (settled[i] = result),
      (error: unknown) => void (settled[i] = kafkaFailure(error)),
    );
  if (pending.length === 1) {
    const i = pending[0];
    return (outcomes[i] as Promise<Appended>).then(
      (result) => ((settled[i] = result), then(settled)),
      (error: unknown) => ((settled[i] = kafkaFailure(error)), then(settled)),
    );
  }
  return Promise.all(pending.map(settle)).then(() => then(settled));
}

/** Starts the append of one partition's records; a refusal known before appending is answered as it is. */
function append(
  context: KafkaRequestContext,
  topic: string,
  partition: number,
  records: Buffer | null,
  acks: Acks,
): Outcome {
  if (records === null || records.length < BATCH_HEADER_BYTES) {
    return failure(KafkaErrorCode.CORRUPT_MESSAGE, 'the partition carries no record batch');
  }
  let size: number;
  try {
    size = readBatchHeader(records).sizeBytes;
  } catch (error) {
    return failure(KafkaErrorCode.CORRUPT_MESSAGE, (error as Error).message);
  }
  if (size !== records.length) {
    // Kafka's rule since Produce v3: exactly one record batch per partition
    return failure(KafkaErrorCode.INVALID_RECORD, 'a partition must carry exactly one record batch');
  }
  return context.services.produce.appendClientBatch(topic, partition, records, acks);
}

function partitionAnswer(context: KafkaRequestContext, topic: string, index: number, result: Settled): PartitionAnswer {
  if (result !== null && 'errorCode' in result) {
    return { index, errorCode: result.errorCode, baseOffset: -1, recordErrors: [], errorMessage: result.errorMessage };
  }
  return {
    index,
    errorCode: KafkaErrorCode.NONE,
    baseOffset: result?.firstOffset ?? -1,
    logAppendTimeMs: result?.logAppendTimeMs ?? -1,
    logStartOffset: logStartOffset(context, topic, index),
    recordErrors: [],
  };
}

function logStartOffset(context: KafkaRequestContext, topic: string, partition: number): number {
  try {
    return context.services.replicas.leaderLog(topic, partition).log.logStartOffset;
  } catch {
    return -1; // leadership moved since the append: the client learns it at its next request
  }
}
