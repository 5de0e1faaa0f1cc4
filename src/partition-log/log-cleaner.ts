// Log compaction's I/O (Kafka's Cleaner.doClean); the decisions are in cleaner-policy.ts. One round:
//
//   1. On the log's serial queue, take a snapshot (segments, log start, checkpoint) and decide: the cleanable range
//      and whether its dirty ratio is above min.cleanable.dirty.ratio.
//   2. Map key -> latest offset over the dirty segments, a chunk at a time, until the range ends or the map fills.
//   3. For each inactive segment from the log start up to where the map ends, write `<base>.log.cleaned`: every
//      batch kept as it is, re-encoded with the records kept (same base offset, lastOffsetDelta, original offsets,
//      producer fields, leader epoch, compression), or dropped when nothing is kept; then fsync. A segment that
//      loses nothing is not rewritten.
//   4. Swap it in on the serial queue: retire the old segment object (see log-segment.ts), delete its index files
//      (a crash from here on rebuilds them), rename the .cleaned file over the .log, fsync the folder, forget the
//      pooled handle, reopen and re-scan the segment, write its indexes, replace it in the log.
//   5. On the serial queue, advance the cleaner checkpoint to where the map ended.
//
// Steps 2 and 3 run off the serial queue so appends go on meanwhile. They read inactive segments only, which only
// retention, truncation and this cleaner change: the round stops when a segment it reads leaves the log or when
// the log's generation moves (truncation, close), since the map may then name offsets that are gone.
//
// A crash at any point leaves the old or the new file at the path: a leftover .cleaned file is deleted on open,
// missing index files are rebuilt, and the checkpoint moves only after every swap, so the next round redoes the work.
//
// Batches the cleaner cannot rewrite faithfully are neither mapped nor filtered but kept whole: control batches,
// batches whose attributes encodeBatch cannot write (transactional), batches in a codec this broker cannot run,
// and batches whose record offsets are not ascending inside the batch's range (a producer's batch is stored as
// sent). Not mapping a batch can only keep older records of its keys: this keeps more than Kafka would, never less.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { DATA_FILE_MODE } from '../common/file-modes.js';
import { fsyncDirectory } from '../common/atomic-file.js';
import { UnsupportedCompressionError } from './compression.js';
import {
  cleanableRange,
  dirtyRatio,
  legacyDeleteHorizonMs,
  mapRecords,
  recordRetained,
  shouldClean,
  tombstonesRetained,
  type CleanableRange,
} from './cleaner-policy.js';
import type { LogSegment } from './log-segment.js';
import { OffsetMap, type OffsetMapBounds } from './offset-map.js';
import type { PartitionLog } from './partition-log.js';
import { encodeBatch } from './record-batch-builder.js';
import {
  compressionOf,
  CorruptBatchError,
  isControlBatch,
  lastOffsetOf,
  timestampTypeOf,
  validateBatch,
  type BatchHeader,
} from './record-batch-layout.js';
import { batchesIn, decodeRecords, type LogRecord } from './record-batch-reader.js';
import type { SegmentSummary } from './retention-policy.js';
import { CLEANED_SUFFIX, indexFilePath, timeIndexFilePath } from './segment-files.js';

/** How much the cleaner reads, and buffers before writing, at a time (a larger batch is read whole). */
export const CLEANER_IO_CHUNK_BYTES = 1024 * 1024;

export interface CleanParams {
  nowMs: number;
  /** Nothing at or above it is cleaned. */
  highWatermark: number;
  /** Defaults to DEFAULT_OFFSET_MAP_BOUNDS. */
  offsetMapBounds?: OffsetMapBounds;
}

export type CleanOutcome = 'cleaned' | 'not-compacted' | 'below-ratio' | 'already-cleaning' | 'aborted';

export interface CleanResult {
  outcome: CleanOutcome;
  dirtyRatio: number;
  firstDirtyOffset: number;
  /** The cleaner checkpoint after a 'cleaned' round: one past the last offset the map covered. */
  endOffset: number;
  segmentsRewritten: number;
  /** Sizes of the segments the round looked at, before and after. */
  sizeBeforeBytes: number;
  sizeAfterBytes: number;
  recordsRead: number;
  recordsRemoved: number;
}

