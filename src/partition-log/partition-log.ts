// One partition's log (Kafka's UnifiedLog): what the rest of the broker calls. It holds no logic of its own; each
// job has its own file:
//
//   local-log.ts        the folder, the segments (log-segments.ts) and offsets, the serial queue, reads, close
//   log-loader.ts       opening the folder, crash recovery
//   log-appender.ts     appends: validation, offsets (append-queue.ts), the group-commit drain, roll and flush
//   log-truncation.ts   truncation for replication
//   log-maintenance.ts  retention, and the hooks of the log cleaner (log-cleaner.ts)
//
// Concurrency: every mutation (the append drain, roll, truncation, retention, compaction swap, close) runs on one
// serial queue per log; reads run concurrently against the segment list they started with, and start over when
// compaction swaps a segment under them (see log-segment.ts). Offsets are assigned when an append is queued, so
// queue order is offset order; `logEndOffset` only moves once bytes are written.
import type { AppendInfo } from './append-queue.js';
import type { LeaderEpochCache } from './leader-epoch-cache.js';
import type { LocalLog, PartitionLogDeps, ReadOptions, ReadResult } from './local-log.js';
import { type AppendAsLeaderOptions, LogAppender } from './log-appender.js';
import type { LogConfig } from './log-config.js';
import { loadLog } from './log-loader.js';
import { LogMaintenance } from './log-maintenance.js';
import type { LogSegment } from './log-segment.js';
import type { ProducerStateTable } from './producer-state.js';
import { LogTruncation } from './log-truncation.js';
import type { RetentionDecision, SegmentSummary } from './retention-policy.js';

export type { AppendInfo } from './append-queue.js';
export { APPENDS_PER_DRAIN_MAX, type AppendAsLeaderOptions } from './log-appender.js';
export {
  DEFAULT_PRODUCER_STATE_SETTINGS,
  READ_BYTES_MAX,
  READ_SEGMENT_SWAPS_MAX,
  type PartitionLogDeps,
  type ReadOptions,
  type ReadResult,
} from './local-log.js';

export class PartitionLog {
  private readonly appender: LogAppender;
  private readonly truncation: LogTruncation;
  private readonly maintenance: LogMaintenance;

  private constructor(private readonly local: LocalLog) {
    this.appender = new LogAppender(local);
    this.truncation = new LogTruncation(local, this.appender);
    this.maintenance = new LogMaintenance(local);
  }

  static async open(dir: string, config: LogConfig, deps: PartitionLogDeps): Promise<PartitionLog> {
    return new PartitionLog(await loadLog(dir, config, deps));
  }

  get dir(): string {
    return this.local.dir;
  }

  get epochs(): LeaderEpochCache {
    return this.local.epochs;
  }

  /**
   * The latest epoch of the leader-epoch checkpoint as this log was opened, before recovery cut anything off: no
   * epoch this replica led before this process started is above it (replication/leadership-admission.ts).
   */
  get latestEpochAtOpen(): number {
    return this.local.latestEpochAtOpen;
  }

  get logEndOffset(): number {
    return this.local.logEndOffset;
  }

  get logStartOffset(): number {
    return this.local.logStartOffset;
  }

  get cleanerCheckpoint(): number {
    return this.local.cleanerCheckpoint;
  }

  get sizeBytes(): number {
    return this.local.segments.sizeBytes;
  }

  get segmentCount(): number {
    return this.local.segments.count;
  }

  get logConfig(): LogConfig {
    return this.local.config;
  }

  /**
   * Moves on whenever the log loses records at its end (truncation, reset). Work that read the log outside
   * `exclusive` (the cleaner) checks it inside before acting on what it read.
   */
  get generation(): number {
    return this.local.generation;
  }

  /** True once `close` or `delete` ran: nothing may change the log's files any more. */
  get isClosed(): boolean {
    return this.local.isClosed;
  }

  /**
   * Settles once the segment the last roll closed is fsynced, its indexes written and the recovery point past it
   * (a roll does that behind the appends that follow it: LocalLog.roll). A crash before then re-scans it.
   */
  rolledSegmentFlushed(): Promise<void> {
    return this.local.rolledSegmentFlushed();
  }

  // ---- appends (log-appender.ts) ----

  /**
   * Appends one batch as the partition leader: validates it (its records too with `validateRecords`), checks an
   * idempotent batch against the producer state (a duplicate resolves with the original's offsets and
   * `duplicate: true`, a refused one throws ProducerStateError), assigns its offsets and stamps `leaderEpoch` (and
   * the append time under LogAppendTime). Resolves once the bytes were handed to the OS with `write`.
   */
  appendAsLeader(batch: Buffer, leaderEpoch: number, options?: AppendAsLeaderOptions): Promise<AppendInfo> {
    return this.appender.appendAsLeader(batch, leaderEpoch, options);
  }

