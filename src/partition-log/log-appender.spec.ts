import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendBatches, dir, open, useLogDir } from '../../test/support/partition-log-spec.js';
import {
  batchesOf,
  batchOf,
  batchOfValues,
  CountingPool,
  writeCalls,
  harness,
  readAll,
  recordsOf,
  T0,
  valuesOf,
} from '../../test/support/log-fixtures.js';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';
import { UNDEFINED_EPOCH } from './leader-epoch-cache.js';
import { DEFAULT_PRODUCER_STATE_SETTINGS, type LocalLog } from './local-log.js';
import { LogAppender } from './log-appender.js';
import { ProducerStateManager } from './producer-state-manager.js';
import { RecordTooLargeError, UnexpectedOffsetError } from './log-errors.js';
import { assignOffsetAndEpoch, hasValidCrc, TimestampType, timestampTypeOf } from './record-batch.js';
import { LEADER_EPOCH_CHECKPOINT_FILE, logFilePath } from './segment-files.js';

useLogDir();

describe('PartitionLog', () => {
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
      expect(log.flushIfTimeElapsed()).toBeNull(); // nothing appended: nothing due, no promise
      await log.appendAsLeader(batchOf({ value: 'a' }), 0);
      expect(log.flushDueByTime(h.clock.monotonicMs())).toBe(false);
      expect(log.flushIfTimeElapsed()).toBeNull();
      expect(pool.calls.get(logFilePath(dir, 0))?.sync ?? 0).toBe(0);
      h.clock.advance(1000);
      // the log manager's scheduler asks first; asking starts nothing
      expect(log.flushDueByTime(h.clock.monotonicMs())).toBe(true);
      expect(pool.calls.get(logFilePath(dir, 0))?.sync ?? 0).toBe(0);
      await log.flushIfTimeElapsed();
      expect(pool.calls.get(logFilePath(dir, 0))?.sync).toBe(1);
      expect(log.flushDueByTime(h.clock.monotonicMs())).toBe(false);
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
});

describe('the footprint of a log not written to (a broker hosts thousands)', () => {
  useLogDir();

  it('holds no write pipeline and no idempotence or producer maps until appends need them', async () => {
    const log = await open(harness(dir));
    const local = (log as unknown as { local: LocalLog }).local;
    const appenders = retainedBytesEach(30_000, () => new LogAppender(local));
    // the appender, its queue, flush policy and idempotence tracker; with the pipeline (3 closures, a Set) and the
    // tracker's Map made at once it was ~950
    expect(appenders).toBeLessThan(450);
    const producers = retainedBytesEach(30_000, () => new ProducerStateManager(DEFAULT_PRODUCER_STATE_SETTINGS));
    // the manager and its table: ~175; with both Maps made at once it was ~330
    expect(producers).toBeLessThan(250);
  });
});
