// Opening a partition log from its folder, with crash recovery (Kafka's LogLoader). Files are named as in
// segment-files.ts; the state files are read and written by log-state-files.ts. The folder is listed once; its
// small files, the segments' sizes, small index files and producer snapshots are read synchronously
// (folder-metadata-reads.ts), the segments' batches through the thread pool, a chunk at a time (segment-scan.ts).
//
// 1. Leftovers of interrupted work are deleted: compaction output not yet swapped in (`.cleaned`) and temporary
//    files of atomic replaces (`.tmp`).
// 2. Each segment is opened in base-offset order. After a clean shutdown (the marker is there) every segment's
//    index files are trusted, after a crash those of the segments wholly below the recovery point (LogSegment.open
//    rebuilds one that fails its checks). Every other segment is re-scanned batch by batch (CRC and offset
//    continuity, LogSegment.recover): at the first bad byte its file is truncated and every later segment deleted.
//    Each batch re-scanned gives its leader epoch to the leader-epoch cache when it is above the cache's latest
//    (Kafka's LogSegment.recover): a new epoch is written to the checkpoint without fsync (local-log.ts), so after
//    a power loss the checkpoint may lack the epochs of batches past the recovery point, never of those below it.
//    A checkpoint that does not parse after a crash (an unsynced replace cut by a power loss) is rebuilt the same
//    way from every segment, all of them re-scanned; after a clean shutdown it was durable, so it is an error.
// 3. The offsets are made to agree with what remains: the log end is the last segment's end, the log start and the
//    cleaner checkpoint are kept within the log, the leader-epoch cache loses entries beyond either end (its latest
//    epoch before that, the checkpoint's with the re-scanned batches' epochs, is kept as latestEpochAtOpen: no
//    epoch this replica led before and wrote a batch or a checkpoint in is above it). After a
//    recovery the re-scanned segments below the last are fsynced and the recovery point moves to the last
//    segment's base (a roll relies on every segment below the active one being durable). The last segment is
//    not fsynced and the recovery point not moved into it, as in Kafka's LogLoader: it stays past the recovery
//    point until a flush, a roll or a clean close, so a crash before then re-scans it again. A crash start of
//    many logs (10,000 on one broker) then writes nothing per log: each fsync and state replace cost one open
//    several milliseconds.
// 4. The producer state is the latest snapshot at or below the log end plus the batch headers after it
//    (producer-state-files.ts): after a clean shutdown nothing is read, after a crash the batches since the last
//    roll. Snapshots beyond the log end or below its start are deleted, and producers whose last batch lies below
//    the log start are dropped from the others (a crash may have cut retention short before it dropped them); when
//    idempotent batches were replayed, a snapshot at the log end is written so that the next crash replays less
//    (other batches leave the table as is).
// 5. The epoch checkpoint and then the state are saved when they differ from what was read (the epochs first: a
//    recovery point moved past re-scanned batches needs their epochs durable), and the clean-shutdown marker
//    removed: from here on a crash is an unclean shutdown.
import { readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { DATA_DIR_MODE } from '../common/file-modes.js';
import { join } from 'node:path';
import { fileSizeOf } from './folder-metadata-reads.js';
import { DEFAULT_PRODUCER_STATE_SETTINGS, LocalLog, segmentOptionsOf, type PartitionLogDeps } from './local-log.js';
import type { LogConfig } from './log-config.js';
import { LogSegment } from './log-segment.js';
import { LogSegments } from './log-segments.js';
import { LeaderEpochCache } from './leader-epoch-cache.js';
import {
  emptyLogState,
  readLeaderEpochs,
  readLogState,
  removeCleanShutdownMarker,
  UnreadableEpochCheckpointError,
  type LogState,
} from './log-state-files.js';
import { ProducerStateManager } from './producer-state-manager.js';
import type { BatchHeader } from './record-batch-layout.js';
import {
  deleteProducerSnapshots,
  forgetInSnapshots,
  reloadProducerState,
  snapshotOffsetsIn,
  writeProducerSnapshot,
} from './producer-state-files.js';
import {
  CLEAN_SHUTDOWN_FILE,
  CLEANED_SUFFIX,
  LEADER_EPOCH_CHECKPOINT_FILE,
  LOG_STATE_FILE,
  parseLogFileName,
} from './segment-files.js';

/** The suffix of a temporary file an atomic replace had not renamed yet (see common/atomic-file.ts). */
const TEMPORARY_SUFFIX = '.tmp';

export async function loadLog(dir: string, config: LogConfig, deps: PartitionLogDeps): Promise<LocalLog> {
  const names = await listOrCreate(dir);
  await Promise.all(
    names
      .filter((name) => name.endsWith(CLEANED_SUFFIX) || name.endsWith(TEMPORARY_SUFFIX))
      .map((name) => rm(join(dir, name), { force: true })),
  );
  // the folder is listed once: the marker, the state files and the snapshots are known from the listing
  const cleanShutdown = names.includes(CLEAN_SHUTDOWN_FILE);
  const state = names.includes(LOG_STATE_FILE) ? await readLogState(dir) : emptyLogState();
  const checkpoint = names.includes(LEADER_EPOCH_CHECKPOINT_FILE)
    ? await readEpochCheckpoint(dir, cleanShutdown)
    : new LeaderEpochCache();
  const epochs = checkpoint ?? new LeaderEpochCache();
  let epochsRepaired = checkpoint === null;
  const assignBatchEpoch = (header: BatchHeader) => {
    const epoch = header.partitionLeaderEpoch;
    if (epoch < 0 || epoch <= epochs.latestEpoch()) return;
    epochs.assign(epoch, header.baseOffset);
    epochsRepaired = true;
  };
  // without a checkpoint to trust, every segment is re-scanned for its epochs
  const scanFrom = checkpoint === null ? { ...state, recoveryPoint: 0 } : state;
  const { segments, rescanned } = await loadSegments(
    dir,
    config,
    deps,
    names,
    scanFrom,
    cleanShutdown,
    assignBatchEpoch,
  );
  const latestEpochAtOpen = epochs.latestEpoch();
  const logEndOffset = segments[segments.length - 1].nextOffset;
  const logStartOffset = Math.min(Math.max(state.logStartOffset, segments[0].baseOffset), logEndOffset);
  const epochsCutAtEnd = epochs.truncateFromEnd(logEndOffset);
  const epochsChanged = epochs.truncateFromStart(logStartOffset) || epochsCutAtEnd || epochsRepaired;
  // the segments below the recovery point were durable already; of the re-scanned, all but the last are made so
  const last = segments[segments.length - 1];
  const rescannedBelowLast = rescanned.filter((segment) => segment !== last);
  for (const segment of rescannedBelowLast) await segment.flush();
  const producers = new ProducerStateManager(deps.producerState ?? DEFAULT_PRODUCER_STATE_SETTINGS);
  const nowMs = deps.clock.nowMs();
  const reloaded = await reloadProducerState(
    dir,
    segments,
    logStartOffset,
    logEndOffset,
    producers,
    nowMs,
    snapshotOffsetsIn(names),
  );
  last.dropRecoveredBytes();
  producers.replaceWritten(reloaded.table);
  await forgetInSnapshots(dir, producers.removeExpired(nowMs));
  await deleteProducerSnapshots(dir, (offset) => offset < logStartOffset, reloaded.snapshotOffsetsLeft);
  if (reloaded.producerBatchesReplayed > 0) await writeProducerSnapshot(dir, logEndOffset, producers.written);
  const opened: LogState = {
    logStartOffset,
    recoveryPoint: recoveryPointAfterLoad(state.recoveryPoint, logEndOffset, rescannedBelowLast.length > 0, last),
    cleanerCheckpoint: Math.min(state.cleanerCheckpoint, logEndOffset),
  };
  const local = new LocalLog(
    dir,
    config,
    deps,
    epochs,
    new LogSegments(segments),
    producers,
    { ...opened, logEndOffset },
    latestEpochAtOpen,
  );
  // Each is an atomic replace with two fsyncs: only what changed is written (a clean start writes neither).
  if (epochsChanged) await local.saveEpochs();
  if (!sameLogState(opened, state)) await local.saveState();
  if (cleanShutdown) await removeCleanShutdownMarker(dir);
  return local;
}

/**
 * The folder's entries; a missing folder is created (empty). An existing folder is listed on the event loop, as its
 * small files are read (folder-metadata-reads.ts): a few entries per segment, one listing per open.
 */
async function listOrCreate(dir: string): Promise<string[]> {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
    return [];
  }
}

