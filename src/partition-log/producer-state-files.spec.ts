import { open as openFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dir, open, opened, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchOf, harness, T0 } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { PartitionLog } from './partition-log.js';
import { CorruptProducerSnapshotError, decodeProducerSnapshot, encodeProducerSnapshot } from './producer-snapshot.js';
import { KEY_PRODUCER_ID_BASE, type ProducerEntry } from './producer-state.js';
import { encodeBatch } from './record-batch-builder.js';
import { PRODUCER_ID_AT } from './record-batch-layout.js';
import { logFilePath, snapshotFilePath } from './segment-files.js';

useLogDir();

function idempotentBatch(producerId: number, sequence: number, timestamp = T0): Buffer {
  return encodeBatch([{ key: null, value: Buffer.from(`s${sequence}`), timestamp }], {
    producerId,
    producerEpoch: 0,
    baseSequence: sequence,
  });
}

/** Every batch its own segment (segment.bytes = 1): producer 7 writes sequences 0..count-1. */
async function logOfSegments(count: number) {
  const h = harness(dir, { segmentBytes: 1 });
  const log = await open(h);
  for (let sequence = 0; sequence < count; sequence++) await log.appendAsLeader(idempotentBatch(7, sequence), 0);
  return { h, log };
}

async function snapshotFiles(): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.snapshot')).sort();
}

