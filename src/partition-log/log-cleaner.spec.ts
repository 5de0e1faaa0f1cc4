// The log cleaner (log-cleaner.ts), one round over a compacted log: what it keeps (the newest record per key,
// the batch frames, producers' last batches, tombstones until delete.retention.ms), and when it does nothing (dirty
// ratio, cleanup policy, min.compaction.lag.ms, the high watermark). Crashes and concurrent calls are in
// log-cleaner-recovery.spec.ts.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import { DEFAULT_PRODUCER_STATE_SETTINGS } from './partition-log.js';
import { cleanLog } from './log-cleaner.js';
import { compressionOf, decodeRecords, encodeBatch, TimestampType } from './record-batch.js';
import { logFilePath } from './segment-files.js';
import {
  append,
  clean,
  clock,
  compactConfig,
  DELETE_RETENTION_MS,
  dir,
  openLog,
  parseEntry,
  readBatches,
  readRecords,
  setUpCleanerLogs,
  show,
  T0,
  tearDownCleanerLogs,
} from '../../test/support/log-cleaner-fixtures.js';

beforeEach(setUpCleanerLogs);
afterEach(tearDownCleanerLogs);

describe('cleanLog', () => {
  it('keeps the newest record per key at its offset, in order', async () => {
    const log = await openLog();
    await append(log, ['a=1', 'b=1', 'e=1']);
    await append(log, ['a=2', 'c=1']);
    await append(log, ['b=2']);
    await append(log, ['d=1']);
    const result = await clean(log);
    expect(result).toMatchObject({ outcome: 'cleaned', recordsRemoved: 2, endOffset: 6, segmentsRewritten: 1 });
    expect(result.sizeAfterBytes).toBeLessThan(result.sizeBeforeBytes);
    expect(await readRecords(log)).toEqual(['2:e=1', '3:a=2', '4:c=1', '5:b=2', '6:d=1']);
    expect(log.cleanerCheckpoint).toBe(6);
    expect(log.logEndOffset).toBe(7);
  });

  it('keeps the batch frame: base offset, last offset delta, leader epoch, producer fields, compression', async () => {
    const log = await openLog();
    const producer = { producerId: 42, producerEpoch: 3, baseSequence: 100, compression: CompressionType.Gzip };
    await append(log, ['a=1', 'b=1', 'c=1', 'd=1'], producer, 5);
    await append(log, ['a=2', 'd=2'], { producerId: 42, producerEpoch: 3, baseSequence: 104 });
    await append(log, ['z=1']);
    await clean(log);
    const [first] = await readBatches(log);
    expect(first.records.map(show)).toEqual(['1:b=1', '2:c=1']);
    expect(first.header).toMatchObject({
      baseOffset: 0,
      lastOffsetDelta: 3,
      recordCount: 2,
      partitionLeaderEpoch: 5,
      producerId: 42,
      producerEpoch: 3,
      baseSequence: 100,
    });
    expect(compressionOf(first.header)).toBe(CompressionType.Gzip);
  });

  it('keeps the last batch of every producer the producer state remembers whole, so a replica can rebuild it', async () => {
    const log = await openLog();
    await append(log, ['a=1', 'b=1'], { producerId: 7, producerEpoch: 0, baseSequence: 0 });
    await append(log, ['a=2', 'b=2', 'c=1']);
    await append(log, ['c=2']);
    await clean(log);
    expect((await readRecords(log)).slice(0, 2)).toEqual(['0:a=1', '1:b=1']);
    expect(log.producerState.get(7, 0)?.batches).toMatchObject([{ firstOffset: 0, lastOffset: 1 }]);

    clock.advance(DEFAULT_PRODUCER_STATE_SETTINGS.producerIdExpirationMs);
    expect(await log.expireProducers()).toBe(1);
    await append(log, ['a=3', 'b=3']);
    await append(log, ['z=1']);
    await clean(log);
    expect(await readRecords(log)).toEqual(['5:c=2', '6:a=3', '7:b=3', '8:z=1']);
  });

  it('keeps LogAppendTime timestamps of re-encoded batches', async () => {
    const log = await openLog(compactConfig({ messageTimestampType: TimestampType.LogAppendTime }));
    await append(log, ['a=1', 'b=1']);
    clock.advance(5_000);
    await append(log, ['a=2']);
    await append(log, ['z=1']);
    await clean(log);
    const [first] = await readBatches(log);
    expect(first.records.map(show)).toEqual(['1:b=1']);
    expect(first.header.maxTimestamp).toBe(T0);
  });

  it('never touches the active segment', async () => {
    const log = await openLog();
    await append(log, ['a=1']);
    await append(log, ['a=2', 'a=3', 'b=1']);
    const activePath = logFilePath(dir, 1);
    const activeBefore = await readFile(activePath);
    const result = await clean(log);
    expect(result).toMatchObject({ outcome: 'cleaned', endOffset: 1 });
    expect(await readFile(activePath)).toEqual(activeBefore);
    expect(await readRecords(log)).toEqual(['0:a=1', '1:a=2', '2:a=3', '3:b=1']);
  });

  it('drops keyless records in the cleaned range, as Kafka does', async () => {
    const log = await openLog();
    await append(log, ['=x', 'a=1']);
    await append(log, ['=y']);
    await clean(log);
    expect(await readRecords(log)).toEqual(['1:a=1', '2:=y']);
  });

  it('keeps whole, and does not map, a batch whose record offsets are out of order', async () => {
    const log = await openLog();
    const records = ['a=1', 'b=1'].map(parseEntry).map(({ key, value }) => ({
      key: Buffer.from(key!),
      value: Buffer.from(value!),
      timestamp: clock.nowMs(),
    }));
    await log.appendAsLeader(encodeBatch(records, { offsetDeltas: [1, 0], lastOffsetDelta: 1 }), 0);
    await append(log, ['a=2', 'b=2']);
    await append(log, ['z=1']);
    expect((await clean(log)).outcome).toBe('cleaned');
    expect(await readRecords(log)).toEqual(['1:a=1', '0:b=1', '2:a=2', '3:b=2', '4:z=1']);
  });

  it('runs one round per log at a time', async () => {
    const log = await openLog();
    await append(log, ['a=1']);
    await append(log, ['a=2']);
    const [first, second] = await Promise.all([clean(log), clean(log)]);
    expect(first.outcome).toBe('cleaned');
    expect(second.outcome).toBe('already-cleaning');
  });

  it('does nothing while the dirty ratio is at or below min.cleanable.dirty.ratio', async () => {
    const log = await openLog(compactConfig({ minCleanableDirtyRatio: 0.5 }));
    await append(log, ['a=1']);
    await append(log, ['b=1']);
    await append(log, ['c=1']);
    await append(log, ['a=2']);
    expect((await clean(log)).outcome).toBe('cleaned'); // nothing was clean yet: ratio 1
    await append(log, ['b=2']); // one dirty segment of four
    const before = await readRecords(log);
    const skipped = await clean(log);
    expect(skipped.outcome).toBe('below-ratio');
    expect(skipped.dirtyRatio).toBeLessThanOrEqual(0.5);
    expect(await readRecords(log)).toEqual(before);
    await append(log, ['c=2']);
    await append(log, ['a=3']);
    await append(log, ['z=1']);
    expect((await clean(log)).outcome).toBe('cleaned');
    expect(await readRecords(log)).toEqual(['4:b=2', '5:c=2', '6:a=3', '7:z=1']);
  });

  it('does nothing for a log without cleanup.policy=compact', async () => {
    const log = await openLog(compactConfig({ cleanupPolicyCompact: false, cleanupPolicyDelete: true }));
    await append(log, ['a=1']);
    await append(log, ['a=2']);
    expect((await clean(log)).outcome).toBe('not-compacted');
  });

  it('leaves segments newer than min.compaction.lag.ms alone', async () => {
    const log = await openLog(compactConfig({ minCompactionLagMs: 10_000 }));
    await append(log, ['a=1']);
    await append(log, ['a=2']);
    clock.advance(8_000);
    await append(log, ['a=3']);
    await append(log, ['z=1']);
    expect((await clean(log)).outcome).toBe('below-ratio');
    clock.advance(2_001); // the first two segments are now older than the lag, the third is not
    const result = await clean(log);
    expect(result).toMatchObject({ outcome: 'cleaned', endOffset: 2 });
    expect(await readRecords(log)).toEqual(['1:a=2', '2:a=3', '3:z=1']);
    clock.advance(8_000);
    await clean(log);
    expect(await readRecords(log)).toEqual(['2:a=3', '3:z=1']);
  });

  it('cleans nothing at or above the high watermark', async () => {
    const log = await openLog();
    await append(log, ['a=1']);
    await append(log, ['a=2']);
    await append(log, ['a=3']);
    await append(log, ['z=1']);
    const result = await clean(log, 2);
    expect(result).toMatchObject({ outcome: 'cleaned', endOffset: 2 });
    expect(await readRecords(log)).toEqual(['1:a=2', '2:a=3', '3:z=1']);
  });

  it('removes a tombstone only once the clean log holds records delete.retention.ms newer', async () => {
    const log = await openLog();
    await append(log, ['a=1']);
    await append(log, ['a=']);
    await append(log, ['b=1']);
    await clean(log); // first clean: no horizon yet
    expect(await readRecords(log)).toEqual(['1:a=', '2:b=1']);

    clock.advance(DELETE_RETENTION_MS - 1);
    await append(log, ['c=1']);
    await append(log, ['d=1']);
    await clean(log); // cleans c=1 (offset 3), written less than delete.retention.ms after the tombstone
    await append(log, ['e=1']);
    await clean(log); // horizon from c=1's segment: the tombstone is not yet past it
    expect(await readRecords(log)).toContain('1:a=');

    clock.advance(1);
    await append(log, ['f=1']);
    await append(log, ['g=1']);
    await clean(log); // cleans f=1, written delete.retention.ms after the tombstone
    expect(await readRecords(log)).toContain('1:a=');
    await append(log, ['h=1']);
    await clean(log); // horizon from f=1's segment: the tombstone goes
    expect(await readRecords(log)).toEqual(['2:b=1', '3:c=1', '4:d=1', '5:e=1', '6:f=1', '7:g=1', '8:h=1']);
  });

  it('removes a superseded tombstone at once', async () => {
    const log = await openLog();
    await append(log, ['a=1', 'a=']);
    await append(log, ['a=2']);
    await append(log, ['z=1']);
    await clean(log);
    expect(await readRecords(log)).toEqual(['2:a=2', '3:z=1']);
  });

  it('ends a round where the offset map fills and goes on from there next time', async () => {
    const log = await openLog();
    await append(log, ['a=1', 'b=1']);
    await append(log, ['c=1', 'a=2']);
    await append(log, ['b=2', 'c=2']);
    await append(log, ['z=1']);
    const bounds = { keysMax: 2, keyBytesMax: 1000 };
    const first = await cleanLog(log, {
      nowMs: clock.nowMs(),
      highWatermark: log.logEndOffset,
      offsetMapBounds: bounds,
    });
    expect(first).toMatchObject({ outcome: 'cleaned', endOffset: 2 });
    expect(log.cleanerCheckpoint).toBe(2);
    expect(await readRecords(log)).toEqual(['0:a=1', '1:b=1', '2:c=1', '3:a=2', '4:b=2', '5:c=2', '6:z=1']);
    let rounds = 0;
    while (log.cleanerCheckpoint < 6 && rounds++ < 10) {
      await cleanLog(log, { nowMs: clock.nowMs(), highWatermark: log.logEndOffset, offsetMapBounds: bounds });
    }
    await clean(log);
    expect(await readRecords(log)).toEqual(['3:a=2', '4:b=2', '5:c=2', '6:z=1']);
  });

  it('keeps the log readable from any offset, including offsets compacted away', async () => {
    const log = await openLog();
    for (let i = 0; i < 20; i++) await append(log, [`k${i % 3}=${i}`]);
    await clean(log);
    for (let offset = 0; offset < log.logEndOffset; offset++) {
      const { batches, nextOffset } = await log.read(offset, { maxBytes: 1024 * 1024 });
      const records = decodeRecords(batches);
      expect(records[0].offset).toBeGreaterThanOrEqual(offset);
      expect(nextOffset).toBeGreaterThan(offset);
    }
  });
});
