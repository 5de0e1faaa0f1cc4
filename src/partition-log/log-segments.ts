// The segments of one partition log (Kafka's LogSegments): ascending base offsets, the last one active, never
// empty. The list is never changed in place: each change puts a new array, so a read that took `all` keeps the
// segments it started with while a roll, truncation, retention or compaction changes the log. Pure: the segments'
// files are their own business.
import type { LogSegment } from './log-segment.js';
import type { SegmentSummary } from './retention-policy.js';

export class LogSegments {
  private list: readonly LogSegment[];

  constructor(segments: readonly LogSegment[]) {
    if (segments.length === 0) throw new RangeError('a log has at least its active segment');
    // a copy of exactly its length: the loader's array, pushed to, holds room for 16 more (~130 bytes a partition)
    this.list = segments.slice();
  }

  /** Every segment, oldest first; this array never changes. */
  get all(): readonly LogSegment[] {
    return this.list;
  }

  get active(): LogSegment {
    return this.list[this.list.length - 1];
  }

  get count(): number {
    return this.list.length;
  }

  get sizeBytes(): number {
    return this.list.reduce((sum, segment) => sum + segment.sizeBytes, 0);
  }

  /** Every segment but the active one: what retention may delete and compaction may rewrite. */
  inactive(): LogSegment[] {
    return this.list.slice(0, -1);
  }

  /** What the retention and cleaner policies decide on; `logEndOffset` ends the active segment. */
  summaries(logEndOffset: number): SegmentSummary[] {
    return this.list.map((segment, i) => ({
      baseOffset: segment.baseOffset,
      endOffset: this.list[i + 1]?.baseOffset ?? logEndOffset,
      sizeBytes: segment.sizeBytes,
      maxTimestampMs: segment.maxTimestampMs,
    }));
  }

  /** A new active segment after the current one. */
  add(segment: LogSegment): void {
    if (segment.baseOffset <= this.active.baseOffset) {
      throw new RangeError(
        `segment ${segment.baseOffset} does not follow the active segment ${this.active.baseOffset}`,
      );
    }
    this.list = this.list.concat(segment); // exactly its length (a spread leaves room for more)
  }

  /** Puts `replacement` where the segment with its base offset is (compaction swapped its file). */
  replace(replacement: LogSegment): void {
    this.list = this.list.map((segment) => (segment.baseOffset === replacement.baseOffset ? replacement : segment));
  }

  /** Keeps only `segments` (a truncation, retention or reset decided which). */
  keepOnly(segments: readonly LogSegment[]): void {
    if (segments.length === 0) throw new RangeError('a log has at least its active segment');
    this.list = segments;
  }
}

/** The index in `segments` (ascending base offsets) of the last segment whose base offset is <= `offset`; 0 below. */
export function floorSegmentIndex(segments: readonly LogSegment[], offset: number): number {
  let low = 0;
  let high = segments.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (segments[middle].baseOffset <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
