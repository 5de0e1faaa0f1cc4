// Which whole segments retention deletes: a pure decision over segment summaries (Kafka's
// UnifiedLog.deleteOldSegments). Never the active (last) segment, and never a segment holding an offset at or
// above the high watermark, so that nothing a follower or consumer may still need from the uncommitted tail goes.

export interface SegmentSummary {
  baseOffset: number;
  /** One past the last offset this segment can hold: the next segment's base offset, or the log end offset. */
  endOffset: number;
  sizeBytes: number;
  /** Largest record timestamp in the segment; -1 when it has none. */
  maxTimestampMs: number;
}

export interface RetentionParams {
  segments: SegmentSummary[]; // ascending by base offset, the last one active
  highWatermark: number;
  logStartOffset: number;
  nowMs: number;
  retentionMs: number; // -1: unlimited
  retentionBytes: number; // -1: unlimited
  deletePolicy: boolean;
}

export type RetentionReason = 'log-start-offset' | 'retention-ms' | 'retention-bytes';

export interface RetentionDecision {
  deleteBaseOffsets: number[];
  reason: RetentionReason | null;
}

export function segmentsToDelete(params: RetentionParams): RetentionDecision {
  const candidates = params.segments.slice(0, -1).filter((segment) => segment.endOffset <= params.highWatermark);
  const deleted: number[] = [];
  let reason: RetentionReason | null = null;
  let totalBytes = params.segments.reduce((sum, segment) => sum + segment.sizeBytes, 0);
  for (const segment of candidates) {
    let why: RetentionReason | null = null;
    if (segment.endOffset <= params.logStartOffset) why = 'log-start-offset';
    else if (
      params.deletePolicy &&
      params.retentionMs >= 0 &&
      params.nowMs - segment.maxTimestampMs > params.retentionMs
    ) {
      why = 'retention-ms';
    } else if (
      params.deletePolicy &&
      params.retentionBytes >= 0 &&
      totalBytes - segment.sizeBytes >= params.retentionBytes &&
      totalBytes > params.retentionBytes
    ) {
      why = 'retention-bytes';
    }
    if (why === null) break; // only a prefix of the log is ever deleted
    deleted.push(segment.baseOffset);
    totalBytes -= segment.sizeBytes;
    reason ??= why;
  }
  return { deleteBaseOffsets: deleted, reason };
}
