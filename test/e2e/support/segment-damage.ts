// What a machine crash does to a stopped broker's partition logs, done to its data dir between kill -9 and restart:
//
// - power loss: every partition's newest segment loses its tail from a random point at or above the partition's
//   recovery point (log-state.json's recoveryPoint: offsets below it were fsynced, by a roll, a clean close or the
//   recovery after a crash). Bytes above it were only handed to the OS, which a power loss may drop: Brook, like
//   Kafka, does not fsync by default and never claimed them on disk. The cut lands anywhere, mid-batch included.
//   Never below the recovery point: that would be disk corruption, a different failure.
// - torn tail: random bytes after the last batch of every partition's newest segment (a write cut short).
//
// Segment bytes are Kafka v2 record batches (src/partition-log/record-batch.ts): base offset (int64), batch length
// (int32, the bytes after these first 12), ... Only those two fields are read here.
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeededRandom } from './seeded-random.js';

const LOGS_SUBDIR = 'logs';
const LOG_STATE_FILE = 'log-state.json';
const BATCH_HEADER_BYTES = 12;
/** Most garbage bytes a torn tail appends. */
const TORN_TAIL_BYTES_MAX = 200;

export interface DamageReport {
  partitions: number;
  /** Bytes removed (power loss) or added (torn tail). */
  bytes: number;
  /** Whole or partial batches removed (power loss). */
  batches: number;
}

/** Cuts every partition's newest segment back to a random point at or above its recovery point. */
export function cutUnflushedTails(dataDir: string, random: SeededRandom): DamageReport {
  const report: DamageReport = { partitions: 0, bytes: 0, batches: 0 };
  for (const dir of partitionDirs(dataDir)) {
    const segment = newestSegment(dir);
    if (segment === null) continue;
    const bytes = readFileSync(segment.path);
    const starts = batchStarts(bytes);
    const recoveryPoint = readRecoveryPoint(dir);
    const flushedEnd = starts.find((start) => start.baseOffset >= recoveryPoint)?.position ?? bytes.length;
    if (flushedEnd >= bytes.length) continue;
    const cut = random.integer(flushedEnd, bytes.length - 1);
    truncateSync(segment.path, cut);
    report.partitions++;
    report.bytes += bytes.length - cut;
    report.batches += starts.filter((start) => start.position + start.size > cut).length;
  }
  return report;
}

/** Appends random bytes to every partition's newest segment. */
export function tearTails(dataDir: string, random: SeededRandom): DamageReport {
  const report: DamageReport = { partitions: 0, bytes: 0, batches: 0 };
  for (const dir of partitionDirs(dataDir)) {
    const segment = newestSegment(dir);
    if (segment === null) continue;
    const garbage = Buffer.from(
      Array.from({ length: random.integer(1, TORN_TAIL_BYTES_MAX) }, () => random.integer(0, 255)),
    );
    appendFileSync(segment.path, garbage);
    report.partitions++;
    report.bytes += garbage.length;
  }
  return report;
}

function partitionDirs(dataDir: string): string[] {
  const logs = join(dataDir, LOGS_SUBDIR);
  if (!existsSync(logs)) return [];
  return readdirSync(logs)
    .map((name) => join(logs, name))
    .filter((path) => statSync(path).isDirectory());
}

function newestSegment(dir: string): { path: string; baseOffset: number } | null {
  const bases = readdirSync(dir)
    .filter((name) => /^\d{20}\.log$/.test(name))
    .map((name) => Number(name.slice(0, 20)))
    .sort((a, b) => a - b);
  const base = bases.at(-1);
  return base === undefined ? null : { path: join(dir, `${String(base).padStart(20, '0')}.log`), baseOffset: base };
}

function readRecoveryPoint(dir: string): number {
  try {
    const state = JSON.parse(readFileSync(join(dir, LOG_STATE_FILE), 'utf8')) as { recoveryPoint?: number };
    return typeof state.recoveryPoint === 'number' ? state.recoveryPoint : 0;
  } catch {
    return 0;
  }
}

/** Where each whole batch of a segment starts, with its base offset and size. */
function batchStarts(bytes: Buffer): Array<{ position: number; baseOffset: number; size: number }> {
  const starts = [];
  let position = 0;
  while (position + BATCH_HEADER_BYTES <= bytes.length) {
    const size = BATCH_HEADER_BYTES + bytes.readInt32BE(position + 8);
    if (size <= BATCH_HEADER_BYTES || position + size > bytes.length) break;
    starts.push({ position, baseOffset: Number(bytes.readBigInt64BE(position)), size });
    position += size;
  }
  return starts;
}