/**
 * Where the recovery point stands once the log is open: never above the log end (recovery may have cut below it);
 * at least the last segment's base when the re-scanned segments below it were just fsynced.
 */
function recoveryPointAfterLoad(saved: number, logEndOffset: number, flushedBelowLast: boolean, last: LogSegment) {
  const kept = Math.min(saved, logEndOffset);
  return flushedBelowLast ? Math.max(kept, last.baseOffset) : kept;
}

/** The checkpoint; null when it does not parse after a crash (rebuilt from the batches), an error after a clean one. */
async function readEpochCheckpoint(dir: string, cleanShutdown: boolean): Promise<LeaderEpochCache | null> {
  try {
    return await readLeaderEpochs(dir);
  } catch (error) {
    if (cleanShutdown || !(error instanceof UnreadableEpochCheckpointError)) throw error;
    return null;
  }
}

function sameLogState(a: LogState, b: LogState): boolean {
  return (
    a.logStartOffset === b.logStartOffset &&
    a.recoveryPoint === b.recoveryPoint &&
    a.cleanerCheckpoint === b.cleanerCheckpoint
  );
}

interface LoadedSegments {
  /** Never empty: a folder without segments gets an empty one at the log start offset. */
  segments: LogSegment[];
  /** The segments re-scanned (an unclean shutdown with data after the recovery point), to be fsynced. */
  rescanned: LogSegment[];
}

