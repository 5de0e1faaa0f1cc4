import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendBatches, dir, logFiles, open, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchesOf, batchOf, batchOfValues, harness, readAll, recordsOf, T0 } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { OffsetOutOfRangeError } from './log-errors.js';
import { readLogState } from './log-state-files.js';
import { decodeProducerSnapshot } from './producer-snapshot.js';
import { hasValidCrc } from './record-batch.js';
import { LOG_STATE_FILE, snapshotFilePath } from './segment-files.js';

useLogDir();
afterEach(() => {
  vi.restoreAllMocks();
});

/** A pool whose handles' fsyncs (the segments' .log files) each record the file's name, then wait for `held`. */
function heldSyncPool(synced: string[], held: Promise<void>): FileHandlePool {
  class HeldSyncPool extends FileHandlePool {
    override withHandle<T>(path: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
      return super.withHandle(path, (handle) =>
        use(
          new Proxy(handle, {
            get: (target, key) => {
              if (key === 'sync') {
                return async () => {
                  synced.push(basename(path));
                  await held;
                  return target.sync();
                };
              }
              const value: unknown = Reflect.get(target, key);
              return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
            },
          }),
        ),
      );
    }
  }
  return new HeldSyncPool(64);
}

describe('PartitionLog', () => {
  describe('append and read', () => {
    it('assigns contiguous offsets and reads back whole batches with their records', async () => {
      const log = await open(harness(dir));
      expect(log.logEndOffset).toBe(0);
      const first = await log.appendAsLeader(batchOf({ key: 'k', value: 'a' }, { value: 'b' }, { value: null }), 0);
      const second = await log.appendAsLeader(batchOf({ value: 'c' }), 0);
      expect(first).toMatchObject({ firstOffset: 0, lastOffset: 2, recordCount: 3, logAppendTimeMs: -1 });
      expect(second).toMatchObject({ firstOffset: 3, lastOffset: 3, recordCount: 1 });
      expect(log.logEndOffset).toBe(4);

      const { batches, nextOffset } = await log.read(0, { maxBytes: 1 << 20 });
      expect(nextOffset).toBe(4);
      const read = batchesOf(batches);
      expect(read.map((batch) => batch.header.baseOffset)).toEqual([0, 3]);
      const firstSize = read[0].header.sizeBytes;
      expect(hasValidCrc(batches.subarray(0, firstSize))).toBe(true);
      expect(hasValidCrc(batches.subarray(firstSize))).toBe(true);
      const records = recordsOf(batches);
      expect(records.map((record) => record.offset)).toEqual([0, 1, 2, 3]);
      expect(records[0].key?.toString()).toBe('k');
      expect(records.map((record) => record.value?.toString() ?? null)).toEqual(['a', 'b', null, 'c']);
    });

    it('reads from the batch holding the requested offset', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 3, 4); // offsets 0-3, 4-7, 8-11
      const { batches, nextOffset } = await log.read(6, { maxBytes: 1 << 20 });
      expect(batchesOf(batches)[0].header.baseOffset).toBe(4);
      expect(nextOffset).toBe(12);
    });

    it('rolls segments at segment.bytes and reads across them', async () => {
      const log = await open(harness(dir, { segmentBytes: 400, indexIntervalBytes: 100 }));
      await appendBatches(log, 30, 3);
      expect(log.segmentCount).toBeGreaterThan(5);
      expect(await logFiles()).toHaveLength(log.segmentCount);
      for (const summary of log.segmentSummaries()) expect(summary.sizeBytes).toBeLessThanOrEqual(400);
      const records = await readAll(log);
      expect(records.map((record) => record.offset)).toEqual(Array.from({ length: 90 }, (_, i) => i));
      expect(records[89].value?.toString()).toBe('b29-2');
      // Every offset can be read from directly, including each segment's base.
      for (let offset = 0; offset < 90; offset++) {
        const { batches } = await log.read(offset, { maxBytes: 1 });
        const [batch] = batchesOf(batches);
        expect(batch.header.baseOffset).toBe(offset - (offset % 3));
      }
      // A segment's files are named by its base offset, zero-padded to 20 digits.
      expect((await logFiles())[1]).toBe(`${String(log.segmentSummaries()[1].baseOffset).padStart(20, '0')}.log`);
    });

    it('answers the appends after a roll while the closed segment is fsynced; the recovery point waits for it', async () => {
      // every fsync of a .log file waits until the test lets it go
      let letSyncsGo!: () => void;
      const syncsHeld = new Promise<void>((resolve) => (letSyncsGo = resolve));
      const synced: string[] = [];
      const log = await open(harness(dir, { segmentBytes: 400 }, heldSyncPool(synced, syncsHeld)));
      let i = 0;
      while (log.segmentCount === 1) await log.appendAsLeader(batchOfValues(`b${i++}`, 3), 0);
      // the roll's fsync of the first segment has not returned, and the append that rolled was answered
      expect(synced).toEqual(['00000000000000000000.log']);
      const rolledAt = log.segmentSummaries()[1].baseOffset;
      const after = await log.appendAsLeader(batchOfValues('after', 3), 0);
      expect(after.firstOffset).toBeGreaterThanOrEqual(rolledAt);
      expect(log.segmentCount).toBe(2);
      // the recovery point does not pass the segment before it is durable
      expect((await readLogState(dir)).recoveryPoint).toBe(0);
      letSyncsGo();
      await log.rolledSegmentFlushed();
      expect((await readLogState(dir)).recoveryPoint).toBe(rolledAt);
      expect((await readAll(log)).length).toBe(3 * (i + 1));
    });

    it('fsyncs the producer snapshot of a roll behind the appends that follow, before the recovery point moves', async () => {
      // the segments' fsyncs wait until the test lets them go; every fsync through fs.promises is recorded by path
      let letSyncsGo!: () => void;
      const syncsHeld = new Promise<void>((resolve) => (letSyncsGo = resolve));
      const synced: string[] = [];
      const log = await open(harness(dir, { segmentBytes: 400 }, heldSyncPool(synced, syncsHeld)));
      const paths = new WeakMap<object, string>();
      const openFile = fsp.open.bind(fsp);
      vi.spyOn(fsp, 'open').mockImplementation(async (path, ...rest) => {
        const handle = await openFile(path, ...rest);
        paths.set(handle, String(path));
        return handle;
      });
      const probe = await fsp.open(join(dir, 'probe'), 'w');
      const handlePrototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
      await probe.close();
      const sync = handlePrototype.sync;
      vi.spyOn(handlePrototype, 'sync').mockImplementation(function (this: FileHandle) {
        synced.push(paths.get(this) ?? '(pool)');
        return sync.call(this);
      });
      let i = 0;
      while (log.segmentCount === 1) await log.appendAsLeader(batchOfValues(`b${i++}`, 3), 0);
      const rolledAt = log.segmentSummaries()[1].baseOffset;
      const snapshot = snapshotFilePath(dir, rolledAt);
      try {
        await log.appendAsLeader(batchOfValues('after', 3), 0);
        // the roll wrote the snapshot and the appends went on; neither it nor the folder has been fsynced yet
        expect(decodeProducerSnapshot(await fsp.readFile(snapshot))).toEqual([]);
        expect(synced.filter((name) => name === snapshot || name.startsWith(`${snapshot}.`) || name === dir)).toEqual(
          [],
        );
      } finally {
        letSyncsGo();
      }
      await log.rolledSegmentFlushed();
      // the snapshot, then the folder (its rename), both before the state file that moves the recovery point
      const stateFile = synced.findIndex((name) => name.startsWith(join(dir, LOG_STATE_FILE)));
      expect(synced.indexOf(snapshot)).toBeGreaterThan(-1);
      expect(synced.indexOf(dir, synced.indexOf(snapshot))).toBeGreaterThan(synced.indexOf(snapshot));
      expect(stateFile).toBeGreaterThan(synced.indexOf(dir, synced.indexOf(snapshot)));
      expect((await readLogState(dir)).recoveryPoint).toBe(rolledAt);
    });

    it('one read returns batches from one segment only', async () => {
      const log = await open(harness(dir, { segmentBytes: 300 }));
      await appendBatches(log, 10, 3);
      const [, second] = log.segmentSummaries();
      const { batches, nextOffset } = await log.read(0, { maxBytes: 1 << 20 });
      expect(nextOffset).toBe(second.baseOffset);
      expect(recordsOf(batches).at(-1)?.offset).toBe(second.baseOffset - 1);
    });

    it('maxBytes smaller than a batch: the first batch whole with minOneBatch, nothing without', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 3, 5);
      const withOne = await log.read(0, { maxBytes: 10 });
      expect(batchesOf(withOne.batches)).toHaveLength(1);
      expect(withOne.nextOffset).toBe(5);
      for (const maxBytes of [0, 10, 60, 61, 80]) {
        const without = await log.read(0, { maxBytes, minOneBatch: false });
        expect(without.batches.length).toBe(0);
        expect(without.nextOffset).toBe(0);
      }
    });

    it('maxBytes covering one and a half batches returns only the whole one', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 3, 5);
      const { batches: all } = await log.read(0, { maxBytes: 1 << 20 });
      const size = batchesOf(all)[0].header.sizeBytes;
      const { batches, nextOffset } = await log.read(0, { maxBytes: Math.floor(size * 1.5) });
      expect(batches.length).toBe(size);
      expect(nextOffset).toBe(5);
      const two = await log.read(0, { maxBytes: size * 2, minOneBatch: false });
      expect(two.nextOffset).toBe(10);
    });

    it('never returns a batch at or past maxOffsetExclusive', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 4, 5); // 0-4, 5-9, 10-14, 15-19
      expect((await log.read(0, { maxBytes: 1 << 20, maxOffsetExclusive: 10 })).nextOffset).toBe(10);
      expect((await log.read(0, { maxBytes: 1 << 20, maxOffsetExclusive: 12 })).nextOffset).toBe(10);
      expect((await log.read(0, { maxBytes: 1 << 20, maxOffsetExclusive: 1000 })).nextOffset).toBe(20);
      // The batch holding the start offset crosses the bound: nothing.
      const straddling = await log.read(11, { maxBytes: 1 << 20, maxOffsetExclusive: 12 });
      expect(straddling).toEqual({ batches: Buffer.alloc(0), nextOffset: 11 });
      expect((await log.read(10, { maxBytes: 1 << 20, maxOffsetExclusive: 10 })).batches.length).toBe(0);
      // minOneBatch does not override the bound.
      expect((await log.read(5, { maxBytes: 1, maxOffsetExclusive: 7 })).batches.length).toBe(0);
    });

    it('reads at the log end return nothing; outside [logStart, logEnd] throw OffsetOutOfRangeError', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 2, 2);
      expect(await log.read(4, { maxBytes: 100 })).toEqual({ batches: Buffer.alloc(0), nextOffset: 4 });
      await expect(log.read(5, { maxBytes: 100 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
      await expect(log.read(-1, { maxBytes: 100 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
    });
  });

  describe('offsetForTimestamp', () => {
    // 40 batches of 2 records over several segments; batch i carries T0 + 10 i and T0 + 10 i + 5.
    async function timedLog(overrides = {}) {
      const h = harness(dir, { segmentBytes: 800, indexIntervalBytes: 150, ...overrides });
      const log = await open(h);
      for (let i = 0; i < 40; i++) {
        await log.appendAsLeader(
          batchOf({ value: `a${i}`, timestamp: T0 + 10 * i }, { value: `b${i}`, timestamp: T0 + 10 * i + 5 }),
          0,
        );
      }
      return { h, log };
    }

    it('finds the first offset with a timestamp at or after the target', async () => {
      const { log } = await timedLog();
      expect(log.segmentCount).toBeGreaterThan(2);
      expect(await log.offsetForTimestamp(0)).toBe(0);
      expect(await log.offsetForTimestamp(T0)).toBe(0);
      expect(await log.offsetForTimestamp(T0 + 1)).toBe(1);
      expect(await log.offsetForTimestamp(T0 + 5)).toBe(1);
      expect(await log.offsetForTimestamp(T0 + 6)).toBe(2);
      for (let i = 0; i < 40; i++) {
        expect(await log.offsetForTimestamp(T0 + 10 * i)).toBe(2 * i);
        expect(await log.offsetForTimestamp(T0 + 10 * i + 3)).toBe(2 * i + 1);
        expect(await log.offsetForTimestamp(T0 + 10 * i + 7)).toBe(i === 39 ? null : 2 * i + 2);
      }
      expect(await log.offsetForTimestamp(T0 + 1000)).toBeNull();
    });

    it('gives the same answers after a clean reopen (indexes loaded from disk)', async () => {
      const { h, log } = await timedLog();
      await log.close();
      const reopened = await open(h);
      for (let i = 0; i < 40; i++) {
        expect(await reopened.offsetForTimestamp(T0 + 10 * i + 3)).toBe(2 * i + 1);
      }
    });

    it('finds a record behind a later timestamp (timestamps out of order)', async () => {
      const log = await open(harness(dir, { indexIntervalBytes: 1 }));
      await log.appendAsLeader(batchOf({ value: 'a', timestamp: T0 + 100 }), 0);
      await log.appendAsLeader(batchOf({ value: 'b', timestamp: T0 + 50 }), 0);
      await log.appendAsLeader(batchOf({ value: 'c', timestamp: T0 + 200 }), 0);
      await log.appendAsLeader(batchOf({ value: 'd', timestamp: T0 + 150 }), 0);
      expect(await log.offsetForTimestamp(T0 + 60)).toBe(0);
      expect(await log.offsetForTimestamp(T0 + 120)).toBe(2);
      expect(await log.offsetForTimestamp(T0 + 150)).toBe(2);
      expect(await log.offsetForTimestamp(T0 + 201)).toBeNull();
    });

    it('never answers below the log start offset', async () => {
      const { log } = await timedLog({ retentionBytes: 1 });
      await log.applyRetention(log.logEndOffset);
      expect(log.logStartOffset).toBeGreaterThan(0);
      expect(await log.offsetForTimestamp(0)).toBe(log.logStartOffset);
    });
  });
});
