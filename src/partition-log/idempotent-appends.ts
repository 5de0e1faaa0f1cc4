// The producer-state side of a leader's append (log-appender.ts): an idempotent batch (a producer id in its header)
// is checked against the producer state (producer-state.ts) when it is queued, in the same synchronous step that
// gives it its offsets, so no other append comes between the check and the offsets. A refused batch throws
// ProducerStateError; a duplicate gets the original batch's offsets and is not queued: when the original is itself
// still queued (unanswered), the duplicate's answer waits for the original's write, except an idempotency key's,
// which is refused while its first request is in flight (IDEMPOTENCY_KEY_IN_FLIGHT).
import type { AppendInfo } from './append-queue.js';
import type { LocalLog } from './local-log.js';
import { ProducerStateError } from './log-errors.js';
import { isKeyProducer, producerKeyOf, type ProducerBatch } from './producer-state.js';
import { isIdempotent, producerBatchOf } from './producer-state-manager.js';
import { CorruptBatchError, isControlBatch, TimestampType, type BatchHeader } from './record-batch-layout.js';

export interface ProducerCheckOptions {
  /** The batch may carry an idempotency key's producer id (Brook's own batches); a client's may not. */
  keyProducers?: boolean;
  /** Forward gaps in the producer's sequence are accepted (producer-state.ts; default false). */
  sequenceGaps?: boolean;
}

export class IdempotentAppends {
  /** The answers of idempotent batches queued and not yet answered, by producer and sequences: their duplicates wait. */
  /** Made on the first idempotent append: most partitions of a broker with many never have one. */
  private unanswered: Map<string, Promise<AppendInfo>> | undefined;

  constructor(private readonly local: LocalLog) {}

  /**
   * The producer-state check of an idempotent leader batch that would start at `firstOffset`: the batch to queue,
   * or the original it duplicates; throws when refused.
   */
  check(
    header: BatchHeader,
    firstOffset: number,
    options: ProducerCheckOptions,
  ): { append: ProducerBatch } | { duplicateOf: ProducerBatch } {
    if (!isIdempotent(header) || (isKeyProducer(header.producerId) && options.keyProducers !== true)) {
      throw new ProducerStateError('UNKNOWN_PRODUCER_ID', `producer id ${header.producerId} was never handed out`);
    }
    if (header.producerEpoch < 0 || header.baseSequence < 0 || isControlBatch(header)) {
      throw new CorruptBatchError('a batch with a producer id needs a producer epoch and a base sequence');
    }
    const batch = producerBatchOf(header, firstOffset);
    const check = this.local.producers.check(batch, { sequenceGaps: options.sequenceGaps === true });
    if (check.outcome === 'refused') throw new ProducerStateError(check.error, check.message);
    if (check.outcome === 'duplicate') return { duplicateOf: { ...batch, ...check.batch } };
    return { append: batch };
  }

  /**
   * A duplicate's answer: the original's offsets, once the original (if still queued) has been written. An
   * idempotency key's original still queued is its first request in flight: the retry is refused rather than kept
   * waiting (IDEMPOTENCY_KEY_IN_FLIGHT, 409 40906).
   */
  duplicateAnswer(original: ProducerBatch): Promise<AppendInfo> {
    const pending = this.unanswered?.get(unansweredKey(original));
    if (pending !== undefined && isKeyProducer(original.producerId)) {
      throw new ProducerStateError(
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        'the first request with this idempotency key is still being appended; retry once it has been answered',
      );
    }
    const info: AppendInfo = {
      firstOffset: original.firstOffset,
      lastOffset: original.lastOffset,
      logAppendTimeMs:
        this.local.config.messageTimestampType === TimestampType.LogAppendTime ? original.maxTimestampMs : -1,
      maxTimestampMs: original.maxTimestampMs,
      recordCount: original.lastOffset - original.firstOffset + 1,
      duplicate: true,
      baseTimestampMs: original.baseTimestampMs,
    };
    if (pending === undefined) return Promise.resolve(info);
    // renumbering (AppendQueue.dropCorrupt) may have moved the original: its own answer has the final offsets
    return pending.then((answer) => ({ ...info, ...answer, duplicate: true, baseTimestampMs: info.baseTimestampMs }));
  }

  /** A queued idempotent batch's answer, which its duplicates wait for until it settles. */
  remember(producer: ProducerBatch, appended: Promise<AppendInfo>): void {
    const key = unansweredKey(producer);
    const unanswered = (this.unanswered ??= new Map());
    unanswered.set(key, appended);
    const forget = () => {
      if (unanswered.get(key) === appended) unanswered.delete(key);
    };
    appended.then(forget, forget);
  }
}

function unansweredKey(batch: ProducerBatch): string {
  return `${producerKeyOf(batch.producerId, batch.epoch)}|${batch.firstSequence}|${batch.lastSequence}`;
}
