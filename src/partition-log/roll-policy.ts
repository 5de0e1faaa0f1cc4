// When the active segment is closed and a new one started: a pure decision, as Kafka's LogSegment.shouldRoll.
import { OFFSET_INDEX_ENTRY_BYTES } from './offset-index.js';

export interface RollParams {
  segmentSizeBytes: number;
  segmentBaseOffset: number;
  /** The segment's first batch's max timestamp; null while the segment is empty or that is unknown. */
  segmentFirstBatchTimestampMs: number | null;
  segmentCreatedAtMs: number;
  indexFull: boolean;
  timeIndexFull: boolean;
  incomingBatchBytes: number;
  incomingLastOffset: number;
  incomingMaxTimestampMs: number;
  nowMs: number;
  segmentBytes: number;
  segmentMs: number;
}

/** Relative offsets in the index are int32: a segment can span at most this many offsets. */
export const MAX_RELATIVE_OFFSET = 0x7fffffff;

export function shouldRoll(params: RollParams): boolean {
  if (params.segmentSizeBytes === 0) return false; // an empty segment takes the batch whatever its size
  return (
    params.segmentSizeBytes + params.incomingBatchBytes > params.segmentBytes ||
    segmentAgeMs(params) > params.segmentMs ||
    params.indexFull ||
    params.timeIndexFull ||
    params.incomingLastOffset - params.segmentBaseOffset > MAX_RELATIVE_OFFSET
  );
}

/**
 * How old the segment is for segment.ms, as Kafka measures it: in record time (incoming batch's timestamp minus the
 * first batch's) when the segment has a timestamped batch, else in wall time since it was created.
 */
export function segmentAgeMs(params: RollParams): number {
  const first = params.segmentFirstBatchTimestampMs;
  if (first !== null && first >= 0) return params.incomingMaxTimestampMs - first;
  return params.nowMs - params.segmentCreatedAtMs;
}

export function maxIndexEntries(segmentIndexBytes: number): number {
  return Math.max(1, Math.floor(segmentIndexBytes / OFFSET_INDEX_ENTRY_BYTES));
}
