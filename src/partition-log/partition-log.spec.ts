import { appendFile, readdir, readFile, stat, truncate as truncateFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  batchesOf,
  batchOf,
  batchOfValues,
  CountingPool,
  writeCalls,
  harness,
  makeTempDir,
  readAll,
  recordsOf,
  removeDir,
  T0,
  valuesOf,
} from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { UNDEFINED_EPOCH } from './leader-epoch-cache.js';
import { OffsetOutOfRangeError, RecordTooLargeError, UnexpectedOffsetError } from './log-errors.js';
import { PartitionLog } from './partition-log.js';
import { assignOffsetAndEpoch, hasValidCrc, TimestampType, timestampTypeOf } from './record-batch.js';
import { CLEAN_SHUTDOWN_FILE, LEADER_EPOCH_CHECKPOINT_FILE, LOG_STATE_FILE, logFilePath } from './segment-files.js';

let dir: string;
const opened: PartitionLog[] = [];

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  for (const log of opened.splice(0)) await log.close().catch(() => undefined);
  await removeDir(dir);
});

async function open(h: { open(): Promise<PartitionLog> }): Promise<PartitionLog> {
  const log = await h.open();
  opened.push(log);
  return log;
}

/** Appends `batches` batches of `perBatch` records one after another; values are `b<i>-<j>`. */
async function appendBatches(
  log: PartitionLog,
  batches: number,
  perBatch: number,
  epoch = 0,
  timestamp?: (i: number) => number,
) {
  const infos = [];
  for (let i = 0; i < batches; i++) {
    infos.push(await log.appendAsLeader(batchOfValues(`b${i}`, perBatch, timestamp?.(i)), epoch));
  }
  return infos;
}

