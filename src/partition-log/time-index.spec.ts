import { describe, expect, it } from 'vitest';
import { CorruptIndexError } from './offset-index.js';
import { TIME_INDEX_ENTRY_BYTES, TimeIndex } from './time-index.js';

function rawTimeIndex(entries: Array<[timestamp: number, relativeOffset: number]>): Buffer {
  const buffer = Buffer.alloc(entries.length * TIME_INDEX_ENTRY_BYTES);
  entries.forEach(([timestamp, relative], i) => {
    buffer.writeBigInt64BE(BigInt(timestamp), i * TIME_INDEX_ENTRY_BYTES);
    buffer.writeInt32BE(relative, i * TIME_INDEX_ENTRY_BYTES + 8);
  });
  return buffer;
}

const T0 = 1_700_000_000_000;

describe('TimeIndex', () => {
  describe('maybeAppend', () => {
    it('adds an entry only when the timestamp moves forward', () => {
      const index = new TimeIndex(100, 10);
      index.maybeAppend(T0, 100);
      index.maybeAppend(T0, 105); // same timestamp: skipped
      index.maybeAppend(T0 - 5, 106); // older: skipped
      index.maybeAppend(T0 + 10, 110);
      expect(index.entries).toBe(2);
      expect(index.lastTimestamp()).toBe(T0 + 10);
    });

    it('never adds an entry whose offset goes backwards', () => {
      const index = new TimeIndex(0, 10);
      index.maybeAppend(T0, 50);
      index.maybeAppend(T0 + 1, 40);
      expect(index.entries).toBe(1);
      index.maybeAppend(T0 + 1, 50); // same offset, later timestamp: allowed
      expect(index.entries).toBe(2);
    });

    it('stops at maxEntries', () => {
      const index = new TimeIndex(0, 2);
      index.maybeAppend(T0, 1);
      index.maybeAppend(T0 + 1, 2);
      index.maybeAppend(T0 + 2, 3);
      expect(index.entries).toBe(2);
      expect(index.isFull()).toBe(true);
    });

    it('reports -1 as last timestamp while empty', () => {
      expect(new TimeIndex(0, 2).lastTimestamp()).toBe(-1);
    });
  });

  describe('lookup', () => {
    const index = new TimeIndex(1000, 10);
    index.maybeAppend(T0 + 100, 1010);
    index.maybeAppend(T0 + 200, 1020);
    index.maybeAppend(T0 + 300, 1030);

    it('returns the entry with the largest timestamp <= target', () => {
      expect(index.lookup(T0 + 100)).toEqual({ timestamp: T0 + 100, offset: 1010 });
      expect(index.lookup(T0 + 250)).toEqual({ timestamp: T0 + 200, offset: 1020 });
      expect(index.lookup(T0 + 300)).toEqual({ timestamp: T0 + 300, offset: 1030 });
      expect(index.lookup(Number.MAX_SAFE_INTEGER)).toEqual({ timestamp: T0 + 300, offset: 1030 });
    });

    it('returns the segment start below the first entry and for an empty index', () => {
      expect(index.lookup(T0)).toEqual({ timestamp: -1, offset: 1000 });
      expect(new TimeIndex(5, 10).lookup(T0)).toEqual({ timestamp: -1, offset: 5 });
    });
  });

  describe('truncateTo', () => {
    it('drops entries at or above the offset', () => {
      const index = new TimeIndex(0, 10);
      index.maybeAppend(T0 + 1, 10);
      index.maybeAppend(T0 + 2, 20);
      index.maybeAppend(T0 + 3, 30);
      index.truncateTo(20);
      expect(index.entries).toBe(1);
      expect(index.lastTimestamp()).toBe(T0 + 1);
      index.maybeAppend(T0 + 2, 15);
      expect(index.lookup(T0 + 9)).toEqual({ timestamp: T0 + 2, offset: 15 });
      index.clear();
      expect(index.entries).toBe(0);
    });
  });

  describe('serialize and parse', () => {
    it('round-trips 12-byte entries (int64 timestamp, int32 relative offset)', () => {
      const index = new TimeIndex(500, 10);
      index.maybeAppend(T0, 500);
      index.maybeAppend(T0 + 7, 512);
      const bytes = index.serialize();
      expect(bytes.length).toBe(2 * TIME_INDEX_ENTRY_BYTES);
      expect(Number(bytes.readBigInt64BE(TIME_INDEX_ENTRY_BYTES))).toBe(T0 + 7);
      expect(bytes.readInt32BE(TIME_INDEX_ENTRY_BYTES + 8)).toBe(12);
      const parsed = TimeIndex.parse(bytes, 500, 10);
      expect(parsed.entries).toBe(2);
      expect(parsed.lookup(T0 + 8)).toEqual({ timestamp: T0 + 7, offset: 512 });
    });

    it('rejects a size that is not a whole number of entries', () => {
      expect(() => TimeIndex.parse(Buffer.alloc(13), 0, 10)).toThrow(CorruptIndexError);
      expect(() => TimeIndex.parse(Buffer.alloc(11), 0, 10)).toThrow(CorruptIndexError);
    });

    it('rejects timestamps that do not increase, and offsets that go backwards or are negative', () => {
      expect(() =>
        TimeIndex.parse(
          rawTimeIndex([
            [T0, 1],
            [T0, 2],
          ]),
          0,
          10,
        ),
      ).toThrow(CorruptIndexError);
      expect(() =>
        TimeIndex.parse(
          rawTimeIndex([
            [T0, 1],
            [T0 - 1, 2],
          ]),
          0,
          10,
        ),
      ).toThrow(CorruptIndexError);
      expect(() =>
        TimeIndex.parse(
          rawTimeIndex([
            [T0, 5],
            [T0 + 1, 4],
          ]),
          0,
          10,
        ),
      ).toThrow(CorruptIndexError);
      expect(() => TimeIndex.parse(rawTimeIndex([[T0, -1]]), 0, 10)).toThrow(CorruptIndexError);
    });
  });
});
