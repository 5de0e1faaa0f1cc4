// Shared fixtures for the partition-log tests: temp folders, batches from plain records, decoding what a read
// returned, and a FileHandlePool that counts the writes and fsyncs that really reach each file.
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/common/clock.js';
import { FileHandlePool, type HandleLease } from '../../src/partition-log/file-handle-pool.js';
import { logConfig, type LogConfig } from '../../src/partition-log/log-config.js';
import { PartitionLog } from '../../src/partition-log/partition-log.js';
import {
  batchesIn,
  decodeRecords,
  encodeBatch,
  type BatchHeader,
  type LogRecord,
  type RecordInput,
} from '../../src/partition-log/record-batch.js';

export const T0 = 1_700_000_000_000;

export async function makeTempDir(prefix = 'brook-log-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface SimpleRecord {
  key?: string | null;
  value: string | null;
  timestamp?: number;
}

export function recordInput(record: SimpleRecord): RecordInput {
  return {
    key: record.key === undefined || record.key === null ? null : Buffer.from(record.key),
    value: record.value === null ? null : Buffer.from(record.value),
    timestamp: record.timestamp ?? T0,
  };
}

/** One v2 batch holding `records` (placeholders for offset and epoch: the log assigns them). */
export function batchOf(...records: SimpleRecord[]): Buffer {
  return encodeBatch(records.map(recordInput));
}

/** A batch of `count` records with values `${prefix}-0` .. and timestamps T0 + i unless given. */
export function batchOfValues(prefix: string, count: number, timestamp?: number): Buffer {
  return batchOf(
    ...Array.from({ length: count }, (_, i) => ({ value: `${prefix}-${i}`, timestamp: timestamp ?? T0 + i })),
  );
}

export interface ReadBatch {
  header: BatchHeader;
  records: LogRecord[];
}

export function batchesOf(bytes: Buffer): ReadBatch[] {
  const batches: ReadBatch[] = [];
  let consumed = 0;
  for (const { header, position } of batchesIn(bytes)) {
    batches.push({ header, records: decodeRecords(bytes.subarray(position, position + header.sizeBytes)) });
    consumed = position + header.sizeBytes;
  }
  if (consumed !== bytes.length) throw new Error(`read returned ${bytes.length - consumed} bytes of a partial batch`);
  return batches;
}

export function recordsOf(bytes: Buffer): LogRecord[] {
  return batchesOf(bytes).flatMap((batch) => batch.records);
}

export function valuesOf(bytes: Buffer): Array<string | null> {
  return recordsOf(bytes).map((record) => (record.value === null ? null : record.value.toString()));
}

/** Reads the whole log from `from` to its end, batch after batch. */
export async function readAll(log: PartitionLog, from = log.logStartOffset): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  let offset = from;
  while (offset < log.logEndOffset) {
    const { batches, nextOffset } = await log.read(offset, { maxBytes: 1024 * 1024 });
    if (nextOffset <= offset) throw new Error(`read at ${offset} made no progress`);
    records.push(...recordsOf(batches));
    offset = nextOffset;
  }
  return records;
}

export interface FileCalls {
  write: number;
  writev: number;
  /** Writes through the native append (LogSegment.append reads the handle's fd once for each). */
  nativeWritev: number;
  sync: number;
}

/** Write calls of any kind: fs write, fs writev, the native append's checked writev. */
export function writeCalls(calls: FileCalls): number {
  return calls.write + calls.writev + calls.nativeWritev;
}

/** A pool whose handles count write, writev and sync calls (and reads of `fd`, see FileCalls) per path. */
export class CountingPool extends FileHandlePool {
  readonly calls = new Map<string, FileCalls>();

  override withHandle<T>(path: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
    return super.withHandle(path, (handle) => use(this.spy(path, handle)));
  }

  override lease(path: string): HandleLease {
    const lease = super.lease(path);
    return {
      opened: lease.opened === null ? null : this.spy(path, lease.opened),
      opening: lease.opening.then((handle) => this.spy(path, handle)),
      release: () => lease.release(),
    };
  }

  totals(): FileCalls {
    const total: FileCalls = { write: 0, writev: 0, nativeWritev: 0, sync: 0 };
    for (const calls of this.calls.values()) {
      total.write += calls.write;
      total.writev += calls.writev;
      total.nativeWritev += calls.nativeWritev;
      total.sync += calls.sync;
    }
    return total;
  }

  reset(): void {
    this.calls.clear();
  }

  private spy(path: string, handle: FileHandle): FileHandle {
    const counts = (): FileCalls => {
      let calls = this.calls.get(path);
      if (calls === undefined) {
        calls = { write: 0, writev: 0, nativeWritev: 0, sync: 0 };
        this.calls.set(path, calls);
      }
      return calls;
    };
    return new Proxy(handle, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property === 'fd') counts().nativeWritev++;
        if (typeof value !== 'function') return value;
        if (property === 'write' || property === 'writev' || property === 'sync') {
          return (...args: unknown[]) => {
            counts()[property]++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
  }
}

export interface LogHarness {
  dir: string;
  clock: ManualClock;
  pool: FileHandlePool;
  config: LogConfig;
  open(): Promise<PartitionLog>;
}

/** A log folder with a manual clock; `open()` opens (or reopens) a PartitionLog on it. */
export function harness(
  dir: string,
  overrides: Partial<LogConfig> = {},
  pool: FileHandlePool = new FileHandlePool(64),
): LogHarness {
  const clock = new ManualClock(T0);
  const config = logConfig({ retentionMs: -1, ...overrides });
  return {
    dir,
    clock,
    pool,
    config,
    open: () => PartitionLog.open(dir, config, { clock, pool }),
  };
}