interface Snapshot {
  generation: number;
  segments: readonly LogSegment[];
  summaries: SegmentSummary[];
  logStartOffset: number;
  cleanerCheckpoint: number;
  /** The last offsets of the remembered producers' last batches: kept whole. */
  producerLastBatches: ReadonlySet<number>;
}

class RoundAborted extends Error {}

const logsBeingCleaned = new WeakSet<PartitionLog>();

/** Runs one compaction round on `log` when its config and dirty ratio call for it. One round per log at a time. */
export async function cleanLog(log: PartitionLog, params: CleanParams): Promise<CleanResult> {
  if (!log.logConfig.cleanupPolicyCompact) return emptyResult('not-compacted');
  if (logsBeingCleaned.has(log)) return emptyResult('already-cleaning');
  logsBeingCleaned.add(log);
  try {
    return await cleanRound(log, params);
  } finally {
    logsBeingCleaned.delete(log);
  }
}

async function cleanRound(log: PartitionLog, params: CleanParams): Promise<CleanResult> {
  if (log.isClosed) return emptyResult('aborted');
  const snapshot = await log.exclusive(async (): Promise<Snapshot> => ({
    generation: log.generation,
    segments: log.inactiveSegments(),
    summaries: log.segmentSummaries(),
    logStartOffset: log.logStartOffset,
    cleanerCheckpoint: log.cleanerCheckpoint,
    producerLastBatches: log.producerLastBatchOffsets(),
  }));
  const config = log.logConfig;
  const range = cleanableRange({
    segments: snapshot.summaries,
    logStartOffset: snapshot.logStartOffset,
    cleanerCheckpoint: snapshot.cleanerCheckpoint,
    highWatermark: params.highWatermark,
    nowMs: params.nowMs,
    minCompactionLagMs: config.minCompactionLagMs,
  });
  const result: CleanResult = {
    ...emptyResult('below-ratio'),
    dirtyRatio: dirtyRatio(range),
    firstDirtyOffset: range.firstDirtyOffset,
  };
  if (!shouldClean({ ...range, minCleanableDirtyRatio: config.minCleanableDirtyRatio })) return result;
  try {
    const map = new OffsetMap(params.offsetMapBounds);
    await mapDirtyRange(snapshot, range, map);
    result.endOffset = map.latestOffset + 1;
    const deleteHorizonMs = legacyDeleteHorizonMs({
      segments: snapshot.summaries,
      firstDirtyOffset: range.firstDirtyOffset,
      deleteRetentionMs: config.deleteRetentionMs,
    });
    for (let i = 0; i < snapshot.segments.length && snapshot.segments[i].baseOffset < result.endOffset; i++) {
      const retainTombstones = tombstonesRetained(snapshot.summaries[i].maxTimestampMs, deleteHorizonMs);
      await cleanSegment(log, snapshot, snapshot.segments[i], map, retainTombstones, result);
    }
    await log.exclusive(async () => {
      assertUnchanged(log, snapshot);
      await log.setCleanerCheckpoint(Math.max(result.endOffset, log.cleanerCheckpoint));
    });
  } catch (error) {
    // A segment deleted by retention while the round read it fails the read: that is a stop, not a fault.
    if (!(error instanceof RoundAborted) && !logChanged(log, snapshot) && !segmentsLeft(log, snapshot)) throw error;
    return { ...result, outcome: 'aborted' };
  }
  return { ...result, outcome: 'cleaned' };
}

/** Fills `map` from the dirty segments; stops where the map fills (see OffsetMap). */
async function mapDirtyRange(snapshot: Snapshot, range: CleanableRange, map: OffsetMap): Promise<void> {
  for (let i = 0; i < snapshot.segments.length; i++) {
    const summary = snapshot.summaries[i];
    if (summary.endOffset <= range.firstDirtyOffset) continue;
    if (summary.baseOffset >= range.firstUncleanableOffset) return;
    for await (const { header, buffer } of batchesOf(snapshot.segments[i])) {
      if (lastOffsetOf(header) < range.firstDirtyOffset) continue;
      const records = recordsToClean(buffer, header) ?? [];
      const dirty = records.filter((record) => record.offset >= range.firstDirtyOffset);
      if (!mapRecords(map, dirty)) return;
      map.markScannedThrough(lastOffsetOf(header));
    }
    map.markScannedThrough(summary.endOffset - 1); // offsets compacted away earlier are covered too
  }
}