async function logFiles(): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
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

  describe('appendAsLeader validation', () => {
    it('refuses a batch over max.message.bytes and writes nothing', async () => {
      const log = await open(harness(dir, { maxMessageBytes: 200 }));
      await log.appendAsLeader(batchOf({ value: 'small' }), 0);
      const big = batchOf({ value: 'x'.repeat(300) });
      await expect(async () => log.appendAsLeader(big, 0)).rejects.toBeInstanceOf(RecordTooLargeError);
      expect(log.logEndOffset).toBe(1);
      const next = await log.appendAsLeader(batchOf({ value: 'again' }), 0);
      expect(next.firstOffset).toBe(1);
      expect(valuesOf((await log.read(0, { maxBytes: 1 << 20 })).batches)).toEqual(['small', 'again']);
    });

    it('accepts a batch of exactly max.message.bytes', async () => {
      const batch = batchOf({ value: 'x'.repeat(100) });
      const log = await open(harness(dir, { maxMessageBytes: batch.length }));
      await expect(log.appendAsLeader(batch, 0)).resolves.toMatchObject({ firstOffset: 0 });
    });

    it('refuses a corrupt batch', async () => {
      const log = await open(harness(dir));
      const batch = batchOf({ value: 'v' });
      batch[batch.length - 1] ^= 0xff;
      await expect(async () => log.appendAsLeader(batch, 0)).rejects.toThrow(/CRC/);
      expect(log.logEndOffset).toBe(0);
    });

    it('checks the CRC while writing: a corrupt batch in a tick is refused (never in the file), the others get dense offsets', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, {}, pool));
      await log.appendAsLeader(batchOf({ value: 'before' }), 0);
      const sizeBefore = (await stat(logFilePath(dir, 0))).size;
      pool.reset();
      const batches = ['a', 'b', 'c', 'd'].map((value) => batchOf({ value }));
      batches[1][batches[1].length - 1] ^= 0xff;
      const outcomes = await Promise.allSettled(batches.map((batch) => log.appendAsLeader(batch, 0)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/CRC mismatch/);
      const offsets = outcomes.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? [outcome.value.firstOffset] : [],
      );
      expect(offsets).toEqual([1, 2, 3]);
      // written (or, natively, checked and refused) once with the corrupt batch, then once without it
      expect(writeCalls(pool.calls.get(logFilePath(dir, 0))!)).toBe(2);
      expect(log.logEndOffset).toBe(4);
      expect((await readAll(log)).map((record) => [record.offset, record.value?.toString()])).toEqual([
        [0, 'before'],
        [1, 'a'],
        [2, 'c'],
        [3, 'd'],
      ]);
      const sizeAfter = (await stat(logFilePath(dir, 0))).size;
      expect(sizeAfter - sizeBefore).toBe(batches[0].length + batches[2].length + batches[3].length);
      expect(await log.appendAsLeader(batchOf({ value: 'e' }), 0)).toMatchObject({ firstOffset: 4 });
    });

    it('a corrupt first batch of a new epoch leaves no epoch entry; the next append of that epoch makes it', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 1, 2, 1);
      const corrupt = batchOf({ value: 'x' });
      corrupt[corrupt.length - 1] ^= 0x01;
      await expect(log.appendAsLeader(corrupt, 2)).rejects.toThrow(/CRC/);
      expect(log.epochs.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
      expect(await readFile(join(dir, LEADER_EPOCH_CHECKPOINT_FILE), 'utf8')).toBe('0\n1\n1 0\n');
      await log.appendAsLeader(batchOf({ value: 'y' }), 2);
      expect(log.epochs.all()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 2, startOffset: 2 },
      ]);
    });

    it('under LogAppendTime checks the CRC before stamping (the stamp writes a new one)', async () => {
      const log = await open(harness(dir, { messageTimestampType: TimestampType.LogAppendTime }));
      const batch = batchOf({ value: 'v' });
      batch[batch.length - 1] ^= 0xff;
      await expect(async () => log.appendAsLeader(batch, 0)).rejects.toThrow(/CRC/);
      expect(hasValidCrc(batch)).toBe(false);
      expect(log.logEndOffset).toBe(0);
    });
  });

  describe('group commit', () => {
    it('writes the appends of one tick with exactly one writev', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, {}, pool));
      const appends = Array.from({ length: 50 }, (_, i) => log.appendAsLeader(batchOf({ value: `v${i}` }), 0));
      const infos = await Promise.all(appends);
      expect(infos.map((info) => info.firstOffset)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(writeCalls(pool.calls.get(logFilePath(dir, 0))!)).toBe(1);
      expect(valuesOf((await log.read(0, { maxBytes: 1 << 20 })).batches)).toEqual(infos.map((_, i) => `v${i}`));
    });

    it('writes appends of separate ticks separately', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, {}, pool));
      for (let i = 0; i < 5; i++) await log.appendAsLeader(batchOf({ value: `v${i}` }), 0);
      expect(writeCalls(pool.calls.get(logFilePath(dir, 0))!)).toBe(5);
    });

    it('splits one tick of appends across a roll: one write per segment', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, { segmentBytes: 1000 }, pool));
      const appends = Array.from({ length: 30 }, (_, i) => log.appendAsLeader(batchOf({ value: `value-${i}` }), 0));
      await Promise.all(appends);
      expect(log.segmentCount).toBeGreaterThan(1);
      for (const summary of log.segmentSummaries()) {
        const calls = pool.calls.get(logFilePath(dir, summary.baseOffset))!;
        expect(writeCalls(calls)).toBe(1);
      }
      expect((await readAll(log)).map((record) => record.value?.toString())).toEqual(
        Array.from({ length: 30 }, (_, i) => `value-${i}`),
      );
    });
  });

  describe('flush', () => {
    it('flush.messages=1 fsyncs after every append', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, { flushMessages: 1 }, pool));
      for (let i = 0; i < 4; i++) await log.appendAsLeader(batchOf({ value: `v${i}` }), 0);
      expect(pool.calls.get(logFilePath(dir, 0))?.sync).toBe(4);
    });

    it('flush.messages=3 fsyncs once three records are unflushed', async () => {
      const pool = new CountingPool(16);
      const log = await open(harness(dir, { flushMessages: 3 }, pool));
      await log.appendAsLeader(batchOf({ value: 'a' }), 0);
      await log.appendAsLeader(batchOf({ value: 'b' }), 0);
      expect(pool.calls.get(logFilePath(dir, 0))?.sync ?? 0).toBe(0);
      await log.appendAsLeader(batchOf({ value: 'c' }), 0);
      expect(pool.calls.get(logFilePath(dir, 0))?.sync).toBe(1);
    });

    it('the default settings do not fsync on append, only on flush.ms via flushIfTimeElapsed', async () => {
      const pool = new CountingPool(16);
      const h = harness(dir, { flushMs: 1000 }, pool);
      const log = await open(h);
      await log.appendAsLeader(batchOf({ value: 'a' }), 0);
      await log.flushIfTimeElapsed();
      expect(pool.calls.get(logFilePath(dir, 0))?.sync ?? 0).toBe(0);
      h.clock.advance(1000);
      await log.flushIfTimeElapsed();
      expect(pool.calls.get(logFilePath(dir, 0))?.sync).toBe(1);
    });
  });

  describe('leader epochs', () => {
    it('records the first offset of each new epoch from leader appends, and persists it', async () => {
      const h = harness(dir);
      const log = await open(h);
      await appendBatches(log, 2, 2, 1); // epoch 1: 0..3
      await appendBatches(log, 1, 3, 3); // epoch 3: 4..6
      await appendBatches(log, 1, 1, 3);
      expect(log.epochs.all()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 3, startOffset: 4 },
      ]);
      expect(log.endOffsetForEpoch(1)).toEqual({ epoch: 1, endOffset: 4 });
      expect(log.endOffsetForEpoch(2)).toEqual({ epoch: 1, endOffset: 4 });
      expect(log.endOffsetForEpoch(3)).toEqual({ epoch: 3, endOffset: 8 });
      expect(await readFile(join(dir, LEADER_EPOCH_CHECKPOINT_FILE), 'utf8')).toBe('0\n2\n1 0\n3 4\n');
      const read = batchesOf((await log.read(0, { maxBytes: 1 << 20 })).batches);
      expect(read.map((batch) => batch.header.partitionLeaderEpoch)).toEqual([1, 1, 3, 3]);
    });

    it('records epochs from follower batches and refuses batches that do not continue the log', async () => {
      const log = await open(harness(dir));
      const first = batchOfValues('f', 3);
      assignOffsetAndEpoch(first, 0, 5);
      const second = batchOfValues('g', 2);
      assignOffsetAndEpoch(second, 3, 6);
      const info = await log.appendAsFollower(Buffer.concat([first, second]));
      expect(info).toMatchObject({ firstOffset: 0, lastOffset: 4 });
      expect(log.logEndOffset).toBe(5);
      expect(log.epochs.all()).toEqual([
        { epoch: 5, startOffset: 0 },
        { epoch: 6, startOffset: 3 },
      ]);
      const stale = batchOfValues('h', 1);
      assignOffsetAndEpoch(stale, 4, 6);
      await expect(log.appendAsFollower(stale)).rejects.toBeInstanceOf(UnexpectedOffsetError);
      const partial = batchOfValues('p', 1);
      assignOffsetAndEpoch(partial, 5, 6);
      await expect(log.appendAsFollower(partial.subarray(0, partial.length - 3))).rejects.toBeInstanceOf(
        UnexpectedOffsetError,
      );
      expect(log.logEndOffset).toBe(5);
      expect(await log.appendAsFollower(Buffer.alloc(0))).toBeNull();
    });

    it('a corrupt batch in a replica fetch is refused with what follows it; the batches before it are kept', async () => {
      const log = await open(harness(dir));
      const batches = [3, 2, 4].map((count, i) => batchOfValues(`r${i}`, count));
      assignOffsetAndEpoch(batches[0], 0, 7);
      assignOffsetAndEpoch(batches[1], 3, 7);
      assignOffsetAndEpoch(batches[2], 5, 8);
      batches[1][batches[1].length - 1] ^= 0x10;
      await expect(log.appendAsFollower(Buffer.concat(batches))).rejects.toThrow(/CRC/);
      expect(log.logEndOffset).toBe(3);
      expect(log.epochs.all()).toEqual([{ epoch: 7, startOffset: 0 }]);
      expect((await readAll(log)).map((record) => record.offset)).toEqual([0, 1, 2]);
      batches[1][batches[1].length - 1] ^= 0x10; // the fetch again, from the log end, intact
      const info = await log.appendAsFollower(Buffer.concat(batches.slice(1)));
      expect(info).toMatchObject({ firstOffset: 3, lastOffset: 8 });
      expect(log.epochs.all()).toEqual([
        { epoch: 7, startOffset: 0 },
        { epoch: 8, startOffset: 5 },
      ]);
    });

    it('a new leader records its epoch at the log end before appending, persisted; older epochs are ignored', async () => {
      const h = harness(dir);
      const log = await open(h);
      await appendBatches(log, 2, 1, 1); // epoch 1: 0..1
      await log.assignEpochAtEnd(4);
      await log.assignEpochAtEnd(3);
      expect(log.epochs.all()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 4, startOffset: 2 },
      ]);
      // a follower that wrote offset 2 in epoch 2 (an epoch this leader never had) learns that epoch 1 ends at 2
      expect(log.endOffsetForEpoch(2)).toEqual({ epoch: 1, endOffset: 2 });
      expect(await readFile(join(dir, LEADER_EPOCH_CHECKPOINT_FILE), 'utf8')).toBe('0\n2\n1 0\n4 2\n');
      await appendBatches(log, 1, 1, 4);
      const read = batchesOf((await log.read(0, { maxBytes: 1 << 20 })).batches);
      expect(read.map((batch) => batch.header.partitionLeaderEpoch)).toEqual([1, 1, 4]);
      expect(log.epochs.all()).toHaveLength(2);
    });

    it('truncating at the log end forgets an epoch that starts there with no batch', async () => {
      const log = await open(harness(dir));
      await appendBatches(log, 2, 1, 1);
      await log.assignEpochAtEnd(2);
      await log.truncateTo(5); // past the end: nothing
      expect(log.epochs.latestEpoch()).toBe(2);
      await log.truncateTo(2);
      expect(log.epochs.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
      expect(log.logEndOffset).toBe(2);
      expect(await readFile(join(dir, LEADER_EPOCH_CHECKPOINT_FILE), 'utf8')).toBe('0\n1\n1 0\n');
    });

    it('a leader append with no epoch (-1) records none', async () => {
      const log = await open(harness(dir));
      await log.appendAsLeader(batchOf({ value: 'x' }), -1);
      expect(log.epochs.latestEpoch()).toBe(UNDEFINED_EPOCH);
    });
  });

  describe('LogAppendTime', () => {
    it("stamps the broker's time on every record and keeps the batch CRC valid", async () => {
      const h = harness(dir, { messageTimestampType: TimestampType.LogAppendTime });
      const log = await open(h);
      h.clock.advance(5000);
      const info = await log.appendAsLeader(batchOf({ value: 'a', timestamp: 1 }, { value: 'b', timestamp: 2 }), 0);
      expect(info.logAppendTimeMs).toBe(T0 + 5000);
      expect(info.maxTimestampMs).toBe(T0 + 5000);
      const { batches } = await log.read(0, { maxBytes: 1 << 20 });
      const [batch] = batchesOf(batches);
      expect(timestampTypeOf(batch.header)).toBe(TimestampType.LogAppendTime);
      expect(batch.header.maxTimestamp).toBe(T0 + 5000);
      expect(batch.records.map((record) => record.timestamp)).toEqual([T0 + 5000, T0 + 5000]);
      expect(hasValidCrc(batches)).toBe(true);
      expect(await log.offsetForTimestamp(T0 + 4999)).toBe(0);
      expect(await log.offsetForTimestamp(T0 + 5001)).toBeNull();
    });

    it('CreateTime keeps the producer timestamps', async () => {
      const log = await open(harness(dir));
      const info = await log.appendAsLeader(batchOf({ value: 'a', timestamp: 11 }, { value: 'b', timestamp: 7 }), 0);
      expect(info).toMatchObject({ logAppendTimeMs: -1, maxTimestampMs: 11 });
      expect(recordsOf((await log.read(0, { maxBytes: 1 << 20 })).batches).map((record) => record.timestamp)).toEqual([
        11, 7,
      ]);
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

    it('after a crash (no close) recovers every written batch', async () => {
      const h = harness(dir, { segmentBytes: 500 });
      const log = await open(h);
      await appendBatches(log, 20, 3, 2);
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
