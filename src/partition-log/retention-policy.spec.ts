import { describe, expect, it } from 'vitest';
import { type RetentionParams, type SegmentSummary, segmentsToDelete } from './retention-policy.js';

const NOW = 1_700_000_000_000;
const DAY = 24 * 3_600_000;

/** Segments of 100 offsets and `sizeBytes` each, the i-th stamped `ageDays[i]` days ago; the last is active. */
function segments(ageDays: number[], sizeBytes = 1000): SegmentSummary[] {
  return ageDays.map((age, i) => ({
    baseOffset: i * 100,
    endOffset: (i + 1) * 100,
    sizeBytes,
    maxTimestampMs: NOW - age * DAY,
  }));
}

function params(overrides: Partial<RetentionParams> = {}): RetentionParams {
  const list = overrides.segments ?? segments([10, 9, 8, 7, 6]);
  return {
    segments: list,
    highWatermark: list[list.length - 1].endOffset,
    logStartOffset: 0,
    nowMs: NOW,
    retentionMs: -1,
    retentionBytes: -1,
    deletePolicy: true,
    ...overrides,
  };
}

describe('segmentsToDelete', () => {
  it('deletes nothing with unlimited retention', () => {
    expect(segmentsToDelete(params())).toEqual({ deleteBaseOffsets: [], reason: null });
  });

  describe('retention.ms', () => {
    it('deletes segments whose newest record is older than retention.ms', () => {
      const decision = segmentsToDelete(params({ retentionMs: 7.5 * DAY }));
      expect(decision).toEqual({ deleteBaseOffsets: [0, 100, 200], reason: 'retention-ms' });
    });

    it('keeps a segment exactly retention.ms old', () => {
      expect(segmentsToDelete(params({ retentionMs: 8 * DAY })).deleteBaseOffsets).toEqual([0, 100]);
    });

    it('never deletes the active segment, however old', () => {
      expect(segmentsToDelete(params({ retentionMs: 0 })).deleteBaseOffsets).toEqual([0, 100, 200, 300]);
      expect(segmentsToDelete(params({ segments: segments([50]), retentionMs: 0 })).deleteBaseOffsets).toEqual([]);
    });

    it('deletes only a prefix: a young segment protects the older ones after it', () => {
      const list = segments([10, 1, 10, 10, 0]);
      expect(segmentsToDelete(params({ segments: list, retentionMs: 5 * DAY })).deleteBaseOffsets).toEqual([0]);
    });
  });

  describe('retention.bytes', () => {
    it('deletes the oldest segments while the rest still holds at least retention.bytes', () => {
      // 5 segments x 1000 bytes; keep at least 2500 -> delete two (3000 left), a third would leave 2000.
      const decision = segmentsToDelete(params({ retentionBytes: 2500 }));
      expect(decision).toEqual({ deleteBaseOffsets: [0, 100], reason: 'retention-bytes' });
    });

    it('deletes down to exactly retention.bytes', () => {
      expect(segmentsToDelete(params({ retentionBytes: 3000 })).deleteBaseOffsets).toEqual([0, 100]);
    });

    it('deletes nothing when the log is within retention.bytes', () => {
      expect(segmentsToDelete(params({ retentionBytes: 5000 })).deleteBaseOffsets).toEqual([]);
      expect(segmentsToDelete(params({ retentionBytes: 4001 })).deleteBaseOffsets).toEqual([]);
    });

    it('never deletes the active segment even when it alone is over retention.bytes', () => {
      expect(segmentsToDelete(params({ retentionBytes: 0 })).deleteBaseOffsets).toEqual([0, 100, 200, 300]);
    });
  });

  describe('the high watermark', () => {
    it('never deletes a segment holding an offset at or above the high watermark', () => {
      // Segment [200, 300) holds offset 250, the high watermark: it and all after it stay.
      expect(segmentsToDelete(params({ retentionMs: 0, highWatermark: 250 })).deleteBaseOffsets).toEqual([0, 100]);
      // A segment that ends exactly at the high watermark holds only offsets below it.
      expect(segmentsToDelete(params({ retentionMs: 0, highWatermark: 300 })).deleteBaseOffsets).toEqual([0, 100, 200]);
      expect(segmentsToDelete(params({ retentionMs: 0, highWatermark: 0 })).deleteBaseOffsets).toEqual([]);
      expect(segmentsToDelete(params({ retentionBytes: 0, highWatermark: 99 })).deleteBaseOffsets).toEqual([]);
    });
  });

  describe('the log start offset', () => {
    it('deletes segments wholly below the log start offset, even with no retention limit or delete policy', () => {
      expect(segmentsToDelete(params({ logStartOffset: 250 }))).toEqual({
        deleteBaseOffsets: [0, 100],
        reason: 'log-start-offset',
      });
      expect(segmentsToDelete(params({ logStartOffset: 200, deletePolicy: false })).deleteBaseOffsets).toEqual([
        0, 100,
      ]);
    });

    it('is still bounded by the high watermark', () => {
      expect(segmentsToDelete(params({ logStartOffset: 250, highWatermark: 150 })).deleteBaseOffsets).toEqual([0]);
    });

    it('reports the reason of the first deleted segment when reasons mix', () => {
      const decision = segmentsToDelete(params({ logStartOffset: 100, retentionMs: 7.5 * DAY }));
      expect(decision).toEqual({ deleteBaseOffsets: [0, 100, 200], reason: 'log-start-offset' });
    });
  });

  describe('cleanup.policy without delete', () => {
    it('ignores retention.ms and retention.bytes', () => {
      expect(
        segmentsToDelete(params({ deletePolicy: false, retentionMs: 0, retentionBytes: 0 })).deleteBaseOffsets,
      ).toEqual([]);
    });
  });
});
