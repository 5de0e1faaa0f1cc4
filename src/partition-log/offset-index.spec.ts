import { describe, expect, it } from 'vitest';
import { CorruptIndexError, OFFSET_INDEX_ENTRY_BYTES, OffsetIndex } from './offset-index.js';
import { TimeIndex } from './time-index.js';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';

function indexWith(
  baseOffset: number,
  entries: Array<[offset: number, position: number]>,
  maxEntries = 100,
): OffsetIndex {
  const index = new OffsetIndex(baseOffset, maxEntries);
  for (const [offset, position] of entries) index.append(offset, position);
  return index;
}

function rawIndex(entries: Array<[relativeOffset: number, position: number]>): Buffer {
  const buffer = Buffer.alloc(entries.length * OFFSET_INDEX_ENTRY_BYTES);
  entries.forEach(([relative, position], i) => {
    buffer.writeInt32BE(relative, i * OFFSET_INDEX_ENTRY_BYTES);
    buffer.writeInt32BE(position, i * OFFSET_INDEX_ENTRY_BYTES + 4);
  });
  return buffer;
}

describe('OffsetIndex', () => {
  describe('lookup (floor semantics)', () => {
    const index = indexWith(1000, [
      [1010, 400],
      [1025, 900],
      [1040, 1700],
    ]);

    it('returns the segment start when the target is below every entry', () => {
      expect(index.lookup(1000)).toEqual({ offset: 1000, position: 0 });
      expect(index.lookup(1009)).toEqual({ offset: 1000, position: 0 });
    });

    it('returns an entry exactly when the target is its offset', () => {
      expect(index.lookup(1010)).toEqual({ offset: 1010, position: 400 });
      expect(index.lookup(1025)).toEqual({ offset: 1025, position: 900 });
      expect(index.lookup(1040)).toEqual({ offset: 1040, position: 1700 });
    });

    it('returns the largest entry below the target between entries and past the last', () => {
      expect(index.lookup(1011)).toEqual({ offset: 1010, position: 400 });
      expect(index.lookup(1024)).toEqual({ offset: 1010, position: 400 });
      expect(index.lookup(1039)).toEqual({ offset: 1025, position: 900 });
      expect(index.lookup(Number.MAX_SAFE_INTEGER)).toEqual({ offset: 1040, position: 1700 });
    });

    it('returns the segment start for an empty index, and below the base offset', () => {
      expect(new OffsetIndex(7, 10).lookup(50)).toEqual({ offset: 7, position: 0 });
      expect(index.lookup(3)).toEqual({ offset: 1000, position: 0 });
    });

    it('agrees with a linear scan over many entries (binary search edges)', () => {
      const entries: Array<[number, number]> = [];
      for (let i = 0; i < 257; i++) entries.push([i * 3 + 1, i * 100 + 50]);
      const big = indexWith(0, entries, 1000);
      for (let target = 0; target < 800; target++) {
        const floor = [...entries].reverse().find(([offset]) => offset <= target);
        expect(big.lookup(target)).toEqual(
          floor ? { offset: floor[0], position: floor[1] } : { offset: 0, position: 0 },
        );
      }
    });
  });

  describe('append', () => {
    it('requires strictly increasing offsets and positions', () => {
      const index = indexWith(0, [[5, 100]]);
      expect(() => index.append(5, 200)).toThrow(/increase/);
      expect(() => index.append(4, 200)).toThrow(/increase/);
      expect(() => index.append(6, 100)).toThrow(/increase/);
      expect(() => index.append(6, 99)).toThrow(/increase/);
      index.append(6, 101);
      expect(index.entries).toBe(2);
      expect(index.lastOffset()).toBe(6);
    });

    it('reports the base offset as last offset while empty', () => {
      expect(new OffsetIndex(42, 3).lastOffset()).toBe(42);
    });

    it('is full at maxEntries and refuses more', () => {
      const index = new OffsetIndex(0, 3);
      index.append(1, 10);
      index.append(2, 20);
      expect(index.isFull()).toBe(false);
      index.append(3, 30);
      expect(index.isFull()).toBe(true);
      expect(() => index.append(4, 40)).toThrow(/full/);
      expect(index.entries).toBe(3);
    });

    it('grows past its initial capacity up to maxEntries', () => {
      const index = new OffsetIndex(0, 100);
      for (let i = 1; i <= 100; i++) index.append(i, i * 10);
      expect(index.isFull()).toBe(true);
      expect(index.lookup(77)).toEqual({ offset: 77, position: 770 });
    });
  });

  describe('truncateTo', () => {
    it('drops every entry at or above the offset and keeps those below', () => {
      const index = indexWith(100, [
        [110, 10],
        [120, 20],
        [130, 30],
      ]);
      index.truncateTo(120);
      expect(index.entries).toBe(1);
      expect(index.lookup(125)).toEqual({ offset: 110, position: 10 });
      index.append(115, 15); // appending after truncation continues from the last kept entry
      expect(index.lookup(125)).toEqual({ offset: 115, position: 15 });
    });

    it('is a no-op above the last entry and empties the index at or below the first', () => {
      const index = indexWith(0, [
        [10, 10],
        [20, 20],
      ]);
      index.truncateTo(21);
      expect(index.entries).toBe(2);
      index.truncateTo(10);
      expect(index.entries).toBe(0);
      expect(index.lookup(50)).toEqual({ offset: 0, position: 0 });
    });

    it('makes a full index not full', () => {
      const index = indexWith(
        0,
        [
          [1, 1],
          [2, 2],
        ],
        2,
      );
      expect(index.isFull()).toBe(true);
      index.truncateTo(2);
      expect(index.isFull()).toBe(false);
    });

    it('clear empties the index', () => {
      const index = indexWith(0, [[1, 1]]);
      index.clear();
      expect(index.entries).toBe(0);
    });
  });

  describe('serialize and parse', () => {
    it('round-trips entries as 8-byte big-endian relative offset and position', () => {
      const index = indexWith(5000, [
        [5003, 61],
        [5010, 4096],
        [5999, 70000],
      ]);
      const bytes = index.serialize();
      expect(bytes.length).toBe(3 * OFFSET_INDEX_ENTRY_BYTES);
      expect(bytes.readInt32BE(0)).toBe(3);
      expect(bytes.readInt32BE(4)).toBe(61);
      const parsed = OffsetIndex.parse(bytes, 5000, 10, 80000);
      expect(parsed.entries).toBe(3);
      for (const target of [5000, 5003, 5009, 5010, 6000]) expect(parsed.lookup(target)).toEqual(index.lookup(target));
    });

    it('parses an empty file as an empty index', () => {
      expect(OffsetIndex.parse(Buffer.alloc(0), 0, 10, 0).entries).toBe(0);
    });

    it('rejects a size that is not a whole number of entries', () => {
      for (const size of [1, 7, 9, 15]) {
        expect(() => OffsetIndex.parse(Buffer.alloc(size), 0, 10, 1000)).toThrow(CorruptIndexError);
      }
    });

    it('rejects entries out of order in offset or position', () => {
      expect(() =>
        OffsetIndex.parse(
          rawIndex([
            [5, 100],
            [5, 200],
          ]),
          0,
          10,
          1000,
        ),
      ).toThrow(CorruptIndexError);
      expect(() =>
        OffsetIndex.parse(
          rawIndex([
            [5, 100],
            [4, 200],
          ]),
          0,
          10,
          1000,
        ),
      ).toThrow(CorruptIndexError);
      expect(() =>
        OffsetIndex.parse(
          rawIndex([
            [5, 100],
            [6, 100],
          ]),
          0,
          10,
          1000,
        ),
      ).toThrow(CorruptIndexError);
      expect(() =>
        OffsetIndex.parse(
          rawIndex([
            [5, 100],
            [6, 50],
          ]),
          0,
          10,
          1000,
        ),
      ).toThrow(CorruptIndexError);
    });

    it('rejects negative fields and positions at or past the end of the log', () => {
      expect(() => OffsetIndex.parse(rawIndex([[-1, 10]]), 0, 10, 1000)).toThrow(CorruptIndexError);
      expect(() => OffsetIndex.parse(rawIndex([[1, -10]]), 0, 10, 1000)).toThrow(CorruptIndexError);
      expect(() => OffsetIndex.parse(rawIndex([[1, 1000]]), 0, 10, 1000)).toThrow(CorruptIndexError);
      expect(OffsetIndex.parse(rawIndex([[1, 999]]), 0, 10, 1000).entries).toBe(1);
    });

    it('loads a file with more entries than maxEntries (the setting shrank) and reports it full', () => {
      const parsed = OffsetIndex.parse(
        rawIndex([
          [1, 10],
          [2, 20],
          [3, 30],
        ]),
        0,
        2,
        1000,
      );
      expect(parsed.entries).toBe(3);
      expect(parsed.isFull()).toBe(true);
    });
  });
});

describe('an index without entries', () => {
  it('holds no arrays of its own (a segment indexes nothing before index.interval.bytes of log)', () => {
    const bytes = retainedBytesEach(30_000, (i) => [new OffsetIndex(i, 1_000), new TimeIndex(i, 1_000)]);
    // two index objects and the pair's array; with four 16-entry typed arrays of their own it was ~1.2 KB
    expect(bytes).toBeLessThan(400);
  });

  it('grows from nothing on its first entries, in both fields, up to maxEntries', () => {
    const index = new OffsetIndex(100, 40);
    for (let i = 0; i < 40; i++) index.append(100 + i * 2, i * 10);
    expect(index.isFull()).toBe(true);
    expect(index.lookup(100 + 39 * 2 + 1)).toEqual({ offset: 178, position: 390 });
    expect(index.lookup(117)).toEqual({ offset: 116, position: 80 });
    const times = new TimeIndex(0, 3);
    times.maybeAppend(5, 1);
    times.maybeAppend(9, 4);
    expect(times.lookup(6)).toEqual({ timestamp: 5, offset: 1 });
    expect(new TimeIndex(7, 3).lookup(6)).toEqual({ timestamp: -1, offset: 7 });
  });
});
