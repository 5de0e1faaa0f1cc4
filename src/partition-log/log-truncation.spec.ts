import { describe, expect, it } from 'vitest';
import { appendBatches, dir, logFiles, open, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchOf, harness, readAll, valuesOf } from '../../test/support/log-fixtures.js';
import { OffsetOutOfRangeError } from './log-errors.js';

useLogDir();

describe('PartitionLog', () => {
  describe('truncation', () => {
    it('truncateTo removes the batch holding the offset and everything after; appends continue from there', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 4, 5, 1); // 0-4, 5-9, 10-14, 15-19
      await log.truncateTo(12);
      expect(log.logEndOffset).toBe(10);
      expect((await readAll(log)).map((record) => record.offset)).toEqual(Array.from({ length: 10 }, (_, i) => i));
      const info = await log.appendAsLeader(batchOf({ value: 'new' }), 2);
      expect(info.firstOffset).toBe(10);
      const records = await readAll(log);
      expect(records.at(-1)).toMatchObject({ offset: 10 });
      expect(records.at(-1)?.value?.toString()).toBe('new');
    });

    it('truncateTo at a batch boundary keeps the batch before; above the end is a no-op', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 4, 5);
      await log.truncateTo(100);
      expect(log.logEndOffset).toBe(20);
      await log.truncateTo(20);
      expect(log.logEndOffset).toBe(20);
      await log.truncateTo(15);
      expect(log.logEndOffset).toBe(15);
    });

    it('truncateTo across segments deletes later segment files and forgets later epochs', async () => {
      const log = await open(harness(dir, { segmentBytes: 400 }));
      await appendBatches(log, 10, 3, 1);
      await appendBatches(log, 10, 3, 2);
      const epoch2Start = log.epochs.all()[1].startOffset;
      expect(epoch2Start).toBe(30);
      const segmentsBefore = log.segmentCount;
      await log.truncateTo(25);
      expect(log.logEndOffset).toBe(24);
      expect(log.segmentCount).toBeLessThan(segmentsBefore);
      expect(await logFiles()).toHaveLength(log.segmentCount);
      expect(log.epochs.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
      expect((await readAll(log)).length).toBe(24);
      await appendBatches(log, 5, 3, 3);
      expect((await readAll(log)).map((record) => record.offset)).toEqual(Array.from({ length: 39 }, (_, i) => i));
    });

    it('truncateTo a segment base offset removes that segment', async () => {
      const log = await open(harness(dir, { segmentBytes: 300 }));
      await appendBatches(log, 10, 3);
      const base = log.segmentSummaries()[2].baseOffset;
      await log.truncateTo(base);
      expect(log.logEndOffset).toBe(base);
      expect(log.segmentCount).toBe(2);
      await log.appendAsLeader(batchOf({ value: 'x' }), 0);
      expect((await readAll(log)).map((record) => record.offset)).toEqual(
        Array.from({ length: base + 1 }, (_, i) => i),
      );
    });

    it('truncateTo at or below the log start empties the log at that offset', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 2, 3, 4);
      await log.truncateTo(0);
      expect(log.logEndOffset).toBe(0);
      expect(log.logStartOffset).toBe(0);
      expect(log.epochs.all()).toEqual([]);
      expect(await log.read(0, { maxBytes: 100 })).toEqual({ batches: Buffer.alloc(0), nextOffset: 0 });
    });

    it('truncateFullyAndStartAt drops everything and starts empty at the offset', async () => {
      const h = harness(dir, { segmentBytes: 300 });
      const log = await open(h);
      await appendBatches(log, 10, 3, 2);
      await log.truncateFullyAndStartAt(1000);
      expect(log.logStartOffset).toBe(1000);
      expect(log.logEndOffset).toBe(1000);
      expect(log.segmentCount).toBe(1);
      expect(await logFiles()).toEqual([`${String(1000).padStart(20, '0')}.log`]);
      expect(log.epochs.all()).toEqual([]);
      await expect(log.read(999, { maxBytes: 100 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
      expect((await log.read(1000, { maxBytes: 100 })).batches.length).toBe(0);
      const info = await log.appendAsLeader(batchOf({ value: 'restart' }), 3);
      expect(info.firstOffset).toBe(1000);
      expect(log.epochs.all()).toEqual([{ epoch: 3, startOffset: 1000 }]);
      await log.close();
      const reopened = await open(h);
      expect(reopened.logStartOffset).toBe(1000);
      expect(reopened.logEndOffset).toBe(1001);
      expect(valuesOf((await reopened.read(1000, { maxBytes: 100 })).batches)).toEqual(['restart']);
    });
  });
});