async function cleanSegment(
  log: PartitionLog,
  snapshot: Snapshot,
  segment: LogSegment,
  map: OffsetMap,
  retainTombstones: boolean,
  result: CleanResult,
): Promise<void> {
  const cleanedPath = segment.logPath + CLEANED_SUFFIX;
  try {
    const written = await writeCleanedCopy(segment, cleanedPath, map, retainTombstones, snapshot.producerLastBatches);
    result.sizeBeforeBytes += segment.sizeBytes;
    result.recordsRead += written.recordsRead;
    result.recordsRemoved += written.recordsRemoved;
    if (written.recordsRemoved === 0) {
      result.sizeAfterBytes += segment.sizeBytes;
      return;
    }
    await swapIn(log, snapshot, segment, cleanedPath, written.sizeBytes);
    result.sizeAfterBytes += written.sizeBytes;
    result.segmentsRewritten++;
  } finally {
    await rm(cleanedPath, { force: true });
  }
}

interface CleanedCopy {
  sizeBytes: number;
  recordsRead: number;
  recordsRemoved: number;
}

async function writeCleanedCopy(
  segment: LogSegment,
  cleanedPath: string,
  map: OffsetMap,
  retainTombstones: boolean,
  producerLastBatches: ReadonlySet<number>,
): Promise<CleanedCopy> {
  const copy: CleanedCopy = { sizeBytes: 0, recordsRead: 0, recordsRemoved: 0 };
  const file = await open(cleanedPath, 'w', DATA_FILE_MODE);
  try {
    const writer = new ChunkWriter(file);
    for await (const { header, buffer } of batchesOf(segment)) {
      const filtered = producerLastBatches.has(lastOffsetOf(header))
        ? { kept: buffer, recordsRemoved: 0 }
        : filterBatch(buffer, header, map, retainTombstones);
      copy.recordsRead += header.recordCount;
      copy.recordsRemoved += filtered.recordsRemoved;
      if (filtered.kept !== null) await writer.write(filtered.kept);
    }
    copy.sizeBytes = await writer.finish();
    await file.sync();
  } finally {
    await file.close();
  }
  return copy;
}

/** Replaces `segment`'s file with the cleaned copy, on the log's serial queue. */
async function swapIn(
  log: PartitionLog,
  snapshot: Snapshot,
  segment: LogSegment,
  cleanedPath: string,
  sizeBytes: number,
): Promise<void> {
  await log.exclusive(async () => {
    assertUnchanged(log, snapshot);
    if (!log.inactiveSegments().includes(segment)) throw new RoundAborted(`segment ${segment.baseOffset} left the log`);
    let settle = (): void => undefined;
    segment.retire(new Promise<void>((resolve) => (settle = resolve)));
    try {
      await rm(indexFilePath(log.dir, segment.baseOffset), { force: true });
      await rm(timeIndexFilePath(log.dir, segment.baseOffset), { force: true });
      await fsyncDirectory(log.dir); // stale indexes must not outlive the rename in a power loss
      await rename(cleanedPath, segment.logPath);
      await fsyncDirectory(log.dir);
      segment.forgetHandle();
      const replacement = await log.openSegment(segment.baseOffset, sizeBytes);
      const recovery = await replacement.recover();
      if (recovery.truncatedBytes !== 0 || recovery.validBytes !== sizeBytes) {
        throw new Error(
          `compacted segment ${segment.logPath} does not read back: ${recovery.validBytes} of ${sizeBytes} bytes valid`,
        );
      }
      await replacement.writeIndexes();
      log.replaceSegment(replacement);
    } finally {
      settle();
    }
  });
}

interface FilteredBatch {
  /** The batch to write (the original bytes when nothing was removed), or null to drop it. */
  kept: Buffer | null;
  recordsRemoved: number;
}

