// The producer state on disk: the snapshot files of a partition folder (format in producer-snapshot.ts, names in
// segment-files.ts), and rebuilding the state as of an offset from the latest snapshot at or below it plus the
// batch headers written after it (Kafka's ProducerStateManager.truncateAndReload). Opening a log, a truncation and
// a reset call it; the appender writes a snapshot at every roll (unsynced, made durable behind the appends: see
// LocalLog.roll), the log's close one at its end. A small snapshot
// (a few producers) is read on the event loop (folder-metadata-reads.ts), a large one through the thread pool.
import { readdir, rm } from 'node:fs/promises';
import { replaceFileUnsynced, syncReplacedFile, writeFileAtomic } from '../common/atomic-file.js';
import { readFileBytes } from './folder-metadata-reads.js';
import type { LogSegment } from './log-segment.js';
import { floorSegmentIndex } from './log-segments.js';
import { CorruptProducerSnapshotError, decodeProducerSnapshot, encodeProducerSnapshot } from './producer-snapshot.js';
import { producerKeyOf, type ProducerKey, type ProducerStateTable } from './producer-state.js';
import { isIdempotent, producerBatchOf, type ProducerStateManager } from './producer-state-manager.js';
import { isControlBatch, lastOffsetOf } from './record-batch-layout.js';
import { parseSnapshotFileName, snapshotFilePath } from './segment-files.js';

/** The offsets of the folder's snapshot files, ascending. */
export async function snapshotOffsets(dir: string): Promise<number[]> {
  return snapshotOffsetsIn(await readdir(dir));
}

/** The offsets of the snapshot files among a folder's `names` (a listing the caller has already), ascending. */
export function snapshotOffsetsIn(names: readonly string[]): number[] {
  return names
    .map(parseSnapshotFileName)
    .filter((offset): offset is number => offset !== null)
    .sort((a, b) => a - b);
}

/** Writes the table as the snapshot at `offset` (atomically: the old file or the new one, never a mix). */
export function writeProducerSnapshot(dir: string, offset: number, table: ProducerStateTable): Promise<void> {
  return writeFileAtomic(snapshotFilePath(dir, offset), encodeProducerSnapshot(table.all()));
}

/**
 * The same without fsync (a kill -9 still finds it whole, in the page cache): a roll's snapshot, made durable by
 * syncProducerSnapshot before the recovery point passes its offset. A power loss before that may leave it missing
 * or failing its checks: the loader then deletes it and starts from the one before (reloadProducerState), and
 * re-scans from the recovery point in any case.
 */
export function writeProducerSnapshotUnsynced(dir: string, offset: number, table: ProducerStateTable): Promise<void> {
  return replaceFileUnsynced(snapshotFilePath(dir, offset), encodeProducerSnapshot(table.all()));
}

/** Makes the snapshot writeProducerSnapshotUnsynced wrote at `offset` durable (the file, then the folder). */
export function syncProducerSnapshot(dir: string, offset: number): Promise<void> {
  return syncReplacedFile(snapshotFilePath(dir, offset));
}

/**
 * Deletes the snapshot files whose offset `doomed` picks, among `known` when the caller knows the folder's snapshot
 * offsets (opening a log lists its folder once), else among those a listing finds.
 */
export async function deleteProducerSnapshots(
  dir: string,
  doomed: (offset: number) => boolean,
  known?: readonly number[],
): Promise<void> {
  const offsets = (known ?? (await snapshotOffsets(dir))).filter(doomed);
  await Promise.all(offsets.map((offset) => rm(snapshotFilePath(dir, offset), { force: true })));
}

/**
 * Removes the entries of `forgotten` producers from every snapshot file of the folder (retention or expiration
 * forgot them). An older snapshot that still held them would bring them back on a later reload, merged with a later
 * batch of the same producer id that started afresh.
 */
