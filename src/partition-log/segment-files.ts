// Every on-disk naming rule of a partition folder, in one place.
//
//   <data-dir>/<topic>-<partition>/
//     00000000000000000000.log        record batches, end to end, from base offset 0
//     00000000000000000000.index      sparse offset index (see offset-index.ts)
//     00000000000000000000.timeindex  sparse time index (see time-index.ts)
//     00000000000000000000.log.cleaned  compaction output not yet swapped in (deleted on open)
//     00000000000000000000.snapshot   producer state after every batch below that offset (producer-snapshot.ts)
//     leader-epoch-checkpoint         epoch -> start offset (see leader-epoch-cache.ts)
//     log-state.json                  log start offset, recovery point, cleaner checkpoint
//     .clean-shutdown                 present only after a clean close
//
// Base offsets are padded to 20 digits so that `ls` sorts segments numerically.
import { join } from 'node:path';

export const LOG_SUFFIX = '.log';
export const INDEX_SUFFIX = '.index';
export const TIME_INDEX_SUFFIX = '.timeindex';
export const CLEANED_SUFFIX = '.cleaned';
export const SNAPSHOT_SUFFIX = '.snapshot';
export const LEADER_EPOCH_CHECKPOINT_FILE = 'leader-epoch-checkpoint';
export const LOG_STATE_FILE = 'log-state.json';
export const CLEAN_SHUTDOWN_FILE = '.clean-shutdown';
const OFFSET_DIGITS = 20;

export function segmentBaseName(baseOffset: number): string {
  return String(baseOffset).padStart(OFFSET_DIGITS, '0');
}

export function logFilePath(dir: string, baseOffset: number): string {
  return join(dir, segmentBaseName(baseOffset) + LOG_SUFFIX);
}

export function indexFilePath(dir: string, baseOffset: number): string {
  return join(dir, segmentBaseName(baseOffset) + INDEX_SUFFIX);
}

export function timeIndexFilePath(dir: string, baseOffset: number): string {
  return join(dir, segmentBaseName(baseOffset) + TIME_INDEX_SUFFIX);
}

export function snapshotFilePath(dir: string, offset: number): string {
  return join(dir, segmentBaseName(offset) + SNAPSHOT_SUFFIX);
}

/** The base offset of a `.log` file name, or null for any other file. */
export function parseLogFileName(fileName: string): number | null {
  return parseOffsetFileName(fileName, LOG_SUFFIX);
}

/** The offset of a `.snapshot` file name, or null for any other file. */
export function parseSnapshotFileName(fileName: string): number | null {
  return parseOffsetFileName(fileName, SNAPSHOT_SUFFIX);
}

function parseOffsetFileName(fileName: string, suffix: string): number | null {
  if (!fileName.endsWith(suffix)) return null;
  const digits = fileName.slice(0, -suffix.length);
  if (digits.length !== OFFSET_DIGITS || !/^\d+$/.test(digits)) return null;
  return Number(digits);
}

export function partitionDirName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/** Splits `<topic>-<partition>` at the last dash (topic names may contain dashes). */
export function parsePartitionDirName(dirName: string): { topic: string; partition: number } | null {
  const dash = dirName.lastIndexOf('-');
  if (dash <= 0) return null;
  const partitionText = dirName.slice(dash + 1);
  if (!/^\d+$/.test(partitionText)) return null;
  return { topic: dirName.slice(0, dash), partition: Number(partitionText) };
}
