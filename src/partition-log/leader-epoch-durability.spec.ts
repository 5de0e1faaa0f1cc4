// The leader-epoch checkpoint's durability (local-log.ts's header): a new epoch at the log end is written without
// fsync, made durable before a state file with a higher recovery point, and recovery after a crash that lost the
// unsynced write assigns the re-scanned batches' epochs again. fsyncs are counted on real files (FileHandle.sync:
// the atomic replace's file and folder, a segment's flush).
import { promises as fsp } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dir, open, opened, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchOfValues, harness, readAll } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { readLogState } from './log-state-files.js';
import { PartitionLog } from './partition-log.js';
import { assignOffsetAndEpoch } from './record-batch.js';
import { LEADER_EPOCH_CHECKPOINT_FILE, LOG_STATE_FILE } from './segment-files.js';

useLogDir();
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts every fsync of a file or folder from here on. */
async function countFsyncs(): Promise<{ count: () => number }> {
  const probe = await fsp.open(join(dir, 'probe'), 'w');
  const fileHandle = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const sync = vi.spyOn(fileHandle, 'sync');
  return { count: () => sync.mock.calls.length };
}

/** A crash of the process (no close), the folder as the page cache holds it: the log opened again. */
async function reopenAfterCrash(h: ReturnType<typeof harness>): Promise<PartitionLog> {
  const log = await PartitionLog.open(h.dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
  opened.push(log);
  return log;
}

const checkpointPath = (folder: string) => join(folder, LEADER_EPOCH_CHECKPOINT_FILE);

describe('leader-epoch checkpoint durability', () => {
  it('a pass of new leaderships writes every checkpoint without an fsync, and a kill -9 finds each', async () => {
    const partitions = 16;
    const hs = await Promise.all(
      Array.from({ length: partitions }, async (_, i) => {
        const folder = join(dir, `t-${i}`);
        await mkdir(folder);
        return harness(folder);
      }),
    );
    const logs = await Promise.all(hs.map((h) => open(h)));
    const fsyncs = await countFsyncs();
    // what a role pass does for each new leadership (Partition.makeLeader), many at once
    await Promise.all(logs.map((log) => log.assignEpochAtEnd(7)));
    expect(fsyncs.count()).toBe(0);
    for (const h of hs) expect(await readFile(checkpointPath(h.dir), 'utf8')).toBe('0\n1\n7 0\n');
    const crashed = await reopenAfterCrash(hs[0]);
    expect(crashed.latestEpochAtOpen).toBe(7);
  });

  it("a follower's first batch of a new epoch writes the checkpoint without an fsync", async () => {
    const log = await open(harness(dir));
    const first = batchOfValues('f', 3);
    assignOffsetAndEpoch(first, 0, 4);
    const fsyncs = await countFsyncs();
    await log.appendAsFollower(first);
    expect(fsyncs.count()).toBe(0);
    expect(await readFile(checkpointPath(dir), 'utf8')).toBe('0\n1\n4 0\n');
  });

  it('makes an unsynced epoch durable before a state file with a higher recovery point', async () => {
    const h = harness(dir, { segmentBytes: 300 });
    const log = await open(h);
    await log.assignEpochAtEnd(3);
    const events: string[] = [];
    const probe = await fsp.open(join(dir, 'probe'), 'w');
    const fileHandle = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const sync = fileHandle.sync;
    vi.spyOn(fileHandle, 'sync').mockImplementation(function (this: unknown) {
      events.push('fsync');
      return sync.call(this);
    });
    const rename = fsp.rename;
    vi.spyOn(fsp, 'rename').mockImplementation((from, to) => {
      events.push(`rename ${basename(String(to))}`);
      return rename(from, to);
    });
    // enough batches to roll: the roll moves the recovery point and saves the state
    for (let i = 0; i < 6; i++) await log.appendAsLeader(batchOfValues(`b${i}`, 3), 3);
    await log.rolledSegmentFlushed(); // the state is saved once the closed segment is fsynced (LocalLog.roll)
    expect(log.segmentSummaries().length).toBeGreaterThan(1);
    const checkpoint = events.indexOf(`rename ${LEADER_EPOCH_CHECKPOINT_FILE}`);
    const state = events.indexOf(`rename ${LOG_STATE_FILE}`);
    expect(checkpoint).toBeGreaterThanOrEqual(0);
    expect(state).toBeGreaterThan(checkpoint);
    // the checkpoint's temp file fsynced before its rename, the folder after it, both before the state's rename
    expect(events[checkpoint - 1]).toBe('fsync');
    expect(events[checkpoint + 1]).toBe('fsync');
    expect((await readLogState(dir)).recoveryPoint).toBeGreaterThan(0);
    // once durable, later state saves do not write it again
    events.length = 0;
    await log.close();
    expect(events).not.toContain(`rename ${LEADER_EPOCH_CHECKPOINT_FILE}`);
  });

  it('after a power loss that kept the batches but not the unsynced checkpoint, assigns their epochs again', async () => {
    const h = harness(dir);
    const log = await open(h);
    await log.assignEpochAtEnd(1);
    for (let i = 0; i < 3; i++) await log.appendAsLeader(batchOfValues(`a${i}`, 2), 1);
    await log.close(); // durable: checkpoint [1@0], recovery point 6
    const durable = await readFile(checkpointPath(dir), 'utf8');
    const reopened = await open(h);
    await reopened.assignEpochAtEnd(2);
    for (let i = 0; i < 3; i++) await reopened.appendAsLeader(batchOfValues(`b${i}`, 2), 2);
    await reopened.assignEpochAtEnd(4); // an epoch led with no batch yet
    const records = await readAll(reopened);
    expect(await readFile(checkpointPath(dir), 'utf8')).toBe('0\n3\n1 0\n2 6\n4 12\n');
    // the crash lands between the unsynced replace and any fsync: the checkpoint on disk is the durable one, the
    // batches after the recovery point were written back by the OS
    await writeFile(checkpointPath(dir), durable);
    const crashed = await reopenAfterCrash(h);
    expect(await readAll(crashed)).toEqual(records);
    expect(crashed.epochs.all()).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 2, startOffset: 6 },
    ]);
    // rule 2 of leadership-admission.ts: epoch 2, of which batches survived, is not led again
    expect(crashed.latestEpochAtOpen).toBe(2);
    // the repaired checkpoint is written durably
    expect(await readFile(checkpointPath(dir), 'utf8')).toBe('0\n2\n1 0\n2 6\n');
  });

  it('after a crash rebuilds a checkpoint that does not parse from every segment; after a clean close refuses it', async () => {
    const h = harness(dir, { segmentBytes: 300 });
    const log = await open(h);
    await log.assignEpochAtEnd(1);
    for (let i = 0; i < 4; i++) await log.appendAsLeader(batchOfValues(`a${i}`, 2), 1);
    await log.assignEpochAtEnd(5);
    for (let i = 0; i < 4; i++) await log.appendAsLeader(batchOfValues(`b${i}`, 2), 5);
    await log.rolledSegmentFlushed(); // the state is saved once the closed segment is fsynced (LocalLog.roll)
    expect(log.segmentSummaries().length).toBeGreaterThan(2);
    expect((await readLogState(dir)).recoveryPoint).toBeGreaterThan(8);
    const records = await readAll(log);
    // a power loss cut the unsynced replace: an empty file under the name
    await writeFile(checkpointPath(dir), '');
    const crashed = await reopenAfterCrash(h);
    expect(await readAll(crashed)).toEqual(records);
    expect(crashed.epochs.all()).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 5, startOffset: 8 },
    ]);
    expect(crashed.latestEpochAtOpen).toBe(5);
    await crashed.close();
    opened.splice(opened.indexOf(crashed), 1);
    await writeFile(checkpointPath(dir), 'garbage');
    await expect(h.open()).rejects.toThrow(/cannot read/);
  });
});