export async function forgetInSnapshots(dir: string, forgotten: readonly ProducerKey[]): Promise<void> {
  if (forgotten.length === 0) return;
  const doomed = new Set(forgotten);
  for (const offset of await snapshotOffsets(dir)) {
    const path = snapshotFilePath(dir, offset);
    let entries;
    try {
      entries = decodeProducerSnapshot(await readFileBytes(path));
    } catch (error) {
      if (!(error instanceof CorruptProducerSnapshotError)) throw error;
      await rm(path, { force: true });
      continue;
    }
    const kept = entries.filter((entry) => !doomed.has(producerKeyOf(entry.producerId, entry.epoch)));
    if (kept.length < entries.length) await writeFileAtomic(path, encodeProducerSnapshot(kept));
  }
}

export interface ReloadedState {
  table: ProducerStateTable;
  /** The offset of the snapshot it started from; null when it read the log from its start. */
  snapshotOffset: number | null;
  /** Batch headers read after the snapshot. */
  batchesReplayed: number;
  /** Of those, the idempotent ones applied to the table: none means the table is the snapshot's. */
  producerBatchesReplayed: number;
  /** The offsets of the snapshot files left in the folder, ascending. */
  snapshotOffsetsLeft: number[];
}

/**
 * The producer state after every batch below `endOffset`: the latest snapshot at or below it (a snapshot above it
 * is deleted, one that fails its checks too, and the next older one is tried), then every idempotent batch header
 * from there up to `endOffset` in `segments`; producers whose last batch lies below `logStartOffset` are dropped,
 * from the table and from every snapshot file (forgetInSnapshots).
 * Entries replayed from the log get `nowMs` as their last change (the time they were written is not in the log,
 * so they live at least as long as they would have). `known`: the folder's snapshot offsets when the caller has
 * listed it already.
 */
export async function reloadProducerState(
  dir: string,
  segments: readonly LogSegment[],
  logStartOffset: number,
  endOffset: number,
  manager: ProducerStateManager,
  nowMs: number,
  known?: readonly number[],
): Promise<ReloadedState> {
  const table = manager.newTable();
  let snapshotOffset: number | null = null;
  const offsets = known ?? (await snapshotOffsets(dir));
  await deleteProducerSnapshots(dir, (offset) => offset > endOffset, offsets);
  const left = offsets.filter((candidate) => candidate <= endOffset);
  for (const offset of [...left].reverse()) {
    try {
      for (const entry of decodeProducerSnapshot(await readFileBytes(snapshotFilePath(dir, offset))))
        table.restore(entry);
      snapshotOffset = offset;
      break;
    } catch (error) {
      if (!(error instanceof CorruptProducerSnapshotError)) throw error;
      table.clear();
      await rm(snapshotFilePath(dir, offset), { force: true });
      left.splice(left.indexOf(offset), 1);
    }
  }
  const from = Math.max(snapshotOffset ?? logStartOffset, logStartOffset);
  let batchesReplayed = 0;
  let producerBatchesReplayed = 0;
  if (segments.length > 0 && from < endOffset) {
    for (let i = floorSegmentIndex(segments, from); i < segments.length; i++) {
      if (segments[i].baseOffset >= endOffset) break;
      await segments[i].forEachHeaderFrom(from, (header) => {
        if (header.baseOffset < from || lastOffsetOf(header) >= endOffset) return;
        batchesReplayed++;
        if (!isIdempotent(header) || isControlBatch(header)) return;
        producerBatchesReplayed++;
        table.apply(producerBatchOf(header), nowMs);
      });
    }
  }
  // Dropped from the snapshot files too, as retention drops them (log-maintenance.ts). A snapshot that still held
  // such a producer (written before the log start passed its last batch, or before a truncation removed the batches
  // that kept it) would come back on the next reload from it: the batches the producer writes after starting afresh
  // are replayed onto its old entry before this drop runs, and the two runs merge into one entry.
  await forgetInSnapshots(dir, table.removeBelow(logStartOffset));
  return { table, snapshotOffset, batchesReplayed, producerBatchesReplayed, snapshotOffsetsLeft: left };
}
