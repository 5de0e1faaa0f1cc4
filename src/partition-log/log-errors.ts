// The errors a partition log reports to its callers. Each maps to one Kafka error code at the API edge.
import type { ProducerErrorKind } from './producer-state.js';

export class RecordTooLargeError extends Error {}
export class OffsetOutOfRangeError extends Error {
  constructor(
    readonly requestedOffset: number,
    readonly logStartOffset: number,
    readonly logEndOffset: number,
  ) {
    super(`offset ${requestedOffset} is outside the log's range [${logStartOffset}, ${logEndOffset}]`);
  }
}
/** A follower batch that does not continue the log where it ends. */
export class UnexpectedOffsetError extends Error {}
/** The log hit an I/O error and accepts no more writes until the broker restarts it (Kafka's offline log dir). */
export class LogOfflineError extends Error {}
/**
 * The segment object was replaced by a rewritten file (compaction); retry once `replaced` settles. Internal: the
 * log's read retries it (local-log.ts), it never reaches an edge.
 */
export class SegmentRetiredError extends Error {
  constructor(
    readonly baseOffset: number,
    readonly replaced: Promise<void>,
  ) {
    super(`segment ${baseOffset} was replaced by a compacted copy`);
  }
}
export class LogClosedError extends Error {}
/**
 * An idempotent batch the producer state refuses (producer-state.ts has the rules); nothing was appended. `kind` is
 * Kafka's error name (IDEMPOTENCY_KEY_REUSED is Brook's), for the edges to map.
 */
export class ProducerStateError extends Error {
  constructor(
    readonly kind: ProducerErrorKind,
    message: string,
  ) {
    super(message);
  }
}
