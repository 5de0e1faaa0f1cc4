// One partition this broker leads, as the replica manager holds it (Kafka's Partition while it is leader): its log,
// its leader epoch, the partition-state version it knows and the ISR/HW state machine (leader-replica-state.ts);
// plus the key partitions are tracked by, and the errors the leader answers with.
import { BrookError, errors } from '../common/brook-error.js';
import {
  LogOfflineError,
  OffsetOutOfRangeError,
  ProducerStateError,
  RecordTooLargeError,
} from '../partition-log/log-errors.js';
import type { PartitionLog } from '../partition-log/partition-log.js';
import { CorruptBatchError } from '../partition-log/record-batch.js';
import type { LeaderReplicaState } from './leader-replica-state.js';

export interface LeaderPartition {
  key: string;
  topic: string;
  partition: number;
  log: PartitionLog;
  epoch: number;
  /** The partition-state version this leader knows (from the metadata or its own writes). */
  stateVersion: number;
  state: LeaderReplicaState;
}

export function partitionKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

export function splitKey(key: string): [string, number] {
  const dash = key.lastIndexOf('-');
  return [key.slice(0, dash), Number(key.slice(dash + 1))];
}

/** A forwarded request stamped with another leader epoch than this leadership's is refused before it acts. */
export function checkEpoch(leader: LeaderPartition, expectedLeaderEpoch: number | undefined): void {
  if (expectedLeaderEpoch === undefined || expectedLeaderEpoch === leader.epoch) return;
  if (expectedLeaderEpoch < leader.epoch) {
    throw errors.fencedLeaderEpoch(
      `Fenced: ${leader.key} is in leader epoch ${leader.epoch}, not ${expectedLeaderEpoch}.`,
    );
  }
  throw errors.unknownLeaderEpoch(
    `${leader.key}: this broker is in leader epoch ${leader.epoch}, not ${expectedLeaderEpoch}.`,
  );
}

/** A read at a leader that has not yet learnt its high watermark (leader-replica-state.ts, highWatermarkKnown). */
export function learningHighWatermark(leader: LeaderPartition): BrookError {
  return errors.retriable(
    `${leader.key}: broker ${leader.state.leaderId} leads it since epoch ${leader.epoch} and is still learning its ` +
      'high watermark from the in-sync replicas; retry.',
  );
}

/** The partition log's errors as the API answers them. */
export function translate(error: unknown): Error {
  if (error instanceof BrookError) return error;
  if (error instanceof RecordTooLargeError) return errors.recordTooLarge(error.message);
  if (error instanceof OffsetOutOfRangeError) return errors.invalidRequest(error.message);
  if (error instanceof CorruptBatchError) return errors.invalidPayload(error.message);
  if (error instanceof LogOfflineError) return errors.kafkaError(error.message);
  if (error instanceof ProducerStateError) return producerStateError(error);
  return error as Error;
}

function producerStateError(error: ProducerStateError): BrookError {
  switch (error.kind) {
    case 'OUT_OF_ORDER_SEQUENCE_NUMBER':
      return errors.outOfOrderSequence(error.message);
    case 'INVALID_PRODUCER_EPOCH':
      return errors.invalidProducerEpoch(error.message);
    case 'UNKNOWN_PRODUCER_ID':
      return errors.unknownProducerId(error.message);
    case 'IDEMPOTENCY_KEY_REUSED':
      return errors.idempotencyKeyReused(error.message);
    case 'IDEMPOTENCY_KEY_IN_FLIGHT':
      return errors.idempotencyKeyInFlight(error.message);
  }
}
