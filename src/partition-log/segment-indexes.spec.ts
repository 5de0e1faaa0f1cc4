import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OffsetIndex } from './offset-index.js';
import { readBatchHeader, type BatchHeader } from './record-batch-layout.js';
import { encodeBatch } from './record-batch-builder.js';
import { SegmentIndexes } from './segment-indexes.js';
import { TimeIndex } from './time-index.js';

const T0 = 1_700_000_000_000;

/** The header of a real batch of `records` records at `baseOffset`, its max timestamp `timestamp`. */
function header(baseOffset: number, records: number, timestamp: number): BatchHeader {
  const batch = encodeBatch(
    Array.from({ length: records }, () => ({ key: null, value: Buffer.alloc(100), timestamp })),
    { baseOffset },
  );
  return readBatchHeader(batch);
}

/** Adds `headers` back to back from position 0, as a segment appends them. */
function addAll(indexes: SegmentIndexes, headers: BatchHeader[], intervalBytes: number): number[] {
  const positions: number[] = [];
  let position = 0;
  for (const h of headers) {
    positions.push(position);
    indexes.add(h, position, intervalBytes);
    position += h.sizeBytes;
  }
  return positions;
}

describe('SegmentIndexes', () => {
  it('starts empty at the base offset', () => {
    const indexes = new SegmentIndexes(40, 10);
    expect(indexes.nextOffset).toBe(40);
    expect(indexes.maxTimestampMs).toBe(-1);
    expect(indexes.firstBatchTimestampMs).toBeNull();
    expect(indexes.offsetIndex.entries).toBe(0);
    expect(indexes.lastIndexedPosition()).toBe(0);
  });

  it('adds an entry for the first batch starting more than index.interval.bytes after the last entry', () => {
    const indexes = new SegmentIndexes(0, 10);
    const headers = [0, 1, 2, 3, 4].map((i) => header(i, 1, T0 + i));
    const size = headers[0].sizeBytes;
    const positions = addAll(indexes, headers, size * 2 - 1);
    // counted: batch 0 and 1 (2 * size > interval), so batch 2 is indexed; then 2 and 3, so batch 4
    expect(indexes.offsetIndex.lookup(2)).toEqual({ offset: 2, position: positions[2] });
    expect(indexes.offsetIndex.lookup(4)).toEqual({ offset: 4, position: positions[4] });
    expect(indexes.offsetIndex.entries).toBe(2);
    expect(indexes.timeIndex.lookup(T0 + 4)).toEqual({ timestamp: T0 + 4, offset: 4 });
    expect(indexes.lastIndexedPosition()).toBe(positions[4]);
    expect(indexes.nextOffset).toBe(5);
  });

  it('stops adding entries once the offset index is full', () => {
    const indexes = new SegmentIndexes(0, 1);
    addAll(
      indexes,
      [0, 1, 2, 3].map((i) => header(i, 1, T0)),
      0,
    );
    expect(indexes.offsetIndex.entries).toBe(1);
    expect(indexes.offsetIndex.isFull()).toBe(true);
  });

  it('tracks the largest timestamp and the first batch timestamp, with timestamps out of order', () => {
    const indexes = new SegmentIndexes(0, 10);
    addAll(indexes, [header(0, 2, T0 + 50), header(2, 1, T0 + 90), header(3, 1, T0 + 10)], 1 << 20);
    expect(indexes.firstBatchTimestampMs).toBe(T0 + 50);
    expect(indexes.maxTimestampMs).toBe(T0 + 90);
    expect(indexes.timeIndex.entries).toBe(0);
    indexes.completeTimeIndex();
    expect(indexes.timeIndex.lookup(Number.MAX_SAFE_INTEGER)).toEqual({ timestamp: T0 + 90, offset: 2 });
  });

  it('reset forgets every batch', () => {
    const indexes = new SegmentIndexes(10, 10);
    addAll(
      indexes,
      [10, 11, 12].map((i) => header(i, 1, T0 + i)),
      0,
    );
    indexes.reset();
    expect(indexes.nextOffset).toBe(10);
    expect(indexes.maxTimestampMs).toBe(-1);
    expect(indexes.firstBatchTimestampMs).toBeNull();
    expect(indexes.offsetIndex.entries).toBe(0);
    expect(indexes.timeIndex.entries).toBe(0);
  });

  it('loaded indexes plus the tail after the last entry give what adding every batch gave', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ records: fc.integer({ min: 1, max: 5 }), step: fc.integer({ min: -20, max: 50 }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 0, max: 2000 }),
        (batches, intervalBytes) => {
          let offset = 0;
          let timestamp = T0;
          const headers = batches.map(({ records, step }) => {
            timestamp += step;
            const h = header(offset, records, timestamp);
            offset += records;
            return h;
          });
          const written = new SegmentIndexes(0, 1000);
          addAll(written, headers, intervalBytes);
          written.completeTimeIndex();

          // what a clean reopen does: load both index files, then walk the batches from the last entry's position
          const reopened = new SegmentIndexes(0, 1000);
          reopened.useLoaded(
            OffsetIndex.parse(written.offsetIndex.serialize(), 0, 1000, Number.MAX_SAFE_INTEGER),
            TimeIndex.parse(written.timeIndex.serialize(), 0, 1000),
          );
          reopened.firstBatchTimestampMs = headers[0].maxTimestamp;
          let position = 0;
          for (const h of headers) {
            if (position >= reopened.lastIndexedPosition()) reopened.addTail(h);
            position += h.sizeBytes;
          }
          expect(reopened.nextOffset).toBe(written.nextOffset);
          expect(reopened.maxTimestampMs).toBe(written.maxTimestampMs);
          expect(reopened.firstBatchTimestampMs).toBe(written.firstBatchTimestampMs);
          // and both index the batches appended after the reopen alike
          for (let i = 0; i < 3; i++) {
            const next = header(offset, 1, timestamp + i);
            written.add(next, position, intervalBytes);
            reopened.add(next, position, intervalBytes);
            offset += 1;
            position += next.sizeBytes;
          }
          expect(reopened.offsetIndex.serialize()).toEqual(written.offsetIndex.serialize());
          expect(reopened.timeIndex.serialize()).toEqual(written.timeIndex.serialize());
        },
      ),
      { numRuns: 100 },
    );
  });
});
