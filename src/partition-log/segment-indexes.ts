// What one segment knows of its batches without reading its file: its two sparse indexes (offset-index.ts,
// time-index.ts), the offset after its last batch, its largest timestamp and the offset that carried it, and the
// first batch's timestamp (segment.ms measures from it). Kept batch by batch as the segment is written, re-scanned
// or loaded; pure, the segment (log-segment.ts) does the file I/O.
//
// An offset index entry (with a time index entry for the largest timestamp so far) is added for the first batch
// that starts more than index.interval.bytes after the batch of the previous entry, until the offset index is
// full; a segment that is full rolls (roll-policy.ts).
import type { BatchHeader } from './record-batch-layout.js';
import { lastOffsetOf } from './record-batch-layout.js';
import { OffsetIndex } from './offset-index.js';
import { TimeIndex } from './time-index.js';

export class SegmentIndexes {
  offsetIndex: OffsetIndex;
  timeIndex: TimeIndex;
  /** One past the last offset seen; the base offset while empty. */
  nextOffset: number;
  /** The largest batch max timestamp seen; -1 while there is none. */
  maxTimestampMs = -1;
  /** The max timestamp of the first batch; null while empty or not known. */
  firstBatchTimestampMs: number | null = null;
  private offsetOfMaxTimestamp: number;
  private bytesSinceLastIndexEntry = 0;

  constructor(
    readonly baseOffset: number,
    maxEntries: number,
  ) {
    this.nextOffset = baseOffset;
    this.offsetOfMaxTimestamp = baseOffset;
    this.offsetIndex = new OffsetIndex(baseOffset, maxEntries);
    this.timeIndex = new TimeIndex(baseOffset, maxEntries);
  }

  /** Takes in a batch written, or found valid, at `position` of the segment file. */
  add(header: BatchHeader, position: number, indexIntervalBytes: number): void {
    if (this.firstBatchTimestampMs === null) this.firstBatchTimestampMs = header.maxTimestamp;
    this.noteMaxTimestamp(header);
    if (this.bytesSinceLastIndexEntry > indexIntervalBytes && !this.offsetIndex.isFull()) {
      this.offsetIndex.append(header.baseOffset, position);
      this.timeIndex.maybeAppend(this.maxTimestampMs, this.offsetOfMaxTimestamp);
      this.bytesSinceLastIndexEntry = 0;
    }
    this.bytesSinceLastIndexEntry += header.sizeBytes;
    this.nextOffset = lastOffsetOf(header) + 1;
  }

  /** Forgets every batch (before the file is scanned again). */
  reset(): void {
    this.offsetIndex.clear();
    this.timeIndex.clear();
    this.maxTimestampMs = -1;
    this.offsetOfMaxTimestamp = this.baseOffset;
    this.bytesSinceLastIndexEntry = 0;
    this.firstBatchTimestampMs = null;
    this.nextOffset = this.baseOffset;
  }

  /**
   * Takes the indexes loaded from the segment's index files. The batches after the last offset index entry
   * follow with `addTail`, and the first batch's timestamp with `firstBatchTimestampMs`: the files hold neither.
   */
  useLoaded(offsetIndex: OffsetIndex, timeIndex: TimeIndex): void {
    this.offsetIndex = offsetIndex;
    this.timeIndex = timeIndex;
    this.maxTimestampMs = timeIndex.lastTimestamp();
    this.offsetOfMaxTimestamp = timeIndex.lookup(Number.MAX_SAFE_INTEGER).offset;
  }

  /** The byte position of the last offset index entry (0 without one): where the batches after it start. */
  lastIndexedPosition(): number {
    return this.offsetIndex.lookup(Number.MAX_SAFE_INTEGER).position;
  }

  /** A batch after the last loaded index entry: counted towards the next entry, not indexed itself. */
  addTail(header: BatchHeader): void {
    this.noteMaxTimestamp(header);
    this.bytesSinceLastIndexEntry += header.sizeBytes;
    this.nextOffset = lastOffsetOf(header) + 1;
  }

  /** Before the index files are written: a last time index entry for the largest timestamp. */
  completeTimeIndex(): void {
    if (this.maxTimestampMs >= 0) this.timeIndex.maybeAppend(this.maxTimestampMs, this.offsetOfMaxTimestamp);
  }

  private noteMaxTimestamp(header: BatchHeader): void {
    if (header.maxTimestamp > this.maxTimestampMs) {
      this.maxTimestampMs = header.maxTimestamp;
      this.offsetOfMaxTimestamp = header.baseOffset;
    }
  }
}
