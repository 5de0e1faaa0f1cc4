// Brook's errors as Kafka error codes: what the application layer throws (BrookError, with Confluent's five-digit
// codes and, where one code covers several Kafka errors, a condition) becomes the code and message of a Kafka
// answer. Anything else is a bug below the edge: UNKNOWN_SERVER_ERROR, with the error's message.
import {
  BrookError,
  FENCED_LEADER_EPOCH_CODE,
  INVALID_PRODUCER_EPOCH_CODE,
  OUT_OF_ORDER_SEQUENCE_CODE,
  UNKNOWN_PRODUCER_ID_CODE,
  type ErrorCondition,
} from '../common/brook-error.js';
import { KafkaErrorCode } from './protocol/error-codes.js';

export interface KafkaFailure {
  readonly errorCode: KafkaErrorCode;
  readonly errorMessage: string;
}

const BY_CONDITION: Record<ErrorCondition, KafkaErrorCode> = {
  'topic-exists': KafkaErrorCode.TOPIC_ALREADY_EXISTS,
  'invalid-topic': KafkaErrorCode.INVALID_TOPIC_EXCEPTION,
  'invalid-config': KafkaErrorCode.INVALID_CONFIG,
  'invalid-replication-factor': KafkaErrorCode.INVALID_REPLICATION_FACTOR,
  'invalid-partitions': KafkaErrorCode.INVALID_PARTITIONS,
  'not-enough-replicas': KafkaErrorCode.NOT_ENOUGH_REPLICAS,
  'not-enough-replicas-after-append': KafkaErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  'unknown-leader-epoch': KafkaErrorCode.UNKNOWN_LEADER_EPOCH,
};

const BY_ERROR_CODE: ReadonlyMap<number, KafkaErrorCode> = new Map<number, KafkaErrorCode>([
  [40401, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
  [40402, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
  [40403, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
  // not the leader here, or no leader yet: the client refreshes its metadata and retries
  [40404, KafkaErrorCode.NOT_LEADER_OR_FOLLOWER],
  [413, KafkaErrorCode.MESSAGE_TOO_LARGE],
  // a batch that fails its CRC or its structure, or a keyless record for a compacted topic (Kafka's CORRUPT_MESSAGE)
  [42206, KafkaErrorCode.CORRUPT_MESSAGE],
  [FENCED_LEADER_EPOCH_CODE, KafkaErrorCode.FENCED_LEADER_EPOCH],
  [40901, KafkaErrorCode.REASSIGNMENT_IN_PROGRESS],
  // an idempotent client batch the partition's producer state refuses (nothing appended)
  [OUT_OF_ORDER_SEQUENCE_CODE, KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER],
  [INVALID_PRODUCER_EPOCH_CODE, KafkaErrorCode.INVALID_PRODUCER_EPOCH],
  [UNKNOWN_PRODUCER_ID_CODE, KafkaErrorCode.UNKNOWN_PRODUCER_ID],
  // an acks=all wait that timed out or lost its leadership: appended, outcome unknown, retriable
  [50003, KafkaErrorCode.REQUEST_TIMED_OUT],
  // no controller right now, or the coordination store is unreachable: admin requests are retried
  [50302, KafkaErrorCode.NOT_CONTROLLER],
  [42901, KafkaErrorCode.THROTTLING_QUOTA_EXCEEDED],
  [40301, KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED],
  [50002, KafkaErrorCode.UNKNOWN_SERVER_ERROR],
]);

export function kafkaFailure(error: unknown): KafkaFailure {
  if (!(error instanceof BrookError)) {
    return { errorCode: KafkaErrorCode.UNKNOWN_SERVER_ERROR, errorMessage: (error as Error)?.message ?? String(error) };
  }
  const code =
    (error.condition === undefined ? undefined : BY_CONDITION[error.condition]) ??
    BY_ERROR_CODE.get(error.errorCode) ??
    (error.status >= 500 ? KafkaErrorCode.UNKNOWN_SERVER_ERROR : KafkaErrorCode.INVALID_REQUEST);
  return { errorCode: code, errorMessage: error.message };
}

export function kafkaErrorCode(error: unknown): KafkaErrorCode {
  return kafkaFailure(error).errorCode;
}
