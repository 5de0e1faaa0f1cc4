import { describe, expect, it } from 'vitest';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';
import { LeaderEpochCache, UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET } from './leader-epoch-cache.js';

const UNDEFINED = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };

function cacheOf(...entries: Array<[epoch: number, startOffset: number]>): LeaderEpochCache {
  return new LeaderEpochCache(entries.map(([epoch, startOffset]) => ({ epoch, startOffset })));
}

describe('LeaderEpochCache', () => {
  describe('assign', () => {
    it('records each new epoch with its first offset', () => {
      const cache = new LeaderEpochCache();
      expect(cache.latestEpoch()).toBe(UNDEFINED_EPOCH);
      expect(cache.assign(1, 0)).toBe(true);
      expect(cache.assign(3, 10)).toBe(true);
      expect(cache.all()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 3, startOffset: 10 },
      ]);
      expect(cache.latestEpoch()).toBe(3);
    });

    it('ignores the latest epoch again and epochs that go backwards', () => {
      const cache = cacheOf([2, 0], [4, 10]);
      expect(cache.assign(4, 20)).toBe(false);
      expect(cache.assign(3, 30)).toBe(false);
      expect(cache.all()).toEqual([
        { epoch: 2, startOffset: 0 },
        { epoch: 4, startOffset: 10 },
      ]);
    });

    it('drops entries whose start offset is at or above a newer epoch start (a leader rewrote that range)', () => {
      const cache = cacheOf([1, 0], [2, 10], [3, 20]);
      expect(cache.assign(5, 10)).toBe(true);
      expect(cache.all()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 5, startOffset: 10 },
      ]);
    });

    it('does not share its entries array with callers', () => {
      const entries = [{ epoch: 1, startOffset: 0 }];
      const cache = new LeaderEpochCache(entries);
      entries.push({ epoch: 9, startOffset: 99 });
      cache.all().push({ epoch: 8, startOffset: 88 });
      expect(cache.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
    });
  });

  // Kafka's LeaderEpochFileCache.endOffsetFor, case by case.
  describe('endOffsetFor', () => {
    const cache = cacheOf([2, 5], [4, 20], [7, 42]);
    const logEnd = 60;

    it('answers UNDEFINED for an empty cache', () => {
      expect(new LeaderEpochCache().endOffsetFor(0, logEnd)).toEqual(UNDEFINED);
      expect(new LeaderEpochCache().endOffsetFor(3, logEnd)).toEqual(UNDEFINED);
    });

    it('answers UNDEFINED for the undefined epoch', () => {
      expect(cache.endOffsetFor(UNDEFINED_EPOCH, logEnd)).toEqual(UNDEFINED);
    });

    it('answers the log end offset for the latest epoch', () => {
      expect(cache.endOffsetFor(7, logEnd)).toEqual({ epoch: 7, endOffset: logEnd });
    });

    it('answers the next epoch start offset for a known earlier epoch', () => {
      expect(cache.endOffsetFor(2, logEnd)).toEqual({ epoch: 2, endOffset: 20 });
      expect(cache.endOffsetFor(4, logEnd)).toEqual({ epoch: 4, endOffset: 42 });
    });

    it('answers the largest epoch below the request and the next start offset between epochs', () => {
      expect(cache.endOffsetFor(3, logEnd)).toEqual({ epoch: 2, endOffset: 20 });
      expect(cache.endOffsetFor(5, logEnd)).toEqual({ epoch: 4, endOffset: 42 });
      expect(cache.endOffsetFor(6, logEnd)).toEqual({ epoch: 4, endOffset: 42 });
    });

    it('answers the requested epoch and the first start offset below the first epoch', () => {
      expect(cache.endOffsetFor(0, logEnd)).toEqual({ epoch: 0, endOffset: 5 });
      expect(cache.endOffsetFor(1, logEnd)).toEqual({ epoch: 1, endOffset: 5 });
    });

    it('answers UNDEFINED above the latest epoch', () => {
      expect(cache.endOffsetFor(8, logEnd)).toEqual(UNDEFINED);
      expect(cache.endOffsetFor(1000, logEnd)).toEqual(UNDEFINED);
    });

    it('with a single epoch: latest, below and above', () => {
      const single = cacheOf([3, 0]);
      expect(single.endOffsetFor(3, 9)).toEqual({ epoch: 3, endOffset: 9 });
      expect(single.endOffsetFor(2, 9)).toEqual({ epoch: 2, endOffset: 0 });
      expect(single.endOffsetFor(4, 9)).toEqual(UNDEFINED);
    });
  });

  describe('truncateFromEnd', () => {
    it('forgets epochs starting at or after the end offset', () => {
      const cache = cacheOf([1, 0], [2, 10], [3, 20]);
      expect(cache.truncateFromEnd(10)).toBe(true);
      expect(cache.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
    });

    it('keeps an epoch that starts below the end offset, and reports no change when nothing goes', () => {
      const cache = cacheOf([1, 0], [2, 10]);
      expect(cache.truncateFromEnd(11)).toBe(false);
      expect(cache.truncateFromEnd(100)).toBe(false);
      expect(cache.all()).toHaveLength(2);
    });

    it('empties the cache when truncating to its first start offset', () => {
      const cache = cacheOf([1, 5], [2, 10]);
      expect(cache.truncateFromEnd(5)).toBe(true);
      expect(cache.all()).toEqual([]);
      expect(cache.latestEpoch()).toBe(UNDEFINED_EPOCH);
    });
  });

  describe('truncateFromStart', () => {
    it('moves the covering epoch to the new start and forgets older ones', () => {
      const cache = cacheOf([1, 0], [2, 10], [3, 20]);
      expect(cache.truncateFromStart(15)).toBe(true);
      expect(cache.all()).toEqual([
        { epoch: 2, startOffset: 15 },
        { epoch: 3, startOffset: 20 },
      ]);
    });

    it('keeps an epoch that starts exactly at the new start', () => {
      const cache = cacheOf([1, 0], [2, 10], [3, 20]);
      expect(cache.truncateFromStart(20)).toBe(true);
      expect(cache.all()).toEqual([{ epoch: 3, startOffset: 20 }]);
    });

    it('past the last epoch start keeps the last epoch at the new start', () => {
      const cache = cacheOf([1, 0], [2, 10]);
      expect(cache.truncateFromStart(50)).toBe(true);
      expect(cache.all()).toEqual([{ epoch: 2, startOffset: 50 }]);
    });

    it('changes nothing below the first epoch or exactly at it', () => {
      const cache = cacheOf([1, 5], [2, 10]);
      expect(cache.truncateFromStart(3)).toBe(false);
      expect(cache.truncateFromStart(5)).toBe(false);
      expect(cache.all()).toEqual([
        { epoch: 1, startOffset: 5 },
        { epoch: 2, startOffset: 10 },
      ]);
    });

    it('clear forgets everything', () => {
      const cache = cacheOf([1, 5]);
      cache.clear();
      expect(cache.all()).toEqual([]);
    });
  });

  describe('serialize and parse', () => {
    it("writes Kafka's text layout: version, count, one `epoch offset` line each", () => {
      expect(cacheOf([1, 0], [4, 1234]).serialize()).toBe('0\n2\n1 0\n4 1234\n');
      expect(new LeaderEpochCache().serialize()).toBe('0\n0\n');
    });

    it('round-trips', () => {
      for (const cache of [new LeaderEpochCache(), cacheOf([0, 0]), cacheOf([1, 0], [3, 17], [9, 9_000_000_000])]) {
        expect(LeaderEpochCache.parse(cache.serialize()).all()).toEqual(cache.all());
      }
    });

    it('rejects an unknown version, a wrong count, bad lines and out-of-order entries', () => {
      expect(() => LeaderEpochCache.parse('1\n0\n')).toThrow(/version/);
      expect(() => LeaderEpochCache.parse('')).toThrow(/version/);
      expect(() => LeaderEpochCache.parse('0\n2\n1 0\n')).toThrow(/count/);
      expect(() => LeaderEpochCache.parse('0\n1\n1 x\n')).toThrow(/bad/);
      expect(() => LeaderEpochCache.parse('0\n2\n3 0\n2 10\n')).toThrow(/order/);
      expect(() => LeaderEpochCache.parse('0\n2\n2 10\n3 5\n')).toThrow(/order/);
    });
  });
});

describe('the footprint of a partition led in one epoch (a broker hosts thousands)', () => {
  it('holds its entries in an array of their length', () => {
    const bytes = retainedBytesEach(30_000, (i) => {
      const cache = new LeaderEpochCache();
      cache.assign(1, i);
      return cache;
    });
    // the cache, its array and one entry; an array pushed to had room for 16 more: ~250
    expect(bytes).toBeLessThan(210);
  });
});
