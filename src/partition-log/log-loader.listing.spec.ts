// Opening a log lists its folder once: at 10,000 partitions each listing, marker check and state read is a round
// trip through the thread pool per log, on the start-up's critical path. The small state files and the segments'
// sizes are read synchronously (folder-metadata-reads.ts), small index files and producer snapshots too, and an
// existing folder is not created again. The promise-based fs calls are counted per folder.
import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { appendBatches, dir, open, opened, useLogDir } from '../../test/support/partition-log-spec.js';
import { harness } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { LEADER_EPOCH_CHECKPOINT_FILE, LOG_STATE_FILE, SNAPSHOT_SUFFIX } from './segment-files.js';
import { PartitionLog } from './partition-log.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, readdirSync: vi.fn(actual.readdirSync) };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    readdir: vi.fn(actual.readdir),
    access: vi.fn(actual.access),
    readFile: vi.fn(actual.readFile),
    stat: vi.fn(actual.stat),
    mkdir: vi.fn(actual.mkdir),
  };
});

useLogDir();

/** Calls of `fn` on `path` or a file inside it. */
function callsOn(fn: unknown, path: string): number {
  return (fn as ReturnType<typeof vi.fn>).mock.calls.filter(
    ([first]) => typeof first === 'string' && (first === path || first.startsWith(`${path}/`)),
  ).length;
}

describe('opening a log', () => {
  it('lists its folder once, after a crash and after a clean close, and checks no marker file apart', async () => {
    const h = harness(dir, { segmentBytes: 500 });
    const log = await open(h);
    await appendBatches(log, 20, 3, 2);
    await log.rolledSegmentFlushed(); // the rolls' flushes, behind the appends, are done: the crash comes after them (LocalLog.roll)
    vi.clearAllMocks();
    // kill -9: no close
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
    opened.push(crashed);
    // on the event loop, like the small files: no thread-pool listing at all
    expect(callsOn(fs.readdirSync, dir)).toBe(1);
    expect(callsOn(fsPromises.readdir, dir)).toBe(0);
    expect(callsOn(fsPromises.access, dir)).toBe(0);
    expect(crashed.logEndOffset).toBe(60);
    await crashed.close();
    vi.clearAllMocks();
    const reopened = await open(h);
    expect(callsOn(fs.readdirSync, dir)).toBe(1);
    expect(callsOn(fsPromises.readdir, dir)).toBe(0);
    expect(reopened.logEndOffset).toBe(60);
  });

  it('reads its state files and segment sizes without the thread pool, and creates no folder that exists', async () => {
    const h = harness(dir, { segmentBytes: 500 });
    const log = await open(h);
    await appendBatches(log, 20, 3, 2);
    await log.assignEpochAtEnd(4);
    const { segmentCount, sizeBytes } = log;
    expect(segmentCount).toBeGreaterThan(2);
    vi.clearAllMocks();
    // kill -9: no close
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
    opened.push(crashed);
    const stateReads = (fsPromises.readFile as ReturnType<typeof vi.fn>).mock.calls.filter(([path]) =>
      [join(dir, LOG_STATE_FILE), join(dir, LEADER_EPOCH_CHECKPOINT_FILE)].includes(path as string),
    );
    expect(stateReads).toHaveLength(0);
    expect(callsOn(fsPromises.stat, dir)).toBe(0);
    expect(callsOn(fsPromises.mkdir, dir)).toBe(0);
    // what they hold was read all the same: the segments' sizes and the checkpoint's epoch
    expect(crashed.logEndOffset).toBe(60);
    expect(crashed.segmentCount).toBe(segmentCount);
    expect(crashed.sizeBytes).toBe(sizeBytes);
    expect(crashed.latestEpochAtOpen).toBe(4);
  });

  it('reads small producer snapshots and index files without the thread pool', async () => {
    const h = harness(dir, { segmentBytes: 500 });
    const log = await open(h);
    await appendBatches(log, 20, 3, 2);
    await log.rolledSegmentFlushed(); // the rolls' flushes, behind the appends, are done: the crash comes after them (LocalLog.roll)
    const files = await fsPromises.readdir(dir);
    expect(files.filter((name) => name.endsWith(SNAPSHOT_SUFFIX)).length).toBeGreaterThan(0);
    vi.clearAllMocks();
    // kill -9: the snapshots written at each roll are read to rebuild the producer state
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
    opened.push(crashed);
    expect(callsOn(fsPromises.readFile, dir)).toBe(0);
    expect(crashed.logEndOffset).toBe(60);
    await crashed.close();
    vi.clearAllMocks();
    // clean: every segment's two index files are read
    const reopened = await open(h);
    expect(callsOn(fsPromises.readFile, dir)).toBe(0);
    expect(reopened.logEndOffset).toBe(60);
    expect(reopened.segmentCount).toBe(crashed.segmentCount);
  });

  it('reads each segment once after a crash: the producer replay walks the bytes its recovery read', async () => {
    const h = harness(dir, { segmentBytes: 500 });
    const log = await open(h);
    await appendBatches(log, 20, 3, 2);
    await log.rolledSegmentFlushed(); // the rolls' flushes, behind the appends, are done: the crash comes after them (LocalLog.roll)
    const { segmentCount } = log;
    const probe = await fsPromises.open(join(dir, '00000000000000000000.log'));
    const reads = vi.spyOn(Object.getPrototypeOf(probe) as { read(): unknown }, 'read');
    await probe.close();
    try {
      // kill -9: the segments below the recovery point read their tails past the last index entry, the active one
      // is re-scanned, and the producer state is replayed from the snapshot at its base over the same bytes
      const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
      opened.push(crashed);
      expect(crashed.logEndOffset).toBe(60);
      expect(reads).toHaveBeenCalledTimes(segmentCount);
    } finally {
      reads.mockRestore();
    }
  });

  it('creates a folder that does not exist and opens an empty log in it', async () => {
    const h = harness(join(dir, 'missing', 'topic-0'));
    const log = await open(h);
    expect(log.logEndOffset).toBe(0);
    expect(await fsPromises.readdir(join(dir, 'missing', 'topic-0'))).toContain('00000000000000000000.log');
  });
});
