// A leader's write on the JavaScript thread (log-write-pipeline.ts, inline-write-gate.ts), on real files: which
// appends take it (a batch Brook built, no write in flight, the gate open) and which go to the thread-pool job (a
// client's batch, whose CRC the job checks; any write while the gate is closed), and that the log reads back whole
// either way.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchOfValues, makeTempDir, readAll, removeDir, T0 } from '../../test/support/log-fixtures.js';
import { ManualClock, type Clock } from '../common/clock.js';
import { FileHandlePool } from './file-handle-pool.js';
import { InlineWriteGate } from './inline-write-gate.js';
import { logConfig } from './log-config.js';
import { PartitionLog } from './partition-log.js';

const calls = { inline: 0, job: 0 };

vi.mock('./segment-append-write.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./segment-append-write.js')>();
  return {
    ...real,
    writeBatchesOnThisThread: (...args: Parameters<typeof real.writeBatchesOnThisThread>) => {
      calls.inline++;
      return real.writeBatchesOnThisThread(...args);
    },
    writeCheckedBatches: (...args: Parameters<typeof real.writeCheckedBatches>) => {
      calls.job++;
      return real.writeCheckedBatches(...args);
    },
    writeCheckedBatchesToPath: (...args: Parameters<typeof real.writeCheckedBatchesToPath>) => {
      calls.job++;
      return real.writeCheckedBatchesToPath(...args);
    },
  };
});

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
  calls.inline = 0;
  calls.job = 0;
});
afterEach(async () => {
  await removeDir(dir);
});

async function openLog(clock: Clock, gate: InlineWriteGate | undefined): Promise<PartitionLog> {
  return PartitionLog.open(dir, logConfig({ retentionMs: -1 }), {
    clock,
    pool: new FileHandlePool(64),
    inlineWrites: gate,
  });
}

describe('LogWritePipeline: leader writes on this thread', () => {
  it("writes Brook's batches inline once the segment has its first batch, and reads them back whole", async () => {
    const clock = new ManualClock(T0);
    const log = await openLog(clock, new InlineWriteGate(clock));
    // the first batch of a segment is written by the serial path (the roll policy measures its age from it)
    await log.appendAsLeader(batchOfValues('first', 3), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 0, job: 1 });
    for (let i = 0; i < 5; i++) await log.appendAsLeader(batchOfValues(`b${i}`, 3), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 5, job: 1 });
    const records = await readAll(log);
    expect(records.map((record) => record.value?.toString())).toEqual([
      'first-0',
      'first-1',
      'first-2',
      ...[0, 1, 2, 3, 4].flatMap((i) => [`b${i}-0`, `b${i}-1`, `b${i}-2`]),
    ]);
    await log.close();
    // and after a reopen, as a crash would leave them: the recovery reads the same
    const reopened = await openLog(clock, undefined);
    expect((await readAll(reopened)).length).toBe(18);
    await reopened.close();
  });

  it("leaves a client's batch, whose CRC is to be checked, to the thread-pool job", async () => {
    const clock = new ManualClock(T0);
    const log = await openLog(clock, new InlineWriteGate(clock));
    await log.appendAsLeader(batchOfValues('first', 1), 0, { verifyCrc: false });
    await log.appendAsLeader(batchOfValues('client', 2), 0, { validateRecords: true });
    expect(calls).toEqual({ inline: 0, job: 2 });
    await log.appendAsLeader(batchOfValues('brook', 2), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 1, job: 2 });
    expect((await readAll(log)).length).toBe(5);
    await log.close();
  });

  it('sends the writes to the thread pool while the gate is closed by a slow inline write', async () => {
    // a clock that moves 30 ms at every read: every inline write looks slow
    const manual = new ManualClock(T0);
    const slow: Clock = {
      ...manual,
      nowMs: () => manual.nowMs(),
      setTimer: (ms, fn) => manual.setTimer(ms, fn),
      monotonicMs: () => {
        manual.advance(30);
        return manual.monotonicMs();
      },
    };
    const gate = new InlineWriteGate(slow, null, 20, 60_000);
    const log = await openLog(manual, gate);
    await log.appendAsLeader(batchOfValues('first', 1), 0, { verifyCrc: false });
    await log.appendAsLeader(batchOfValues('slow', 1), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 1, job: 1 });
    for (let i = 0; i < 3; i++) await log.appendAsLeader(batchOfValues(`pool${i}`, 1), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 1, job: 4 });
    expect((await readAll(log)).length).toBe(5);
    await log.close();
  });

  it('writes nothing inline without a gate (the default of a log opened alone)', async () => {
    const clock = new ManualClock(T0);
    const log = await openLog(clock, undefined);
    for (let i = 0; i < 4; i++) await log.appendAsLeader(batchOfValues(`b${i}`, 1), 0, { verifyCrc: false });
    expect(calls).toEqual({ inline: 0, job: 4 });
    await log.close();
  });
});