/** What compaction makes of one batch. Pure. */
function filterBatch(buffer: Buffer, header: BatchHeader, map: OffsetMap, retainTombstones: boolean): FilteredBatch {
  const unchanged: FilteredBatch = { kept: buffer, recordsRemoved: 0 };
  if (header.baseOffset > map.latestOffset) return unchanged;
  const records = recordsToClean(buffer, header);
  if (records === null) return unchanged;
  const kept = records.filter((record) => recordRetained({ record, offsetMap: map, retainTombstones }));
  if (kept.length === records.length) return unchanged;
  if (kept.length === 0) return { kept: null, recordsRemoved: records.length };
  const rewritten = encodeBatch(
    kept.map(({ key, value, headers, timestamp }) => ({ key, value, headers, timestamp })),
    {
      baseOffset: header.baseOffset,
      partitionLeaderEpoch: header.partitionLeaderEpoch,
      compression: compressionOf(header),
      timestampType: timestampTypeOf(header),
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      offsetDeltas: kept.map((record) => record.offset - header.baseOffset),
      lastOffsetDelta: header.lastOffsetDelta,
    },
  );
  const rewrittenHeader = validateBatch(rewritten);
  if (rewrittenHeader.attributes !== header.attributes) return unchanged; // bits encodeBatch cannot write
  if (rewrittenHeader.baseOffset !== header.baseOffset || lastOffsetOf(rewrittenHeader) !== lastOffsetOf(header)) {
    throw new Error(`re-encoding batch ${header.baseOffset} changed its offsets`);
  }
  return { kept: rewritten, recordsRemoved: records.length - kept.length };
}

/** The records of a batch, or null when the cleaner keeps the batch whole (see the header comment). */
function recordsToClean(buffer: Buffer, header: BatchHeader): LogRecord[] | null {
  if (isControlBatch(header)) return null;
  let records: LogRecord[];
  try {
    records = decodeRecords(buffer);
  } catch (error) {
    if (error instanceof UnsupportedCompressionError) return null;
    throw error;
  }
  let previous = header.baseOffset - 1;
  for (const record of records) {
    if (record.offset <= previous || record.offset > lastOffsetOf(header)) return null;
    previous = record.offset;
  }
  return records;
}

/** The segment's batches in order, read CLEANER_IO_CHUNK_BYTES at a time. */
async function* batchesOf(segment: LogSegment): AsyncGenerator<{ header: BatchHeader; buffer: Buffer }> {
  let position = 0;
  while (position < segment.sizeBytes) {
    const chunk = await segment.readFrom(position, CLEANER_IO_CHUNK_BYTES, Number.MAX_SAFE_INTEGER, true);
    if (chunk.length === 0) throw new CorruptBatchError(`no whole batch at ${position} of ${segment.logPath}`);
    for (const { header, position: at } of batchesIn(chunk))
      yield { header, buffer: chunk.subarray(at, at + header.sizeBytes) };
    position += chunk.length;
  }
}

/** Appends buffers to a new file in writes of about CLEANER_IO_CHUNK_BYTES. */
class ChunkWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private position = 0;

  constructor(private readonly file: FileHandle) {}

  async write(buffer: Buffer): Promise<void> {
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    if (this.pendingBytes >= CLEANER_IO_CHUNK_BYTES) await this.flush();
  }

  /** Writes what is buffered; returns the file's size. */
  async finish(): Promise<number> {
    await this.flush();
    return this.position;
  }

  private async flush(): Promise<void> {
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.file.write(data, written, data.length - written, this.position + written);
      if (bytesWritten <= 0) throw new Error('short write of a compacted segment');
      written += bytesWritten;
    }
    this.position += data.length;
  }
}

function logChanged(log: PartitionLog, snapshot: Snapshot): boolean {
  return log.isClosed || log.generation !== snapshot.generation;
}

function segmentsLeft(log: PartitionLog, snapshot: Snapshot): boolean {
  const bases = new Set(log.segmentSummaries().map((summary) => summary.baseOffset));
  return snapshot.segments.some((segment) => !bases.has(segment.baseOffset));
}

function assertUnchanged(log: PartitionLog, snapshot: Snapshot): void {
  if (logChanged(log, snapshot)) throw new RoundAborted('the log was truncated or closed during the round');
}

function emptyResult(outcome: CleanOutcome): CleanResult {
  return {
    outcome,
    dirtyRatio: 0,
    firstDirtyOffset: -1,
    endOffset: -1,
    segmentsRewritten: 0,
    sizeBeforeBytes: 0,
    sizeAfterBytes: 0,
    recordsRead: 0,
    recordsRemoved: 0,
  };
}