describe('producer-state snapshots', () => {
  it('round-trip through the file format; a flipped byte or a cut file is refused', () => {
    const entries: ProducerEntry[] = [
      {
        producerId: 3,
        epoch: 2,
        lastUpdateMs: T0,
        batches: [
          {
            firstSequence: 5,
            lastSequence: 9,
            firstOffset: 40,
            lastOffset: 44,
            maxTimestampMs: T0,
            baseTimestampMs: 1,
          },
          {
            firstSequence: 10,
            lastSequence: 10,
            firstOffset: 50,
            lastOffset: 50,
            maxTimestampMs: 7,
            baseTimestampMs: 7,
          },
        ],
      },
      {
        producerId: KEY_PRODUCER_ID_BASE + 1,
        epoch: 32_767,
        lastUpdateMs: T0 + 1,
        batches: [
          {
            firstSequence: 2 ** 31 - 1,
            lastSequence: 1,
            firstOffset: 60,
            lastOffset: 62,
            maxTimestampMs: 0,
            baseTimestampMs: 0,
          },
        ],
      },
    ];
    const bytes = encodeProducerSnapshot(entries);
    expect(decodeProducerSnapshot(bytes)).toEqual(entries);
    for (let i = 0; i < bytes.length; i++) {
      const damaged = Buffer.from(bytes);
      damaged[i] ^= 0x10;
      expect(() => decodeProducerSnapshot(damaged)).toThrow(CorruptProducerSnapshotError);
    }
    expect(() => decodeProducerSnapshot(bytes.subarray(0, bytes.length - 1))).toThrow(CorruptProducerSnapshotError);
  });

  it('are written at each roll and at a clean close; a clean reopen reads no batch to rebuild the state', async () => {
    const { h, log } = await logOfSegments(4);
    expect(await snapshotFiles()).toEqual([
      '00000000000000000001.snapshot',
      '00000000000000000002.snapshot',
      '00000000000000000003.snapshot',
    ]);
    await log.close();
    expect(await snapshotFiles()).toContain('00000000000000000004.snapshot');
    // A header rewritten on disk would show in the state if the reopen read the log: it does not.
    await overwriteProducerId(0, 999);
    const reopened = await open(h);
    expect([...reopened.producerState.all()].map((entry) => entry.producerId)).toEqual([7]);
    expect(reopened.producerState.get(7, 0)?.batches.map((batch) => batch.firstSequence)).toEqual([0, 1, 2, 3]);
  });

  it('after a crash, start from the snapshot of the last roll and replay only the batches after it', async () => {
    const { h, log } = await logOfSegments(4);
    await log.appendAsLeader(idempotentBatch(8, 0), 0); // offset 4, after the snapshot at 4
    // the older segments' producer ids rewritten on disk: a reload that read them would see producer 999
    for (const offset of [0, 1, 2]) await overwriteProducerId(offset, 999);
    await log.rolledSegmentFlushed(); // the crash comes after the flush a roll left behind (LocalLog.roll)
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(crashed);
    const ids = [...crashed.producerState.all()].map((entry) => entry.producerId).sort();
    expect(ids).toEqual([7, 8]);
    expect((await crashed.appendAsLeader(idempotentBatch(7, 4), 0)).duplicate).toBeUndefined();
    expect((await crashed.appendAsLeader(idempotentBatch(7, 3), 0)).duplicate).toBe(true);
  });

  it('a snapshot that fails its checks is replaced: the next older one and the batches after it rebuild it', async () => {
    const { h, log } = await logOfSegments(4);
    await log.close();
    await writeFile(snapshotFilePath(dir, 4), Buffer.from('not a snapshot'));
    const reopened = await open(h);
    // rebuilt from the snapshot at 3 plus the batch at 3, and written again at the log end
    expect(decodeProducerSnapshot(await readFile(snapshotFilePath(dir, 4)))).toHaveLength(1);
    expect(reopened.producerState.get(7, 0)?.batches.map((batch) => batch.firstSequence)).toEqual([0, 1, 2, 3]);
  });

  it('truncation reloads the state as of the new end and deletes the snapshots past it', async () => {
    const { log } = await logOfSegments(5);
    await log.truncateTo(2);
    expect(await snapshotFiles()).toEqual(['00000000000000000001.snapshot', '00000000000000000002.snapshot']);
    expect(log.producerState.get(7, 0)?.batches.map((batch) => batch.firstSequence)).toEqual([0, 1]);
    expect((await log.appendAsLeader(idempotentBatch(7, 2), 0)).firstOffset).toBe(2);
  });

  it('retention forgets producers whose last batch it deleted, and the snapshots below the log start', async () => {
    const h = harness(dir, { segmentBytes: 1 });
    const log = await open(h);
    await log.appendAsLeader(idempotentBatch(5, 0), 0);
    await log.appendAsLeader(idempotentBatch(6, 0), 0);
    await log.appendAsLeader(idempotentBatch(6, 1), 0);
    log.updateConfig({ ...h.config, retentionBytes: 0 });
    await log.applyRetention(3);
    expect(log.logStartOffset).toBe(2);
    expect(log.producerState.get(5, 0)).toBeUndefined();
    expect(log.producerState.get(6, 0)).toBeDefined();
    expect(await snapshotFiles()).toEqual(['00000000000000000002.snapshot']);
    // a producer retention forgot may start again at any sequence
    expect((await log.appendAsLeader(idempotentBatch(5, 17), 0)).firstOffset).toBe(3);
    // the crash comes after the flush that append's roll left behind (LocalLog.roll): the old instance, which no
    // kill stops here, would otherwise replace the state file while the new one opens the folder
    await log.rolledSegmentFlushed();
    // after a crash, the snapshot at 2 (which still holds producer 5's deleted batch) does not bring it back
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(crashed);
    expect(crashed.producerState.get(5, 0)?.batches.map((batch) => batch.firstOffset)).toEqual([3]);
  });

  it('a producer a truncation forgot does not come back from an older snapshot after a crash (merged with its new batches)', async () => {
    // the property test's shrunk counterexample (seed 1454853162): rolls by record time, so that the producer's
    // new batch lands in the active segment and no roll rewrites the snapshot the crash reload starts from
    const h = harness(dir, { segmentMs: 1000 });
    const log = await open(h);
    const later = T0 + 2000;
    await log.appendAsLeader(idempotentBatch(5, 0), 0); // offset 0, segment 0
    await log.appendAsLeader(batchOf({ value: 'plain', timestamp: later }), 0); // offset 1: rolls, snapshot at 1
    await log.appendAsLeader(idempotentBatch(5, 1, later), 0); // offset 2
    expect(await snapshotFiles()).toEqual(['00000000000000000001.snapshot']);
    // retention deletes segment 0: producer 5 stays (its last batch is at 2), and the snapshot at 1 keeps its batch at 0
    const kept = log.segmentSummaries()[1].sizeBytes;
    log.updateConfig({ ...h.config, retentionBytes: kept });
    await log.applyRetention(3);
    expect(log.logStartOffset).toBe(1);
    expect(log.producerState.get(5, 0)?.batches.map((batch) => batch.firstOffset)).toEqual([0, 2]);
    // the truncation removes producer 5's batch at 2: its last batch is now below the log start, it is forgotten
    await log.truncateTo(2);
    expect(log.producerState.get(5, 0)).toBeUndefined();
    // and may start again at sequence 0
    expect((await log.appendAsLeader(idempotentBatch(5, 0, later), 0)).firstOffset).toBe(2);
    expect(log.producerState.get(5, 0)?.batches.map((batch) => batch.firstOffset)).toEqual([2]);
    // a crash: the reload starts from the snapshot at 1 and replays the batches at 1 and 2
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(crashed);
    expect(crashed.producerState.get(5, 0)?.batches.map((batch) => batch.firstOffset)).toEqual([2]);
    // a retry of sequence 0 is the batch at 2, not the deleted one at 0; sequence 1 follows it
    const retry = await crashed.appendAsLeader(idempotentBatch(5, 0, later), 0);
    expect({ first: retry.firstOffset, duplicate: retry.duplicate }).toEqual({ first: 2, duplicate: true });
    expect((await crashed.appendAsLeader(idempotentBatch(5, 1, later), 0)).firstOffset).toBe(3);
  });

  it('after such a crash, a new batch whose sequence the forgotten run used is written, not taken for a duplicate', async () => {
    const h = harness(dir, { segmentMs: 1000 });
    const log = await open(h);
    const later = T0 + 2000;
    for (let sequence = 0; sequence < 4; sequence++) await log.appendAsLeader(idempotentBatch(5, sequence), 0); // 0-3
    await log.appendAsLeader(batchOf({ value: 'plain', timestamp: later }), 0); // offset 4: rolls, snapshot at 4
    await log.appendAsLeader(idempotentBatch(5, 4, later), 0); // offset 5
    log.updateConfig({ ...h.config, retentionBytes: log.segmentSummaries()[1].sizeBytes });
    await log.applyRetention(6);
    expect(log.logStartOffset).toBe(4);
    await log.truncateTo(5); // producer 5 is forgotten
    for (let sequence = 0; sequence < 3; sequence++) await log.appendAsLeader(idempotentBatch(5, sequence, later), 0);
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(crashed);
    // sequence 3 is new data of the new run (the old run's 3 was at offset 3, deleted by retention)
    const info = await crashed.appendAsLeader(idempotentBatch(5, 3, later), 0);
    expect({ first: info.firstOffset, duplicate: info.duplicate }).toEqual({ first: 8, duplicate: undefined });
  });

  it('a producer the log start passed is dropped from the snapshots at open too (a crash cut retention short)', async () => {
    const h = harness(dir, { segmentMs: 1000 });
    const log = await open(h);
    const later = T0 + 2000;
    await log.appendAsLeader(idempotentBatch(5, 0), 0); // offset 0, segment 0
    await log.appendAsLeader(batchOf({ value: 'plain', timestamp: later }), 0); // offset 1: rolls, snapshot at 1
    const snapshotBeforeRetention = await readFile(snapshotFilePath(dir, 1));
    log.updateConfig({ ...h.config, retentionBytes: log.segmentSummaries()[1].sizeBytes });
    await log.applyRetention(2);
    expect(log.logStartOffset).toBe(1);
    expect(log.producerState.get(5, 0)).toBeUndefined();
    // a crash after retention saved the new log start and before it removed producer 5 from the snapshot at 1
    await writeFile(snapshotFilePath(dir, 1), snapshotBeforeRetention);
    const first = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(first);
    expect(first.producerState.get(5, 0)).toBeUndefined();
    expect((await first.appendAsLeader(idempotentBatch(5, 0, later), 0)).firstOffset).toBe(2);
    // a second crash: the reload from the snapshot at 1 replays the new batch at 2 onto nothing
    const second = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(16) });
    opened.push(second);
    expect(second.producerState.get(5, 0)?.batches.map((batch) => batch.firstOffset)).toEqual([2]);
  });
});

/** Rewrites the producer id of the batch at the start of the segment at `baseOffset`, on disk only. */
async function overwriteProducerId(baseOffset: number, producerId: number): Promise<void> {
  const file = await openFile(logFilePath(dir, baseOffset), 'r+');
  try {
    const field = Buffer.alloc(8);
    field.writeBigInt64BE(BigInt(producerId));
    await file.write(field, 0, 8, PRODUCER_ID_AT);
  } finally {
    await file.close();
  }
  expect((await readFile(logFilePath(dir, baseOffset))).readBigInt64BE(PRODUCER_ID_AT)).toBe(BigInt(producerId));
}
