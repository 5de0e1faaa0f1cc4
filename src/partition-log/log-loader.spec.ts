import { appendFile, readdir, readFile, rm, stat, truncate as truncateFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendBatches, dir, open, opened, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchesOf, batchOf, batchOfValues, harness, readAll, T0 } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { LogSegment } from './log-segment.js';
import { readLogState, writeLogState } from './log-state-files.js';
import { PartitionLog } from './partition-log.js';
import { assignOffsetAndEpoch } from './record-batch.js';
import {
  CLEAN_SHUTDOWN_FILE,
  LEADER_EPOCH_CHECKPOINT_FILE,
  LOG_STATE_FILE,
  logFilePath,
  SNAPSHOT_SUFFIX,
  snapshotFilePath,
} from './segment-files.js';

useLogDir();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('PartitionLog', () => {
  describe('reopen', () => {
    it('after a clean close restores offsets, records, epochs, segments and the log start', async () => {
      const h = harness(dir, { segmentBytes: 500, indexIntervalBytes: 100, retentionBytes: 1500 });
      const log = await open(h);
      await appendBatches(log, 20, 3, 1, (i) => T0 + i);
      await appendBatches(log, 5, 2, 4, (i) => T0 + 100 + i);
      await log.applyRetention(log.logEndOffset);
      const before = {
        end: log.logEndOffset,
        start: log.logStartOffset,
        summaries: log.segmentSummaries(),
        epochs: log.epochs.all(),
        records: await readAll(log),
      };
      await log.close();
      expect((await readdir(dir)).sort()).toEqual(
        expect.arrayContaining([CLEAN_SHUTDOWN_FILE, LOG_STATE_FILE, LEADER_EPOCH_CHECKPOINT_FILE]),
      );

      const reopened = await open(h);
      expect(reopened.logEndOffset).toBe(before.end);
      expect(reopened.logStartOffset).toBe(before.start);
      expect(reopened.segmentSummaries()).toEqual(before.summaries);
      expect(reopened.epochs.all()).toEqual(before.epochs);
      expect(await readAll(reopened)).toEqual(before.records);
      expect(await readdir(dir)).not.toContain(CLEAN_SHUTDOWN_FILE);
      const info = await reopened.appendAsLeader(batchOf({ value: 'after' }), 4);
      expect(info.firstOffset).toBe(before.end);
    });

    it('after a clean close or a crash past only the active segment rewrites neither its state nor its epochs', async () => {
      const h = harness(dir, { segmentBytes: 500 });
      const log = await open(h);
      await appendBatches(log, 20, 3, 2);
      await log.close();
      // an atomic replace is a new file under the name: the inode tells whether it was written
      const inodes = async () =>
        Promise.all(
          [LOG_STATE_FILE, LEADER_EPOCH_CHECKPOINT_FILE].map(async (name) => (await stat(join(dir, name))).ino),
        );
      const closed = await inodes();
      const reopened = await open(h);
      expect(await inodes()).toEqual(closed);
      expect(reopened.logEndOffset).toBe(60);
      await appendBatches(reopened, 2, 3, 2);
      const beforeCrash = await inodes();
      const { recoveryPoint } = await readLogState(dir);
      expect(recoveryPoint).toBeLessThan(66);
      // kill -9: no close; the active segment's batches after the recovery point are re-scanned, and it stays past
      // the recovery point (not fsynced here, as in Kafka): the next crash re-scans it again
      const flushes = vi.spyOn(LogSegment.prototype, 'flush');
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(flushes).not.toHaveBeenCalled();
      expect(await inodes()).toEqual(beforeCrash);
      expect((await readLogState(dir)).recoveryPoint).toBe(recoveryPoint);
      expect(crashed.logEndOffset).toBe(66);
      expect(crashed.epochs.all()).toEqual([{ epoch: 2, startOffset: 0 }]);
      // the replayed batches are not idempotent: the producer state is the close's snapshot, none is written at 66
      const snapshots = (await readdir(dir)).filter((name) => name.endsWith(SNAPSHOT_SUFFIX));
      expect(snapshots).toContain(basename(snapshotFilePath(dir, 60)));
      expect(snapshots).not.toContain(basename(snapshotFilePath(dir, 66)));
    });

    it('after a crash fsyncs the re-scanned segments below the active one and moves the recovery point to it', async () => {
      const h = harness(dir, { segmentBytes: 500 });
      const log = await open(h);
      await appendBatches(log, 20, 3, 2);
      await log.rolledSegmentFlushed(); // the rolls' flushes, behind the appends, are done: the crash comes after them (LocalLog.roll)
      const bases = log.segmentSummaries().map((segment) => segment.baseOffset);
      expect(bases.length).toBeGreaterThan(2);
      // a state saved before the rolls: every segment is past the recovery point
      await writeLogState(dir, { logStartOffset: 0, recoveryPoint: 0, cleanerCheckpoint: 0 });
      const flushes = vi.spyOn(LogSegment.prototype, 'flush');
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      const flushed = flushes.mock.contexts.map((segment) => (segment as LogSegment).baseOffset);
      expect(flushed).toEqual(bases.slice(0, -1));
      expect((await readLogState(dir)).recoveryPoint).toBe(bases[bases.length - 1]);
      expect(crashed.logEndOffset).toBe(60);
    });

    it('after a crash (no close) recovers every written batch', async () => {
      const h = harness(dir, { segmentBytes: 500 });
      const log = await open(h);
      await appendBatches(log, 20, 3, 2);
      await log.rolledSegmentFlushed(); // the rolls' flushes, behind the appends, are done: the crash comes after them (LocalLog.roll)
      const records = await readAll(log);
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(crashed.logEndOffset).toBe(60);
      expect(await readAll(crashed)).toEqual(records);
      expect(crashed.epochs.all()).toEqual([{ epoch: 2, startOffset: 0 }]);
    });

    it('after a crash truncates a torn or garbage tail back to the last valid batch', async () => {
      const h = harness(dir);
      const log = await open(h);
      await appendBatches(log, 5, 3);
      const path = logFilePath(dir, 0);
      const validSize = (await stat(path)).size;
      await appendFile(path, Buffer.from('garbage that is not a batch at all, long enough to look like a header....'));
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(crashed.logEndOffset).toBe(15);
      expect((await stat(path)).size).toBe(validSize);

      const lastBatchSize = validSize / 5;
      await truncateFile(path, validSize - Math.floor(lastBatchSize / 2));
      const again = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(again);
      expect(again.logEndOffset).toBe(12);
      expect((await readAll(again)).map((record) => record.offset)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect((await again.appendAsLeader(batchOf({ value: 'next' }), 0)).firstOffset).toBe(12);
    });

    it('after a crash truncates at a hole: a later write landed and an earlier one did not, or only in part', async () => {
      const h = harness(dir);
      const log = await open(h);
      await appendBatches(log, 5, 3);
      const path = logFilePath(dir, 0);
      const file = await readFile(path);
      const batchBytes = file.length / 5;
      // the 4th batch's write never reached the file (zeros, as pwrite past the end leaves), the 5th's did
      const hole = Buffer.from(file);
      hole.fill(0, 3 * batchBytes, 4 * batchBytes);
      await writeFile(path, hole);
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(crashed.logEndOffset).toBe(9);
      expect((await stat(path)).size).toBe(3 * batchBytes);
      expect((await readAll(crashed)).map((record) => record.offset)).toEqual(Array.from({ length: 9 }, (_, i) => i));
      await crashed.close();

      // the 2nd batch torn (its first half landed), the 3rd whole after it
      const torn = Buffer.from(file.subarray(0, 3 * batchBytes));
      torn.fill(0, batchBytes + Math.floor(batchBytes / 2), 2 * batchBytes);
      await writeFile(path, torn);
      await rm(join(dir, CLEAN_SHUTDOWN_FILE), { force: true });
      const again = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(again);
      expect(again.logEndOffset).toBe(3);
      expect((await stat(path)).size).toBe(batchBytes);
      expect((await again.appendAsLeader(batchOf({ value: 'next' }), 0)).firstOffset).toBe(3);
    });

    it('after a crash drops a framed batch whose CRC fails (written while its CRC was being checked)', async () => {
      const h = harness(dir);
      const log = await open(h);
      await appendBatches(log, 2, 3);
      const path = logFilePath(dir, 0);
      const validSize = (await stat(path)).size;
      const corrupt = batchOfValues('c', 2);
      assignOffsetAndEpoch(corrupt, 6, 0);
      corrupt[corrupt.length - 1] ^= 0x01;
      await appendFile(path, corrupt);
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(crashed.logEndOffset).toBe(6);
      expect((await stat(path)).size).toBe(validSize);
    });

    it('rebuilds index files that are corrupt, even after a clean close', async () => {
      const h = harness(dir, { indexIntervalBytes: 50 });
      const log = await open(h);
      await appendBatches(log, 10, 2);
      await log.close();
      await writeFile(join(dir, '00000000000000000000.index'), Buffer.alloc(12));
      await writeFile(join(dir, '00000000000000000000.timeindex'), Buffer.alloc(7));
      const reopened = await open(h);
      expect(reopened.logEndOffset).toBe(20);
      for (let offset = 0; offset < 20; offset++) {
        expect(batchesOf((await reopened.read(offset, { maxBytes: 1 })).batches)[0].header.baseOffset).toBe(
          offset - (offset % 2),
        );
      }
    });

    it('segment.ms in record time still measures from the first batch after a clean reopen', async () => {
      const h = harness(dir, { segmentMs: 1000, indexIntervalBytes: 1 });
      const log = await open(h);
      await log.appendAsLeader(batchOf({ value: 'a', timestamp: T0 }), 0);
      await log.appendAsLeader(batchOf({ value: 'b', timestamp: T0 + 10 }), 0);
      await log.appendAsLeader(batchOf({ value: 'c', timestamp: T0 + 500 }), 0);
      await log.close();
      const reopened = await open(h);
      await reopened.appendAsLeader(batchOf({ value: 'd', timestamp: T0 + 1001 }), 0);
      expect(reopened.segmentCount).toBe(2);
    });
  });
});