  /**
   * Appends batches copied from the leader, offsets and epochs as they are. The first batch must start at the
   * log end offset (the follower truncated first); a batch that does not continue the log is refused.
   */
  appendAsFollower(batches: Buffer): Promise<AppendInfo | null> {
    return this.appender.appendAsFollower(batches);
  }

  /** A new leader records its epoch at its log end before it appends anything; older epochs are ignored. */
  assignEpochAtEnd(epoch: number): Promise<void> {
    return this.appender.assignEpochAtEnd(epoch);
  }

  /** fsyncs the active segment when flush.ms has passed since the last flush; null when none is due. */
  flushIfTimeElapsed(): Promise<void> | null {
    return this.appender.flushIfTimeElapsed();
  }

  /** Whether flushIfTimeElapsed would start a flush at `nowMs` (the log's clock, monotonic); nothing is started. */
  flushDueByTime(nowMs: number): boolean {
    return this.appender.flushDueByTime(nowMs);
  }

  // ---- reads (local-log.ts) ----

  /** Reads whole batches starting at the batch that holds `startOffset`, from one segment. */
  read(startOffset: number, options: ReadOptions): Promise<ReadResult> {
    return this.local.read(startOffset, options);
  }

  /** The first offset whose record timestamp is >= `timestampMs`, or null when every record is older. */
  offsetForTimestamp(timestampMs: number): Promise<number | null> {
    return this.local.offsetForTimestamp(timestampMs);
  }

  /** The largest record timestamp in the log (from each segment's index state, no read); -1 when empty. */
  get maxTimestampMs(): number {
    let max = -1;
    for (const segment of this.local.segments.all) if (segment.maxTimestampMs > max) max = segment.maxTimestampMs;
    return max;
  }

  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    return this.local.epochs.endOffsetFor(epoch, this.local.logEndOffset);
  }

  // ---- replication (log-truncation.ts) ----

  /** Removes every batch at or after `offset`'s batch (followers, before fetching from a new leader). */
  truncateTo(offset: number): Promise<void> {
    return this.truncation.truncateTo(offset);
  }

  /** Drops the whole log and starts it empty at `offset` (a follower far behind a leader's log start). */
  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.truncation.truncateFullyAndStartAt(offset);
  }

  // ---- retention, producer expiration and the cleaner's hooks (log-maintenance.ts) ----

  /** Forgets producers whose producer.id.expiration.ms (or idempotency retention) ran out; returns how many. */
  expireProducers(): Promise<number> {
    return this.maintenance.expireProducers();
  }

  /** The last offset of each remembered producer's last batch: the cleaner keeps these batches whole. */
  producerLastBatchOffsets(): Set<number> {
    return this.maintenance.producerLastBatchOffsets();
  }

  /** The producer state (tests and operators). */
  get producerState(): ProducerStateTable {
    return this.local.producers.written;
  }

  segmentSummaries(): SegmentSummary[] {
    return this.maintenance.segmentSummaries();
  }

  /** Deletes whole segments that retention allows, never at or above `highWatermark`. */
  applyRetention(highWatermark: number): Promise<RetentionDecision> {
    return this.maintenance.applyRetention(highWatermark);
  }

  /** The segments compaction may rewrite: every one but the active segment. */
  inactiveSegments(): readonly LogSegment[] {
    return this.maintenance.inactiveSegments();
  }

  /** Runs `work` on the log's serial queue (no append, truncation or retention runs meanwhile). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.maintenance.exclusive(work);
  }

  /** Called by the cleaner inside `exclusive`: replaces a segment object after its file was swapped. */
  replaceSegment(replacement: LogSegment): void {
    this.maintenance.replaceSegment(replacement);
  }

  /** Called by the cleaner inside `exclusive`. */
  setCleanerCheckpoint(offset: number): Promise<void> {
    return this.maintenance.setCleanerCheckpoint(offset);
  }

  /** Opens a segment of this log's folder with the log's settings (the cleaner's swapped files). */
  openSegment(baseOffset: number, sizeBytes: number): Promise<LogSegment> {
    return this.maintenance.openSegment(baseOffset, sizeBytes);
  }

  updateConfig(config: LogConfig): void {
    this.local.updateConfig(config);
  }

  // ---- shutdown (local-log.ts) ----

  /** Writes what is queued, flushes, and leaves the clean-shutdown marker. */
  close(): Promise<void> {
    return this.local.close();
  }

  /** Removes the log's folder (topic deletion, or a replica moved away). */
  delete(): Promise<void> {
    return this.local.delete();
  }
}