async function loadSegments(
  dir: string,
  config: LogConfig,
  deps: PartitionLogDeps,
  names: string[],
  state: LogState,
  cleanShutdown: boolean,
  onValidBatch: (header: BatchHeader) => void,
): Promise<LoadedSegments> {
  const options = segmentOptionsOf(config);
  const baseOffsets = names
    .map(parseLogFileName)
    .filter((base): base is number => base !== null)
    .sort((a, b) => a - b);
  const now = deps.clock.nowMs();
  const segments: LogSegment[] = [];
  const rescanned: LogSegment[] = [];
  for (let i = 0; i < baseOffsets.length; i++) {
    const base = baseOffsets[i];
    const nextBase = baseOffsets[i + 1];
    const trusted = cleanShutdown || (nextBase !== undefined && nextBase <= state.recoveryPoint);
    const size = fileSizeOf(
      join(
        dir,
        names.find((name) => parseLogFileName(name) === base)!,
      ),
    );
    const segment = await LogSegment.open(dir, base, deps.pool, options, size, now, trusted);
    segments[segments.length - 1]?.dropRecoveredBytes();
    segments.push(segment);
    if (trusted) continue;
    rescanned.push(segment);
    segment.keepRecoveredBytes(); // the last one's, for the producer replay (loadLog drops them after it)
    const previous = segments[segments.length - 2];
    const result = await segment.recover(previous?.nextOffset ?? base, onValidBatch);
    if (result.truncatedBytes > 0) {
      for (const laterBase of baseOffsets.slice(i + 1)) {
        const doomed = await LogSegment.open(dir, laterBase, deps.pool, options, 0, now, false);
        await doomed.deleteFiles();
      }
      break;
    }
  }
  if (segments.length === 0) {
    segments.push(await LogSegment.create(dir, state.logStartOffset, deps.pool, options, now));
  }
  return { segments, rescanned };
}
