import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { CompressionType } from './compression.js';
import { FileHandlePool } from './file-handle-pool.js';
import { logConfig, type LogConfig } from './log-config.js';
import { cleanLog, type CleanResult } from './log-cleaner.js';
import { SegmentRetiredError } from './log-segment.js';
import { DEFAULT_PRODUCER_STATE_SETTINGS, PartitionLog } from './partition-log.js';
import {
  batchesIn,
  compressionOf,
  decodeRecords,
  encodeBatch,
  lastOffsetOf,
  TimestampType,
  validateBatch,
  type BatchHeader,
  type BatchOptions,
} from './record-batch.js';
import { CLEANED_SUFFIX, indexFilePath, logFilePath, timeIndexFilePath } from './segment-files.js';

const T0 = 1_700_000_000_000;
const DELETE_RETENTION_MS = 60_000;

interface Entry {
  key: string | null;
  value: string | null;
}

interface ReadRecord extends Entry {
  offset: number;
}

let dir: string;
let clock: ManualClock;
let pools: FileHandlePool[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'brook-cleaner-'));
  clock = new ManualClock(T0);
  pools = [];
});

afterEach(async () => {
  for (const pool of pools) await pool.closeAll();
  await rm(dir, { recursive: true, force: true });
});

/** segment.bytes = 1: every batch gets a segment of its own, and the last batch appended is the active segment. */
function compactConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return logConfig({
    cleanupPolicyCompact: true,
    cleanupPolicyDelete: false,
    segmentBytes: 1,
    minCleanableDirtyRatio: 0,
    deleteRetentionMs: DELETE_RETENTION_MS,
    ...overrides,
  });
}

async function openLog(config: LogConfig = compactConfig()): Promise<PartitionLog> {
  const pool = new FileHandlePool();
  pools.push(pool);
  return PartitionLog.open(dir, config, { clock, pool });
}

/** Appends one batch of `entries`, "key=value" or "key=" (tombstone) or "=value" (keyless), stamped now. */
async function append(
  log: PartitionLog,
  entries: string[],
  options: BatchOptions = {},
  leaderEpoch = 0,
): Promise<void> {
  const records = entries.map(parseEntry).map(({ key, value }) => ({
    key: key === null ? null : Buffer.from(key),
    value: value === null ? null : Buffer.from(value),
    timestamp: clock.nowMs(),
  }));
  await log.appendAsLeader(encodeBatch(records, options), leaderEpoch);
}

function parseEntry(text: string): Entry {
  const [key, value] = text.split('=');
  return { key: key === '' ? null : key, value: value === '' ? null : value };
}

async function readBatches(log: PartitionLog): Promise<Array<{ header: BatchHeader; records: ReadRecord[] }>> {
  const batches: Array<{ header: BatchHeader; records: ReadRecord[] }> = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const { batches: bytes, nextOffset } = await log.read(offset, { maxBytes: 1024 * 1024 });
    if (bytes.length === 0) break;
    for (const { header, position } of batchesIn(bytes)) {
      const records = decodeRecords(bytes.subarray(position, position + header.sizeBytes)).map((record) => ({
        offset: record.offset,
        key: record.key === null ? null : record.key.toString(),
        value: record.value === null ? null : record.value.toString(),
      }));
      batches.push({ header, records });
    }
    offset = nextOffset;
  }
  return batches;
}

async function readRecords(log: PartitionLog): Promise<string[]> {
  return (await readBatches(log)).flatMap((batch) => batch.records.map(show));
}

function show(record: ReadRecord): string {
  return `${record.offset}:${record.key ?? ''}=${record.value ?? ''}`;
}

function clean(log: PartitionLog, highWatermark = log.logEndOffset): Promise<CleanResult> {
  return cleanLog(log, { nowMs: clock.nowMs(), highWatermark });
}

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
