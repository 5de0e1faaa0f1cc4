import { describe, expect, it } from 'vitest';
import { appendBatches, dir, logFiles, open, useLogDir } from '../../test/support/partition-log-spec.js';
import { harness, readAll, T0 } from '../../test/support/log-fixtures.js';
import { OffsetOutOfRangeError } from './log-errors.js';

useLogDir();

describe('PartitionLog', () => {
  describe('retention', () => {
    it('retention.bytes deletes the oldest segments, moves the log start offset, and reads below it fail', async () => {
      const h = harness(dir, { segmentBytes: 400, retentionBytes: 1000 });
      const log = await open(h);
      await appendBatches(log, 30, 3, 1);
      const before = log.segmentSummaries();
      const decision = await log.applyRetention(log.logEndOffset);
      expect(decision.reason).toBe('retention-bytes');
      const after = log.segmentSummaries();
      expect(decision.deleteBaseOffsets).toEqual(
        before.slice(0, before.length - after.length).map((s) => s.baseOffset),
      );
      expect(after.reduce((sum, s) => sum + s.sizeBytes, 0)).toBeGreaterThanOrEqual(1000);
      expect(after.slice(1).reduce((sum, s) => sum + s.sizeBytes, 0)).toBeLessThan(1000);
      expect(log.logStartOffset).toBe(after[0].baseOffset);
      expect(await logFiles()).toHaveLength(after.length);
      await expect(log.read(log.logStartOffset - 1, { maxBytes: 100 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
      const records = await readAll(log);
      expect(records[0].offset).toBe(log.logStartOffset);
      expect(records.at(-1)?.offset).toBe(89);
      expect(log.epochs.all()).toEqual([{ epoch: 1, startOffset: log.logStartOffset }]);
      // The new log start survives a reopen.
      await log.close();
      const reopened = await open(h);
      expect(reopened.logStartOffset).toBe(after[0].baseOffset);
    });

    it('retention.ms deletes segments whose newest record is older than retention.ms', async () => {
      const h = harness(dir, { segmentBytes: 400, retentionMs: 60_000 });
      const log = await open(h);
      // Batch i is stamped T0 + i seconds.
      await appendBatches(log, 30, 3, 0, (i) => T0 + i * 1000);
      h.clock.advance(80_000); // now = T0 + 80 s: everything stamped before T0 + 20 s is expired
      const before = log.segmentSummaries();
      const decision = await log.applyRetention(log.logEndOffset);
      expect(decision.reason).toBe('retention-ms');
      const expected = before
        .slice(0, -1)
        .filter((s) => s.maxTimestampMs < T0 + 20_000)
        .map((s) => s.baseOffset);
      expect(expected.length).toBeGreaterThan(0);
      expect(decision.deleteBaseOffsets).toEqual(expected);
      expect(log.logStartOffset).toBe(log.segmentSummaries()[0].baseOffset);
    });

    it('never deletes at or above the high watermark, nor the active segment', async () => {
      const log = await open(harness(dir, { segmentBytes: 400, retentionBytes: 0 }));
      await appendBatches(log, 30, 3);
      const summaries = log.segmentSummaries();
      const highWatermark = summaries[3].baseOffset + 1; // inside the fourth segment
      const decision = await log.applyRetention(highWatermark);
      expect(decision.deleteBaseOffsets).toEqual(summaries.slice(0, 3).map((s) => s.baseOffset));
      await log.applyRetention(log.logEndOffset);
      expect(log.segmentCount).toBe(1);
      expect(log.logStartOffset).toBe(summaries.at(-1)!.baseOffset);
      expect((await readAll(log)).at(-1)?.offset).toBe(89);
    });
  });
});
