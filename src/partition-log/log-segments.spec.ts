import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';
import type { LogSegment } from './log-segment.js';
import { floorSegmentIndex, LogSegments } from './log-segments.js';

/** What LogSegments reads of a segment: its base offset, size and max timestamp. */
function segment(baseOffset: number, sizeBytes = 100, maxTimestampMs = -1): LogSegment {
  return { baseOffset, sizeBytes, maxTimestampMs } as LogSegment;
}

describe('LogSegments', () => {
  it('is never empty', () => {
    expect(() => new LogSegments([])).toThrow(RangeError);
    expect(() => new LogSegments([segment(0)]).keepOnly([])).toThrow(RangeError);
  });

  it('the last segment is the active one; inactive() is every other', () => {
    const segments = new LogSegments([segment(0), segment(10), segment(20)]);
    expect(segments.active.baseOffset).toBe(20);
    expect(segments.inactive().map((s) => s.baseOffset)).toEqual([0, 10]);
    expect(segments.count).toBe(3);
    expect(segments.sizeBytes).toBe(300);
  });

  it('summaries end each segment at the next base offset, the active one at the log end', () => {
    const segments = new LogSegments([segment(0, 10, 5), segment(10, 20, 7)]);
    expect(segments.summaries(15)).toEqual([
      { baseOffset: 0, endOffset: 10, sizeBytes: 10, maxTimestampMs: 5 },
      { baseOffset: 10, endOffset: 15, sizeBytes: 20, maxTimestampMs: 7 },
    ]);
  });

  it('a new segment must follow the active one', () => {
    const segments = new LogSegments([segment(10)]);
    expect(() => segments.add(segment(10))).toThrow(RangeError);
    expect(() => segments.add(segment(5))).toThrow(RangeError);
    segments.add(segment(11));
    expect(segments.active.baseOffset).toBe(11);
  });

  it('changes never touch the array a reader took', () => {
    const first = segment(0);
    const segments = new LogSegments([first, segment(10)]);
    const taken = segments.all;
    const replacement = segment(0, 50);
    segments.add(segment(20));
    segments.replace(replacement);
    segments.keepOnly([replacement]);
    expect(taken.map((s) => s.baseOffset)).toEqual([0, 10]);
    expect(taken[0]).toBe(first);
    expect(segments.all).toEqual([replacement]);
  });

  it('floorSegmentIndex finds the last segment whose base offset is <= the offset (0 below the first)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: -10, max: 1100 }),
        (bases, offset) => {
          const list = [...bases].sort((a, b) => a - b).map((base) => segment(base));
          let expected = 0;
          list.forEach((s, i) => {
            if (s.baseOffset <= offset) expected = i;
          });
          expect(floorSegmentIndex(list, offset)).toBe(expected);
        },
      ),
    );
  });
});

describe('the footprint of a log of one or two segments (a broker hosts thousands)', () => {
  it('holds its segments in an array of their length, from the loader and after a roll', () => {
    const loaded = segment(0);
    const rolled = segment(10);
    const fromLoader = retainedBytesEach(30_000, () => {
      const pushed: LogSegment[] = [];
      pushed.push(loaded);
      return new LogSegments(pushed);
    });
    const afterRoll = retainedBytesEach(30_000, () => {
      const segments = new LogSegments([loaded]);
      segments.add(rolled);
      return segments;
    });
    // LogSegments and an array of one or two; an array pushed to or spread into had room for 16 more: ~230
    expect(fromLoader).toBeLessThan(180);
    expect(afterRoll).toBeLessThan(180);
  });
});
