import { describe, expect, it } from 'vitest';
import { OFFSET_INDEX_ENTRY_BYTES } from './offset-index.js';
import { MAX_RELATIVE_OFFSET, maxIndexEntries, type RollParams, segmentAgeMs, shouldRoll } from './roll-policy.js';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

/** A segment of 500 bytes at base 1000, created an hour ago, whose first batch is stamped an hour ago. */
function params(overrides: Partial<RollParams> = {}): RollParams {
  return {
    segmentSizeBytes: 500,
    segmentBaseOffset: 1000,
    segmentFirstBatchTimestampMs: NOW - HOUR,
    segmentCreatedAtMs: NOW - HOUR,
    indexFull: false,
    timeIndexFull: false,
    incomingBatchBytes: 100,
    incomingLastOffset: 1050,
    incomingMaxTimestampMs: NOW,
    nowMs: NOW,
    segmentBytes: 1024,
    segmentMs: 24 * HOUR,
    ...overrides,
  };
}

describe('shouldRoll', () => {
  it('keeps a segment that has room and time left', () => {
    expect(shouldRoll(params())).toBe(false);
  });

  describe('segment.bytes', () => {
    it('rolls only when the incoming batch would pass segment.bytes', () => {
      expect(shouldRoll(params({ segmentSizeBytes: 924, incomingBatchBytes: 100 }))).toBe(false); // exactly full
      expect(shouldRoll(params({ segmentSizeBytes: 925, incomingBatchBytes: 100 }))).toBe(true);
      expect(shouldRoll(params({ segmentSizeBytes: 1, incomingBatchBytes: 2000 }))).toBe(true);
    });
  });

  describe('segment.ms', () => {
    it('measures age in record time from the first batch when it carries a timestamp', () => {
      const first = NOW - 10 * HOUR;
      // Wall time says the segment is brand new; record time says it is 24 h + 1 ms old.
      expect(
        shouldRoll(
          params({
            segmentCreatedAtMs: NOW,
            segmentFirstBatchTimestampMs: first,
            incomingMaxTimestampMs: first + 24 * HOUR + 1,
          }),
        ),
      ).toBe(true);
      expect(
        shouldRoll(
          params({
            segmentCreatedAtMs: NOW,
            segmentFirstBatchTimestampMs: first,
            incomingMaxTimestampMs: first + 24 * HOUR,
          }),
        ),
      ).toBe(false);
      // Wall time says the segment is ancient; record time says it is young.
      expect(
        shouldRoll(
          params({
            segmentCreatedAtMs: NOW - 100 * HOUR,
            segmentFirstBatchTimestampMs: NOW - 1,
            incomingMaxTimestampMs: NOW,
          }),
        ),
      ).toBe(false);
    });

    it('measures age in wall time since creation when the first batch has no timestamp', () => {
      for (const firstTimestamp of [null, -1]) {
        const base = { segmentFirstBatchTimestampMs: firstTimestamp, incomingMaxTimestampMs: NOW + 100 * HOUR };
        expect(shouldRoll(params({ ...base, segmentCreatedAtMs: NOW - 24 * HOUR }))).toBe(false);
        expect(shouldRoll(params({ ...base, segmentCreatedAtMs: NOW - 24 * HOUR - 1 }))).toBe(true);
      }
    });

    it('segmentAgeMs reports the age it measured', () => {
      expect(segmentAgeMs(params({ segmentFirstBatchTimestampMs: NOW - 5, incomingMaxTimestampMs: NOW + 5 }))).toBe(10);
      expect(segmentAgeMs(params({ segmentFirstBatchTimestampMs: null, segmentCreatedAtMs: NOW - 7 }))).toBe(7);
    });
  });

  describe('indexes', () => {
    it('rolls when either index is full', () => {
      expect(shouldRoll(params({ indexFull: true }))).toBe(true);
      expect(shouldRoll(params({ timeIndexFull: true }))).toBe(true);
    });
  });

  describe('relative offsets', () => {
    it('rolls when the incoming last offset no longer fits an int32 relative offset', () => {
      expect(shouldRoll(params({ segmentBaseOffset: 1000, incomingLastOffset: 1000 + MAX_RELATIVE_OFFSET }))).toBe(
        false,
      );
      expect(shouldRoll(params({ segmentBaseOffset: 1000, incomingLastOffset: 1000 + MAX_RELATIVE_OFFSET + 1 }))).toBe(
        true,
      );
      expect(MAX_RELATIVE_OFFSET).toBe(2 ** 31 - 1);
    });
  });

  describe('an empty segment', () => {
    it('never rolls, whatever the batch size, age or index state', () => {
      const empty = { segmentSizeBytes: 0 };
      expect(shouldRoll(params({ ...empty, incomingBatchBytes: 10 * 1024 }))).toBe(false);
      expect(
        shouldRoll(params({ ...empty, segmentFirstBatchTimestampMs: null, segmentCreatedAtMs: NOW - 1000 * HOUR })),
      ).toBe(false);
      expect(shouldRoll(params({ ...empty, indexFull: true, timeIndexFull: true }))).toBe(false);
      expect(shouldRoll(params({ ...empty, incomingLastOffset: 1000 + MAX_RELATIVE_OFFSET + 1 }))).toBe(false);
    });
  });
});

describe('maxIndexEntries', () => {
  it('is segment.index.bytes in whole 8-byte entries, at least one', () => {
    expect(maxIndexEntries(10 * 1024 * 1024)).toBe((10 * 1024 * 1024) / OFFSET_INDEX_ENTRY_BYTES);
    expect(maxIndexEntries(17)).toBe(2);
    expect(maxIndexEntries(4)).toBe(1);
    expect(maxIndexEntries(0)).toBe(1);
  });
});
