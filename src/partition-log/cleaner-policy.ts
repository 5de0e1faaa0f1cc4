// What log compaction (cleanup.policy=compact) cleans and what it keeps: pure decisions, as Kafka's
// LogCleanerManager (which range, whether now) and Cleaner.shouldRetainRecord (which record). The I/O is in
// log-cleaner.ts.
//
//   log start          cleaner checkpoint            first uncleanable           active segment
//   | clean: compacted before | dirty: appended since, cleanable | too new or above the HW | never cleaned |
//
// - The cleanable range ends at the active segment, at the first dirty segment holding a record newer than
//   now - min.compaction.lag.ms, and at the first segment reaching past the high watermark. It is whole segments.
// - A round maps key -> latest offset over the dirty range (offset-map.ts, bounded), then rewrites the log from its
//   start up to where the map ends, keeping a record when no later record has its key.
// - Keyless records are dropped, as Kafka's cleaner drops them (Cleaner.shouldRetainRecord counts them as invalid
//   messages and returns false). A compacted topic should refuse them at produce time, as Kafka's LogValidator does.
// - Tombstones (null value) follow Kafka's legacy rule (the one it applies to pre-v2 batches), with the segment's
//   max record timestamp in place of the file's last-modified time: the delete horizon is delete.retention.ms
//   before the max timestamp of the last segment that was already clean when the round began, and a tombstone
//   goes once its segment's max timestamp is at or before that horizon. So a tombstone survives the round that
//   first cleans it, and goes in a later round once the clean part of the log holds records written at least
//   delete.retention.ms after it. KIP-534's rule (a delete horizon stamped into the batch, attribute bit 6, on the
//   first clean) needs encodeBatch to write that bit and base timestamp; it is not used.
import { OffsetMap, type OffsetMapBounds } from './offset-map.js';
import type { SegmentSummary } from './retention-policy.js';

export interface CleanableRangeParams {
  /** Ascending by base offset; the last one is the active segment. */
  segments: readonly SegmentSummary[];
  logStartOffset: number;
  cleanerCheckpoint: number;
  highWatermark: number;
  nowMs: number;
  minCompactionLagMs: number;
}

export interface CleanableRange {
  /** Where the dirty part starts: the cleaner checkpoint, or the log start when that is later. */
  firstDirtyOffset: number;
  /** Where cleaning must stop (exclusive): always a segment's base offset. */
  firstUncleanableOffset: number;
  /** Bytes of the segments wholly below firstDirtyOffset. */
  cleanBytes: number;
  /** Bytes of the segments from the one holding firstDirtyOffset up to firstUncleanableOffset. */
  dirtyBytes: number;
  totalBytes: number;
}

export function cleanableRange(params: CleanableRangeParams): CleanableRange {
  const segments = params.segments;
  if (segments.length === 0) throw new RangeError('a log has at least its active segment');
  const firstDirtyOffset = Math.max(params.cleanerCheckpoint, params.logStartOffset);
  let firstUncleanableOffset = segments[segments.length - 1].baseOffset;
  for (const segment of segments.slice(0, -1)) {
    if (segment.endOffset <= firstDirtyOffset) continue; // already clean: the lag and the HW were met back then
    if (segment.endOffset > params.highWatermark || tooNewToClean(segment, params)) {
      firstUncleanableOffset = segment.baseOffset;
      break;
    }
  }
  let cleanBytes = 0;
  let dirtyBytes = 0;
  for (const segment of segments.slice(0, -1)) {
    if (segment.endOffset <= firstDirtyOffset) cleanBytes += segment.sizeBytes;
    else if (segment.baseOffset < firstUncleanableOffset) dirtyBytes += segment.sizeBytes;
  }
  return { firstDirtyOffset, firstUncleanableOffset, cleanBytes, dirtyBytes, totalBytes: cleanBytes + dirtyBytes };
}

/** Kafka applies min.compaction.lag.ms only when it is positive, so future timestamps do not block a lag of 0. */
function tooNewToClean(segment: SegmentSummary, params: CleanableRangeParams): boolean {
  return params.minCompactionLagMs > 0 && segment.maxTimestampMs > params.nowMs - params.minCompactionLagMs;
}

export interface DirtyBytes {
  /** Clean plus dirty bytes of the cleanable part of the log (the active segment excluded). */
  totalBytes: number;
  dirtyBytes: number;
}

/** The share of the cleanable part of the log that is dirty; 0 for an empty log. */
export function dirtyRatio(bytes: DirtyBytes): number {
  return bytes.totalBytes === 0 ? 0 : bytes.dirtyBytes / bytes.totalBytes;
}

/** Clean when the dirty ratio is above min.cleanable.dirty.ratio (strictly, as Kafka). */
export function shouldClean(params: DirtyBytes & { minCleanableDirtyRatio: number }): boolean {
  return params.dirtyBytes > 0 && dirtyRatio(params) > params.minCleanableDirtyRatio;
}

export interface DeleteHorizonParams {
  segments: readonly SegmentSummary[];
  firstDirtyOffset: number;
  deleteRetentionMs: number;
}

/**
 * The legacy delete horizon: delete.retention.ms before the max timestamp of the last segment below
 * firstDirtyOffset. Before any segment was cleaned there is no horizon and every tombstone stays (-Infinity).
 */
export function legacyDeleteHorizonMs(params: DeleteHorizonParams): number {
  const clean = params.segments.filter((segment) => segment.baseOffset < params.firstDirtyOffset);
  if (clean.length === 0) return Number.NEGATIVE_INFINITY;
  return clean[clean.length - 1].maxTimestampMs - params.deleteRetentionMs;
}

/** Tombstones in a segment stay while its max timestamp is after the delete horizon. */
export function tombstonesRetained(segmentMaxTimestampMs: number, deleteHorizonMs: number): boolean {
  return segmentMaxTimestampMs > deleteHorizonMs;
}

export interface MappableRecord {
  offset: number;
  key: Buffer | null;
}

/**
 * Maps `records` (ascending offsets) into `map`: each keyed record becomes its key's latest offset, keyless ones
 * are only passed over. Returns false when the map filled up before the end; the records before that are mapped.
 */
export function mapRecords(map: OffsetMap, records: Iterable<MappableRecord>): boolean {
  for (const record of records) {
    if (record.key !== null && !map.put(record.key, record.offset)) return false;
    map.markScannedThrough(record.offset);
  }
  return true;
}

/** key -> latest offset over `records` (ascending offsets), as far as the bounds allow (see mapRecords). */
export function buildOffsetMap(records: Iterable<MappableRecord>, bounds?: OffsetMapBounds): OffsetMap {
  const map = new OffsetMap(bounds);
  mapRecords(map, records);
  return map;
}

export interface RetainParams {
  record: { offset: number; key: Buffer | null; value: Buffer | null };
  offsetMap: Pick<OffsetMap, 'get' | 'latestOffset'>;
  /** From tombstonesRetained for the segment holding the record. */
  retainTombstones: boolean;
}

/**
 * Whether compaction keeps a record (Kafka's Cleaner.shouldRetainRecord): everything past the map is kept (this
 * round does not clean it); a keyless record goes; a keyed one stays when no later offset holds its key and it
 * has a value or its tombstone is still retained.
 */
export function recordRetained(params: RetainParams): boolean {
  const { record, offsetMap } = params;
  if (record.offset > offsetMap.latestOffset) return true;
  if (record.key === null) return false;
  const latest = offsetMap.get(record.key);
  if (latest !== undefined && record.offset < latest) return false;
  return record.value !== null || params.retainTombstones;
}
