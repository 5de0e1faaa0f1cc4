// The log cleaner (log-cleaner.ts) across crashes and concurrent calls: reopening after a clean close or a crash
// (a swapped segment's indexes rebuilt, a left-over .cleaned file discarded), truncation and appends during a
// round, and reads through a segment the round swaps.
import { readdir, writeFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SegmentRetiredError } from './log-errors.js';
import { batchesIn, decodeRecords, lastOffsetOf, validateBatch } from './record-batch.js';
import { CLEANED_SUFFIX, indexFilePath, logFilePath, timeIndexFilePath } from './segment-files.js';
import {
  append,
  clean,
  compactConfig,
  dir,
  openLog,
  readRecords,
  setUpCleanerLogs,
  tearDownCleanerLogs,
} from '../../test/support/log-cleaner-fixtures.js';

beforeEach(setUpCleanerLogs);
afterEach(tearDownCleanerLogs);

describe('log cleaning across crashes and concurrent calls', () => {
  it('reopens after a clean close', async () => {
    const log = await openLog();
    for (let i = 0; i < 10; i++) await append(log, [`k${i % 3}=${i}`]);
    await clean(log);
    const records = await readRecords(log);
    await log.close();
    const reopened = await openLog();
    expect(await readRecords(reopened)).toEqual(records);
    expect(reopened.cleanerCheckpoint).toBe(9);
    expect(reopened.logEndOffset).toBe(10);
    await append(reopened, ['k0=next']);
    expect(reopened.logEndOffset).toBe(11);
  });

  it('reopens after a crash', async () => {
    const log = await openLog();
    for (let i = 0; i < 10; i++) await append(log, [`k${i % 3}=${i}`]);
    await clean(log);
    const records = await readRecords(log);
    const reopened = await openLog(); // no close: no clean-shutdown marker, segments are re-scanned
    expect(await readRecords(reopened)).toEqual(records);
    expect(reopened.logEndOffset).toBe(10);
  });

  it('rebuilds the indexes of a segment swapped just before a crash', async () => {
    const log = await openLog(compactConfig({ segmentBytes: 10_000, indexIntervalBytes: 1 }));
    for (let i = 0; i < 30; i++) await append(log, [`k${i % 4}=${i}`]);
    await log.close();
    const rolled = await openLog(compactConfig({ segmentBytes: 1, indexIntervalBytes: 1 }));
    await append(rolled, ['z=1']); // rolls: the 30 batches become an inactive segment
    await clean(rolled);
    const records = await readRecords(rolled);
    await rolled.close();
    // A crash between the rename and writing the new indexes leaves the segment without index files.
    await rm(indexFilePath(dir, 0));
    await rm(timeIndexFilePath(dir, 0));
    const reopened = await openLog();
    expect(await readRecords(reopened)).toEqual(records);
    const { batches } = await reopened.read(27, { maxBytes: 1024 });
    expect(decodeRecords(batches)[0].offset).toBe(27);
  });

  it('discards a .cleaned file a crash left behind when the log opens', async () => {
    const log = await openLog();
    await append(log, ['a=1']);
    await append(log, ['a=2']);
    await append(log, ['z=1']);
    const records = await readRecords(log);
    await log.close();
    const leftover = logFilePath(dir, 0) + CLEANED_SUFFIX;
    await writeFile(leftover, Buffer.alloc(100, 0xab));
    const reopened = await openLog();
    expect(await readdir(dir)).not.toContain(leftover.slice(dir.length + 1));
    expect(await readRecords(reopened)).toEqual(records);
  });

  it('leaves no .cleaned files behind', async () => {
    const log = await openLog();
    for (let i = 0; i < 6; i++) await append(log, [`k${i % 2}=${i}`]);
    await clean(log);
    expect((await readdir(dir)).filter((name) => name.endsWith(CLEANED_SUFFIX))).toEqual([]);
  });

  it('stops when the log is truncated during the round', async () => {
    const log = await openLog();
    for (let i = 0; i < 6; i++) await append(log, [`k${i % 2}=${i}`]);
    const round = clean(log, 5);
    await log.truncateTo(5);
    const result = await round;
    expect(result.outcome).toBe('aborted');
    expect(log.cleanerCheckpoint).toBe(0);
  });

  it('lets appends go on during a round', async () => {
    const log = await openLog();
    for (let i = 0; i < 10; i++) await append(log, [`k${i % 3}=${i}`]);
    const round = clean(log);
    await append(log, ['k0=during']);
    expect((await round).outcome).toBe('cleaned');
    expect((await readRecords(log)).at(-1)).toBe('10:k0=during');
  });
});

describe('reads while a segment is swapped', () => {
  it('a read through a retired segment waits for the swap and reads the new segment', async () => {
    const log = await openLog();
    await append(log, ['a=1', 'b=1']);
    await append(log, ['z=1']);
    const old = log.inactiveSegments()[0];
    let settle = (): void => undefined;
    old.retire(new Promise<void>((resolve) => (settle = resolve)));
    await expect(old.readFrom(0, 1024, Number.MAX_SAFE_INTEGER, true)).rejects.toBeInstanceOf(SegmentRetiredError);
    const reading = log.read(0, { maxBytes: 1024 });
    await log.exclusive(async () => {
      old.forgetHandle();
      const replacement = await log.openSegment(0, old.sizeBytes);
      await replacement.recover();
      log.replaceSegment(replacement);
    });
    settle();
    const { batches, nextOffset } = await reading;
    expect(decodeRecords(batches).map((record) => record.offset)).toEqual([0, 1]);
    expect(nextOffset).toBe(2);
  });

  it('reads racing a round return whole, valid batches from the offset asked for', async () => {
    const log = await openLog();
    for (let i = 0; i < 40; i++) await append(log, [`k${i % 5}=${i}`, `k${(i + 2) % 5}=${i}`]);
    const end = log.logEndOffset;
    let stop = false;
    const readOnce = async (offset: number): Promise<void> => {
      const { batches, nextOffset } = await log.read(offset, { maxBytes: 4096 });
      let last = -1;
      for (const { header, position } of batchesIn(batches)) {
        validateBatch(batches.subarray(position, position + header.sizeBytes));
        last = lastOffsetOf(header);
      }
      if (last < offset || nextOffset !== last + 1)
        throw new Error(`read at ${offset} returned up to ${last}, next ${nextOffset}`);
    };
    const reader = async (id: number): Promise<number> => {
      let reads = 0;
      while (!stop || reads === 0) await readOnce((reads++ * 7 + id * 13) % end);
      return reads;
    };
    const readers = Promise.all([0, 1, 2, 3].map(reader));
    const result = await clean(log).finally(() => (stop = true));
    const reads = await readers;
    expect(result).toMatchObject({ outcome: 'cleaned' });
    expect(result.segmentsRewritten).toBeGreaterThan(0);
    expect(reads.every((count) => count > 0)).toBe(true);
  });
});
