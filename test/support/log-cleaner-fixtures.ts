// Test support for the log cleaner's specs (src/partition-log/log-cleaner*.spec.ts): a compacted partition log in
// a temp folder on a ManualClock (`dir`, `clock` are live bindings that `setUpCleanerLogs` sets before each test
// and `tearDownCleanerLogs` removes after it), batches appended as "key=value" strings, and the log read back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/common/clock.js';
import { FileHandlePool } from '../../src/partition-log/file-handle-pool.js';
import { logConfig, type LogConfig } from '../../src/partition-log/log-config.js';
import { cleanLog, type CleanResult } from '../../src/partition-log/log-cleaner.js';
import { PartitionLog } from '../../src/partition-log/partition-log.js';
import {
  batchesIn,
  decodeRecords,
  encodeBatch,
  type BatchHeader,
  type BatchOptions,
} from '../../src/partition-log/record-batch.js';

export const T0 = 1_700_000_000_000;
export const DELETE_RETENTION_MS = 60_000;

export interface Entry {
  key: string | null;
  value: string | null;
}

export interface ReadRecord extends Entry {
  offset: number;
}

export let dir: string;
export let clock: ManualClock;
let pools: FileHandlePool[];
/** Every log openLog opened: the teardown waits for the flushes their rolls left behind (LocalLog.roll). */
let logs: PartitionLog[];

/** A new temp folder and clock (each spec's beforeEach). */
export async function setUpCleanerLogs(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'brook-cleaner-'));
  clock = new ManualClock(T0);
  pools = [];
  logs = [];
}

/** Closes every log's file handles and removes the folder (each spec's afterEach). */
export async function tearDownCleanerLogs(): Promise<void> {
  for (const log of logs) await log.rolledSegmentFlushed();
  for (const pool of pools) await pool.closeAll();
  await rm(dir, { recursive: true, force: true });
}

/** segment.bytes = 1: every batch gets a segment of its own, and the last batch appended is the active segment. */
export function compactConfig(overrides: Partial<LogConfig> = {}): LogConfig {
  return logConfig({
    cleanupPolicyCompact: true,
    cleanupPolicyDelete: false,
    segmentBytes: 1,
    minCleanableDirtyRatio: 0,
    deleteRetentionMs: DELETE_RETENTION_MS,
    ...overrides,
  });
}

export async function openLog(config: LogConfig = compactConfig()): Promise<PartitionLog> {
  const pool = new FileHandlePool();
  pools.push(pool);
  const log = await PartitionLog.open(dir, config, { clock, pool });
  logs.push(log);
  return log;
}

/** Appends one batch of `entries`, "key=value" or "key=" (tombstone) or "=value" (keyless), stamped now. */
export async function append(
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

export function parseEntry(text: string): Entry {
  const [key, value] = text.split('=');
  return { key: key === '' ? null : key, value: value === '' ? null : value };
}

export async function readBatches(log: PartitionLog): Promise<Array<{ header: BatchHeader; records: ReadRecord[] }>> {
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

export async function readRecords(log: PartitionLog): Promise<string[]> {
  return (await readBatches(log)).flatMap((batch) => batch.records.map(show));
}

export function show(record: ReadRecord): string {
  return `${record.offset}:${record.key ?? ''}=${record.value ?? ''}`;
}

export function clean(log: PartitionLog, highWatermark = log.logEndOffset): Promise<CleanResult> {
  return cleanLog(log, { nowMs: clock.nowMs(), highWatermark });
}
