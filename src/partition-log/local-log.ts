// One partition log's local state (Kafka's LocalLog): its folder and settings, its segments (log-segments.ts), the
// offsets that describe them (log start, log end, recovery point, cleaner checkpoint), the leader-epoch cache, the
// producer state (producer-state-manager.ts), the serial queue its mutations run on, and reading batches from it. The loader (log-loader.ts) builds it from the
// folder; the appender (log-appender.ts), truncation (log-truncation.ts) and maintenance (log-maintenance.ts)
// change it, each on the serial queue.
//
// Reads run concurrently with every mutation against the segment list they started with, and start over when
// compaction swaps a segment under them (see log-segment.ts). `logEndOffset` only moves once bytes are written.
//
// The leader-epoch checkpoint is written in two ways (Kafka's since KAFKA-15046):
//   - a new epoch at the log end (a new leadership, a follower's first batch of an epoch): replaced without fsync
//     (recordNewEpoch), before the leadership is taken or the batch written. A kill -9 finds it (page cache), so
//     leadership-admission.ts's rule 2 holds as before; a power loss may lose it, like the batches after the
//     recovery point, and recovery (log-loader.ts) assigns again the epochs of the batches it re-scans.
//   - anything that removes entries (truncation, the log start moving, a refused batch, recovery's repair):
//     atomic replace with fsync (saveEpochs), so an older checkpoint with entries past a truncation never comes
//     back.
// The order that makes the first safe: the checkpoint is made durable (saveEpochs) before any state file with a
// higher recovery point is written (saveState), so every batch below a recovery point on disk has its epoch in a
// durable checkpoint, and every batch above it is re-scanned after a crash. An epoch lost with no batch of it
// left was never written anywhere by this replica; rule 1 of leadership-admission.ts (a restarted broker is a new
// incarnation, whose leaderships the controller gives a new epoch) still keeps it from leading that epoch again.
import { rm } from 'node:fs/promises';
import type { Clock } from '../common/clock.js';
import type { PendingAppend } from './append-queue.js';
import type { FileHandlePool } from './file-handle-pool.js';
import type { InlineWriteGate } from './inline-write-gate.js';
import type { LeaderEpochCache } from './leader-epoch-cache.js';
import type { LogConfig } from './log-config.js';
import { LogClosedError, LogOfflineError, OffsetOutOfRangeError, SegmentRetiredError } from './log-errors.js';
import { LogSegment, type SegmentOptions } from './log-segment.js';
import { floorSegmentIndex, type LogSegments } from './log-segments.js';
import { writeCleanShutdownMarker, writeLeaderEpochs, writeLogState, type LogState } from './log-state-files.js';
import type { ProducerStateManager, ProducerStateSettings } from './producer-state-manager.js';
import { syncProducerSnapshot, writeProducerSnapshot, writeProducerSnapshotUnsynced } from './producer-state-files.js';
import { batchesIn, batchesSummary, decodeRecords } from './record-batch-reader.js';
import { SerialQueue } from './serial-queue.js';

/** Most bytes a single read may return (a caller's max_bytes is clamped to this). */
export const READ_BYTES_MAX = 64 * 1024 * 1024;
/** Most times one read starts over because compaction swapped the segment it was reading. */
export const READ_SEGMENT_SWAPS_MAX = 8;
/** How much offsetForTimestamp reads at a time while it looks for the first record at or after the timestamp. */
const TIMESTAMP_SEARCH_READ_BYTES = 1024 * 1024;

export interface PartitionLogDeps {
  clock: Clock;
  pool: FileHandlePool;
  /** The broker's producer-state bounds; DEFAULT_PRODUCER_STATE_SETTINGS when absent. */
  producerState?: ProducerStateSettings;
  /** The broker's gate for leader writes on the JavaScript thread (inline-write-gate.ts); without, none is. */
  inlineWrites?: InlineWriteGate;
}

/** Kafka's producer.id.expiration.ms default, Brook's idempotency retention default, and Brook's bound. */
export const DEFAULT_PRODUCER_STATE_SETTINGS: Readonly<ProducerStateSettings> = Object.freeze({
  producerIdExpirationMs: 86_400_000,
  idempotencyRetentionMs: 86_400_000,
  producerIdsMax: 10_000,
});

