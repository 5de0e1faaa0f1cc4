// The small files of a partition folder beside its segments (names in segment-files.ts):
//
//   log-state.json           {"logStartOffset": n, "recoveryPoint": n, "cleanerCheckpoint": n}, written atomically;
//                            a missing or unreadable file reads as all zeros (the segments then decide)
//   leader-epoch-checkpoint  the leader-epoch cache (format in leader-epoch-cache.ts), written atomically; when a
//                            write only adds an epoch at the log end it is not fsynced (see local-log.ts)
//   .clean-shutdown          empty; present only from a clean close until the next open
// The two state files are read synchronously (folder-metadata-reads.ts says why).
import { rm, writeFile } from 'node:fs/promises';
import { DATA_FILE_MODE } from '../common/file-modes.js';
import { join } from 'node:path';
import { replaceFileUnsynced, writeFileAtomic } from '../common/atomic-file.js';
import { readSmallFile } from './folder-metadata-reads.js';
import { LeaderEpochCache } from './leader-epoch-cache.js';
import { CLEAN_SHUTDOWN_FILE, LEADER_EPOCH_CHECKPOINT_FILE, LOG_STATE_FILE } from './segment-files.js';

export interface LogState {
  logStartOffset: number;
  /** Everything below it is known to be fsynced: recovery after a crash re-scans only from the segment holding it. */
  recoveryPoint: number;
  cleanerCheckpoint: number;
}

const EMPTY_STATE: Readonly<LogState> = Object.freeze({ logStartOffset: 0, recoveryPoint: 0, cleanerCheckpoint: 0 });

/** The state of a folder without a state file (a new log). */
export function emptyLogState(): LogState {
  return { ...EMPTY_STATE };
}

export async function readLogState(dir: string): Promise<LogState> {
  try {
    const text = readSmallFile(join(dir, LOG_STATE_FILE));
    if (text === null) return { ...EMPTY_STATE }; // a new log
    const parsed = JSON.parse(text) as Partial<LogState>;
    return {
      logStartOffset: nonNegative(parsed.logStartOffset),
      recoveryPoint: nonNegative(parsed.recoveryPoint),
      cleanerCheckpoint: nonNegative(parsed.cleanerCheckpoint),
    };
  } catch {
    // It is written atomically, so an unreadable one means someone else wrote it: start from the segment files.
    return { ...EMPTY_STATE };
  }
}

export function writeLogState(dir: string, state: LogState): Promise<void> {
  const { logStartOffset, recoveryPoint, cleanerCheckpoint } = state;
  return writeFileAtomic(
    join(dir, LOG_STATE_FILE),
    JSON.stringify({ logStartOffset, recoveryPoint, cleanerCheckpoint }),
  );
}

/** The leader-epoch cache from its checkpoint; empty when there is none. An unreadable checkpoint is an error. */
export async function readLeaderEpochs(dir: string): Promise<LeaderEpochCache> {
  const path = join(dir, LEADER_EPOCH_CHECKPOINT_FILE);
  try {
    const text = readSmallFile(path);
    return text === null ? new LeaderEpochCache() : LeaderEpochCache.parse(text);
  } catch (error) {
    throw new UnreadableEpochCheckpointError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** A checkpoint that exists but does not parse (after a power loss, an unsynced replace may leave it empty). */
export class UnreadableEpochCheckpointError extends Error {}

/** `durable`: an atomic replace with its fsyncs; otherwise the replace only (survives kill -9, not a power loss). */
export function writeLeaderEpochs(dir: string, epochs: LeaderEpochCache, durable = true): Promise<void> {
  const path = join(dir, LEADER_EPOCH_CHECKPOINT_FILE);
  return durable ? writeFileAtomic(path, epochs.serialize()) : replaceFileUnsynced(path, epochs.serialize());
}

export function writeCleanShutdownMarker(dir: string): Promise<void> {
  return writeFile(join(dir, CLEAN_SHUTDOWN_FILE), '', { mode: DATA_FILE_MODE });
}

/** From here on a crash is an unclean shutdown. */
export function removeCleanShutdownMarker(dir: string): Promise<void> {
  return rm(join(dir, CLEAN_SHUTDOWN_FILE), { force: true });
}

function nonNegative(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
