// An idempotency key's retry at the partition leader (application/idempotence/idempotency-key.ts): the producer
// state found the batch of its first request, but the ISR does not hold that batch yet (it is above the high
// watermark), so the first request is still in flight, or its outcome is not final: the retry is refused with
// 409 40906 rather than answered a success that could still be truncated away. (A first request still queued in the
// log is refused by the log's append itself, IDEMPOTENCY_KEY_IN_FLIGHT.) Allocated producer ids keep Kafka's rule:
// their duplicates wait like any other append.
import { errors } from '../common/brook-error.js';
import type { AppendInfo } from '../partition-log/partition-log.js';
import { isKeyProducer } from '../partition-log/producer-state.js';
import { readBatchHeader } from '../partition-log/record-batch.js';
import type { LeaderPartition } from './leader-partition.js';

/** Throws 40906 when `info` answers a duplicate idempotency-key batch that is not committed yet. */
export function refuseKeyInFlight(leader: LeaderPartition, batch: Buffer, info: AppendInfo): void {
  if (info.duplicate !== true || !isKeyProducer(readBatchHeader(batch).producerId)) return;
  if (info.lastOffset < leader.state.highWatermark) return;
  throw errors.idempotencyKeyInFlight(
    `The first request with this idempotency key wrote ${leader.key} offsets ${info.firstOffset}-${info.lastOffset}, ` +
      `which the in-sync replicas do not all hold yet (high watermark ${leader.state.highWatermark}); retry later.`,
  );
}