export interface ReadOptions {
  maxBytes: number;
  /** Nothing at or above this offset is returned (the high watermark for consumers). Defaults to the log end. */
  maxOffsetExclusive?: number;
  /** Return the first batch even when it is larger than maxBytes, so a reader always makes progress. */
  minOneBatch?: boolean;
}

export interface ReadResult {
  /** Whole record batches, end to end, as stored. */
  batches: Buffer;
  /** The offset to read from next. */
  nextOffset: number;
}

export interface LogOffsets extends LogState {
  logEndOffset: number;
}

export function segmentOptionsOf(config: LogConfig): SegmentOptions {
  return { indexIntervalBytes: config.indexIntervalBytes, segmentIndexBytes: config.segmentIndexBytes };
}

export class LocalLog {
  private endOffset: number;
  private startOffset: number;
  private recoveryPointOffset: number;
  private cleanerCheckpointOffset: number;
  private generationCount = 0;
  private closed = false;
  private offline: Error | null = null;
  /** The checkpoint holds an epoch written without fsync (recordNewEpoch): saveState makes it durable first. */
  private epochsUnsynced = false;
  private readonly queue = new SerialQueue();
  /** Settles once the appends written behind the serial queue (log-write-pipeline.ts) are answered. */
  private writesBehind: Promise<void> = Promise.resolve();
  /** The flush of the segment the last roll closed, while it runs (see roll); never rejects. */
  private rolledFlush: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    private settings: LogConfig,
    readonly deps: PartitionLogDeps,
    readonly epochs: LeaderEpochCache,
    readonly segments: LogSegments,
    readonly producers: ProducerStateManager,
    offsets: LogOffsets,
    /** The latest epoch of the epoch checkpoint as read at open, before recovery truncated it (log-loader.ts). */
    readonly latestEpochAtOpen: number,
  ) {
    this.endOffset = offsets.logEndOffset;
    this.startOffset = offsets.logStartOffset;
    this.recoveryPointOffset = offsets.recoveryPoint;
    this.cleanerCheckpointOffset = offsets.cleanerCheckpoint;
  }

  get config(): LogConfig {
    return this.settings;
  }

  get logEndOffset(): number {
    return this.endOffset;
  }

  get logStartOffset(): number {
    return this.startOffset;
  }

  get recoveryPoint(): number {
    return this.recoveryPointOffset;
  }

  get cleanerCheckpoint(): number {
    return this.cleanerCheckpointOffset;
  }

  /** Moves on whenever the log loses records at its end (truncation, reset). */
  get generation(): number {
    return this.generationCount;
  }

  /** True once `close` or `delete` ran: nothing may change the log's files any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The I/O error that took the log offline; null while it is online. */
  get offlineCause(): Error | null {
    return this.offline;
  }

  updateLogEndOffset(offset: number): void {
    this.endOffset = offset;
  }

  /** `items` (in offset order) were written to the active segment: the log end moves past them, and the producer
   *  state learns of their batches. */
  appendsCommitted(items: readonly PendingAppend[]): void {
    this.endOffset = items[items.length - 1].info.lastOffset + 1;
    const nowMs = this.deps.clock.nowMs();
    for (const item of items) {
      if (item.producer !== null) this.producers.onWritten(item.producer, !item.fromLeader, nowMs);
    }
  }

  updateLogStartOffset(offset: number): void {
    this.startOffset = offset;
  }

  updateRecoveryPoint(offset: number): void {
    this.recoveryPointOffset = offset;
  }

  updateCleanerCheckpoint(offset: number): void {
    this.cleanerCheckpointOffset = offset;
  }

  /** The log is about to lose records at its end. */
  bumpGeneration(): void {
    this.generationCount++;
  }

  /** Takes the log offline after an I/O error (the first cause stays) and returns the cause. */
  takeOffline(cause: Error): Error {
    this.offline ??= cause;
    return this.offline;
  }

  updateConfig(config: LogConfig): void {
    this.settings = config;
    for (const segment of this.segments.all) segment.updateOptions(segmentOptionsOf(config));
  }

  assertWritable(): void {
    if (this.closed) throw new LogClosedError(`log ${this.dir} is closed`);
    if (this.offline) throw this.offline;
  }

  /**
   * Runs `work` on the log's serial queue: no other mutation of the log runs meanwhile, nor any append written
   * behind an earlier drain (it starts once they are answered).
   */
  serial<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      await this.writesBehind;
      if (this.rolledFlush !== null) await this.rolledFlush;
      return work();
    });
  }

  /**
   * For the appender's drain only: runs `work` on the serial queue without waiting for the appends written behind
   * earlier drains, so that one drain's write can start while another's is in flight (log-write-pipeline.ts).
   */
  serialDrain(work: () => Promise<void>): Promise<void> {
    return this.queue.run(work);
  }

  /** Appends written behind the serial queue: `answered` settles (never rejects) once they are answered. */
  writingBehind(answered: Promise<void>): void {
    this.writesBehind = answered;
  }

  /** Settles once every append written behind the serial queue so far is answered. */
  appendsWritten(): Promise<void> {
    return this.writesBehind;
  }

  createSegment(baseOffset: number): Promise<LogSegment> {
    return LogSegment.create(
      this.dir,
      baseOffset,
      this.deps.pool,
      segmentOptionsOf(this.settings),
      this.deps.clock.nowMs(),
    );
  }

  /** Opens a segment file of this folder with the log's settings (see LogSegment.open). */
  openSegment(baseOffset: number, sizeBytes: number, trustIndexes: boolean): Promise<LogSegment> {
    return LogSegment.open(
      this.dir,
      baseOffset,
      this.deps.pool,
      segmentOptionsOf(this.settings),
      sizeBytes,
      this.deps.clock.nowMs(),
      trustIndexes,
    );
  }

  /**
   * Starts a new active segment at `newBaseOffset`. The segment it closes is fsynced and its indexes written behind
   * the appends that follow (flushRolled), as Kafka's roll schedules the flush of the old segment: they no longer
   * wait for the fsync of a whole segment (1 GiB by default; under K1 on a busy disk about 1 s, every request of
   * the partition held). The recovery point moves to `newBaseOffset`, and the state file is saved, once that is
   * done; until then a crash re-scans the closed segment too. Everything else that writes the state or epoch files,
   * or changes the segments (the serial queue, the next roll), waits for it first.
   * The producer snapshot at `newBaseOffset` is written before the new segment takes appends, but fsynced (file and
   * folder) behind them too, before the recovery point moves, as Kafka does since KAFKA-15046. Its two fsyncs each
   * wait for a journal commit, and while writeback is busy (K1's baseline and broker writing ~1 GB/s between them,
   * Dirty held at the background threshold, 2 GB) the synced snapshot took 140-760 ms of the roll, in I/O wait,
   * every request of the partition held.
   */
  async roll(newBaseOffset: number): Promise<void> {
    if (this.rolledFlush !== null) await this.rolledFlush; // the previous roll's, a whole segment ago
    const closed = this.segments.active;
    // every batch below newBaseOffset is written and in the table (the appender applies each group it wrote)
    await writeProducerSnapshotUnsynced(this.dir, newBaseOffset, this.producers.written);
    this.segments.add(await this.createSegment(newBaseOffset));
    const flushed = this.flushRolled(closed, newBaseOffset);
    this.rolledFlush = flushed;
    void flushed.then(() => {
      if (this.rolledFlush === flushed) this.rolledFlush = null;
    });
  }

  /** Settles (never rejects) once the segment the last roll closed is durable and the recovery point past it. */
  rolledSegmentFlushed(): Promise<void> {
    return this.rolledFlush ?? Promise.resolve();
  }

  /**
   * fsyncs `closed` and writes its indexes, fsyncs the producer snapshot at `upTo`, then moves the recovery point
   * to `upTo`; an I/O error takes the log offline.
   */
  private async flushRolled(closed: LogSegment, upTo: number): Promise<void> {
    try {
      await closed.flush();
      await syncProducerSnapshot(this.dir, upTo);
      if (this.offline !== null || this.recoveryPointOffset >= upTo) return;
      this.recoveryPointOffset = upTo;
      await this.writeState();
    } catch (error) {
      this.takeOffline(
        new LogOfflineError(`log ${this.dir} is offline after an I/O error: ${(error as Error).message}`),
      );
    }
  }

  /** Writes the state file; an epoch written without fsync is made durable first (see the header). */
  async saveState(): Promise<void> {
    if (this.rolledFlush !== null) await this.rolledFlush;
    await this.writeState();
  }

  private async writeState(): Promise<void> {
    if (this.epochsUnsynced) await this.writeEpochs();
    await writeLogState(this.dir, {
      logStartOffset: this.startOffset,
      recoveryPoint: this.recoveryPointOffset,
      cleanerCheckpoint: this.cleanerCheckpointOffset,
    });
  }

  /** The epoch checkpoint as the cache holds it, durably (atomic replace with fsync). */
  async saveEpochs(): Promise<void> {
    if (this.rolledFlush !== null) await this.rolledFlush;
    await this.writeEpochs();
  }

  private async writeEpochs(): Promise<void> {
    this.epochsUnsynced = false;
    try {
      await writeLeaderEpochs(this.dir, this.epochs, true);
    } catch (error) {
      this.epochsUnsynced = true;
      throw error;
    }
  }

  /**
   * After the cache gained an epoch at the log end, and only then: the checkpoint replaced without fsync (see the
   * header); the next saveState makes it durable.
   */
  async recordNewEpoch(): Promise<void> {
    if (this.rolledFlush !== null) await this.rolledFlush;
    this.epochsUnsynced = true;
    await writeLeaderEpochs(this.dir, this.epochs, false);
  }

  /**
   * Reads whole batches starting at the batch that holds `startOffset`, from one segment. A read that meets a
   * segment compaction is swapping waits for the swap and starts over.
   */
  async read(startOffset: number, options: ReadOptions): Promise<ReadResult> {
    for (let swaps = 0; ; swaps++) {
      try {
        return await this.readOnce(startOffset, options);
      } catch (error) {
        if (!(error instanceof SegmentRetiredError) || swaps >= READ_SEGMENT_SWAPS_MAX) throw error;
        await error.replaced;
      }
    }
  }

  private async readOnce(startOffset: number, options: ReadOptions): Promise<ReadResult> {
    const logEnd = this.endOffset;
    if (startOffset < this.startOffset || startOffset > logEnd) {
      throw new OffsetOutOfRangeError(startOffset, this.startOffset, logEnd);
    }
    const limit = Math.min(options.maxOffsetExclusive ?? logEnd, logEnd);
    const maxBytes = Math.max(0, Math.min(options.maxBytes, READ_BYTES_MAX));
    const empty: ReadResult = { batches: Buffer.alloc(0), nextOffset: startOffset };
    if (startOffset >= limit) return empty;
    const segments = this.segments.all;
    let index = floorSegmentIndex(segments, startOffset);
    for (; index < segments.length; index++) {
      const segment = segments[index];
      const batches = await segment.readFromOffset(startOffset, maxBytes, limit, options.minOneBatch ?? true);
      if (batches === null) continue; // compaction can leave a segment with nothing at or after the offset
      if (batches.length === 0) return empty;
      return { batches, nextOffset: batchesSummary(batches, startOffset).nextOffset };
    }
    return empty;
  }

  /** The first offset whose record timestamp is >= `timestampMs`, or null when every record is older. */
  async offsetForTimestamp(timestampMs: number): Promise<number | null> {
    for (const segment of this.segments.all) {
      if (segment.maxTimestampMs < timestampMs) continue;
      let offset = Math.max(segment.timeIndex.lookup(timestampMs).offset, this.startOffset);
      while (offset < this.endOffset) {
        const { batches, nextOffset } = await this.read(offset, { maxBytes: TIMESTAMP_SEARCH_READ_BYTES });
        if (batches.length === 0) break;
        for (const { header, position } of batchesIn(batches)) {
          if (header.maxTimestamp < timestampMs) continue;
          const records = decodeRecords(batches.subarray(position, position + header.sizeBytes));
          const match = records.find((record) => record.offset >= offset && record.timestamp >= timestampMs);
          if (match !== undefined) return match.offset;
        }
        offset = nextOffset;
      }
    }
    return null;
  }

  /** Writes what is queued (the queue runs in order), flushes, and leaves the clean-shutdown marker. */
  close(): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      this.closed = true;
      if (this.offline) return;
      await this.segments.active.flush();
      this.recoveryPointOffset = this.endOffset;
      await this.saveState();
      await writeProducerSnapshot(this.dir, this.endOffset, this.producers.written);
      await writeCleanShutdownMarker(this.dir);
      for (const segment of this.segments.all) this.deps.pool.forget(segment.logPath);
    });
  }

  /** Removes the log's folder (topic deletion, or a replica moved away). */
  delete(): Promise<void> {
    return this.serial(async () => {
      this.closed = true;
      for (const segment of this.segments.all) this.deps.pool.forget(segment.logPath);
      await rm(this.dir, { recursive: true, force: true });
    });
  }
}
