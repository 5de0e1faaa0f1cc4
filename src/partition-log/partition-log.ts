// One partition's log (Kafka's UnifiedLog): an ordered list of segments, the last one active, plus the log start
// offset, the recovery point and the leader-epoch cache. It assigns offsets, groups the appends that arrive in the
// same tick into one writev, reads whole batches, truncates for replication, and recovers after a crash.
//
// Concurrency: every mutation (the append drain, roll, truncation, retention, compaction swap, close) runs on one
// serial queue per log; reads run concurrently against the segment list they started with, and start over when
// compaction swaps a segment under them (see log-segment.ts). Offsets are assigned when an append is queued, so
// queue order is offset order; `logEndOffset` only moves once bytes are written.
//
// A batch from outside (a client's, a leader's for a follower) has its CRC-32C checked as part of its write, not
// on this thread before it (see LogSegment.append): in the same thread-pool job right before the write where the
// native addon is built, else on this thread while the write is in flight. A group with a batch that fails is not
// written (or cut off the file again) before anything else is written; the batch is refused, and the appends
// queued after it are renumbered (see dropCorrupt). A crash before such a cut leaves bytes past the log end that
// recovery truncates (their CRC fails there too).
import { access, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../common/clock.js';
import { writeFileAtomic } from '../common/atomic-file.js';
import { FileHandlePool } from './file-handle-pool.js';
import { LeaderEpochCache } from './leader-epoch-cache.js';
import type { LogConfig } from './log-config.js';
import {
  LogClosedError,
  LogOfflineError,
  OffsetOutOfRangeError,
  RecordTooLargeError,
  UnexpectedOffsetError,
} from './log-errors.js';
import { LogSegment, SegmentRetiredError, type BatchToWrite } from './log-segment.js';
import {
  assignOffsetAndEpoch,
  batchesIn,
  CorruptBatchError,
  decodeRecords,
  lastOffsetOf,
  readBatchHeader,
  stampLogAppendTime,
  TimestampType,
  validateBatch,
  validateBatchStructure,
  type BatchHeader,
} from './record-batch.js';
import { segmentsToDelete, type RetentionDecision, type SegmentSummary } from './retention-policy.js';
import { shouldRoll } from './roll-policy.js';
import {
  CLEAN_SHUTDOWN_FILE,
  CLEANED_SUFFIX,
  LEADER_EPOCH_CHECKPOINT_FILE,
  LOG_STATE_FILE,
  parseLogFileName,
} from './segment-files.js';

/** Most bytes a single read may return (a caller's max_bytes is clamped to this). */
export const READ_BYTES_MAX = 64 * 1024 * 1024;
/** Most appends one drain writes at once; the rest wait for the next drain. */
export const APPENDS_PER_DRAIN_MAX = 10_000;
/** Most times one read starts over because compaction swapped the segment it was reading. */
export const READ_SEGMENT_SWAPS_MAX = 8;

export interface PartitionLogDeps {
  clock: Clock;
  pool: FileHandlePool;
}

export interface AppendInfo {
  firstOffset: number;
  lastOffset: number;
  /** The broker's time when the topic uses LogAppendTime, else -1. */
  logAppendTimeMs: number;
  maxTimestampMs: number;
  recordCount: number;
}

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

interface LogState {
  logStartOffset: number;
  recoveryPoint: number;
  cleanerCheckpoint: number;
}

interface PendingAppend {
  batch: BatchToWrite;
  info: AppendInfo;
  newEpoch: number | null;
  /** The batch's CRC is still to be checked: the drain checks it while the batch is being written. */
  crcUnchecked: boolean;
  /** Copied from the leader with its offsets (never renumbered). */
  fromLeader: boolean;
  resolve: (info: AppendInfo) => void;
  reject: (error: Error) => void;
}

export class PartitionLog {
  private segments: LogSegment[] = [];
  private nextOffsetToAssign = 0;
  private endOffset = 0;
  private startOffset = 0;
  private recoveryPoint = 0;
  private cleanerCheckpointOffset = 0;
  private pending: PendingAppend[] = [];
  private drainQueued = false;
  private serialTail: Promise<unknown> = Promise.resolve();
  private unflushedMessages = 0;
  private lastFlushMs: number;
  private offlineCause: Error | null = null;
  private closed = false;
  private generationCount = 0;
  readonly epochs: LeaderEpochCache;

  private constructor(
    readonly dir: string,
    private config: LogConfig,
    private readonly deps: PartitionLogDeps,
    epochs: LeaderEpochCache,
    /**
     * The latest epoch of the leader-epoch checkpoint as this log was opened, before recovery cut anything off: no
     * epoch this replica led before this process started is above it (replication/leadership-admission.ts).
     */
    readonly latestEpochAtOpen: number,
  ) {
    this.epochs = epochs;
    this.lastFlushMs = deps.clock.monotonicMs();
  }

  get logEndOffset(): number {
    return this.endOffset;
  }

  get logStartOffset(): number {
    return this.startOffset;
  }

  get cleanerCheckpoint(): number {
    return this.cleanerCheckpointOffset;
  }

  get sizeBytes(): number {
    return this.segments.reduce((sum, segment) => sum + segment.sizeBytes, 0);
  }

  get segmentCount(): number {
    return this.segments.length;
  }

  get logConfig(): LogConfig {
    return this.config;
  }

  /**
   * Moves on whenever the log loses records at its end (truncation, reset). Work that read the log outside
   * `exclusive` (the cleaner) checks it inside before acting on what it read.
   */
  get generation(): number {
    return this.generationCount;
  }

  /** True once `close` or `delete` ran: nothing may change the log's files any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  // ---- opening and recovery ----

  static async open(dir: string, config: LogConfig, deps: PartitionLogDeps): Promise<PartitionLog> {
    await mkdir(dir, { recursive: true });
    const names = await readdir(dir);
    await Promise.all(
      names
        .filter((name) => name.endsWith(CLEANED_SUFFIX) || name.endsWith('.tmp'))
        .map((name) => rm(join(dir, name), { force: true })),
    );
    const cleanShutdown = await exists(join(dir, CLEAN_SHUTDOWN_FILE));
    const state = await readLogState(dir);
    const epochs = await readEpochs(dir);
    const log = new PartitionLog(dir, config, deps, epochs, epochs.latestEpoch());
    await log.loadSegments(names, state, cleanShutdown);
    // From here on a crash is an unclean shutdown.
    await rm(join(dir, CLEAN_SHUTDOWN_FILE), { force: true });
    return log;
  }

  private async loadSegments(names: string[], state: LogState, cleanShutdown: boolean): Promise<void> {
    const baseOffsets = names
      .map(parseLogFileName)
      .filter((base): base is number => base !== null)
      .sort((a, b) => a - b);
    const now = this.deps.clock.nowMs();
    let recoveredUncleanly = false;
    for (let i = 0; i < baseOffsets.length; i++) {
      const base = baseOffsets[i];
      const nextBase = baseOffsets[i + 1];
      const trusted = cleanShutdown || (nextBase !== undefined && nextBase <= state.recoveryPoint);
      const { size } = await stat(
        join(
          this.dir,
          names.find((name) => parseLogFileName(name) === base)!,
        ),
      );
      const segment = await LogSegment.open(this.dir, base, this.deps.pool, this.segmentOptions(), size, now, trusted);
      this.segments.push(segment);
      if (trusted) continue;
      recoveredUncleanly = true;
      const previous = this.segments[this.segments.length - 2];
      const result = await segment.recover(previous?.nextOffset ?? base);
      if (result.truncatedBytes > 0) {
        const later = baseOffsets.slice(i + 1);
        for (const laterBase of later) {
          const doomed = await LogSegment.open(
            this.dir,
            laterBase,
            this.deps.pool,
            this.segmentOptions(),
            0,
            now,
            false,
          );
          await doomed.deleteFiles();
        }
        break;
      }
    }
    if (this.segments.length === 0) {
      this.segments.push(
        await LogSegment.create(this.dir, state.logStartOffset, this.deps.pool, this.segmentOptions(), now),
      );
    }
    this.endOffset = this.activeSegment().nextOffset;
    this.nextOffsetToAssign = this.endOffset;
    this.startOffset = Math.min(Math.max(state.logStartOffset, this.segments[0].baseOffset), this.endOffset);
    this.cleanerCheckpointOffset = Math.min(state.cleanerCheckpoint, this.endOffset);
    this.epochs.truncateFromEnd(this.endOffset);
    this.epochs.truncateFromStart(this.startOffset);
    this.recoveryPoint = Math.min(state.recoveryPoint, this.endOffset);
    if (recoveredUncleanly) {
      for (const segment of this.segments) await segment.flush();
      this.recoveryPoint = this.endOffset;
    }
    await this.saveState();
    await this.saveEpochs();
  }

  // ---- appends ----

  /**
   * Appends one batch as the partition leader: validates it, assigns its offsets and stamps `leaderEpoch` (and
   * the append time under LogAppendTime). Resolves once the bytes were handed to the OS with `write`.
   */
  appendAsLeader(batch: Buffer, leaderEpoch: number, options: { verifyCrc?: boolean } = {}): Promise<AppendInfo> {
    this.assertWritable();
    // A batch Brook's own encoder just built (verifyCrc: false) skips re-checking the CRC it computed. Any other
    // batch has its CRC checked as part of its write (see LogSegment.append), except under LogAppendTime, whose
    // stamp recomputes the CRC and so must come after the check.
    const verify = options.verifyCrc !== false;
    const checkWhileWriting = verify && this.config.messageTimestampType !== TimestampType.LogAppendTime;
    const header = !verify
      ? readBatchHeader(batch)
      : checkWhileWriting
        ? validateBatchStructure(batch)
        : validateBatch(batch);
    if (header.sizeBytes > this.config.maxMessageBytes) {
      throw new RecordTooLargeError(
        `the record batch is ${header.sizeBytes} bytes, larger than max.message.bytes (${this.config.maxMessageBytes})`,
      );
    }
    const firstOffset = this.nextOffsetToAssign;
    assignOffsetAndEpoch(batch, firstOffset, leaderEpoch);
    let logAppendTimeMs = -1;
    if (this.config.messageTimestampType === TimestampType.LogAppendTime) {
      logAppendTimeMs = this.deps.clock.nowMs();
      stampLogAppendTime(batch, logAppendTimeMs);
    }
    const stamped: BatchHeader = { ...header, baseOffset: firstOffset, partitionLeaderEpoch: leaderEpoch };
    if (logAppendTimeMs >= 0) stamped.maxTimestamp = logAppendTimeMs;
    const newEpoch = leaderEpoch > this.epochs.latestEpoch() ? leaderEpoch : null;
    if (newEpoch !== null) this.epochs.assign(newEpoch, firstOffset);
    this.nextOffsetToAssign = lastOffsetOf(stamped) + 1;
    return this.enqueue({ buffer: batch, header: stamped }, logAppendTimeMs, newEpoch, checkWhileWriting, false);
  }

  /**
   * Appends batches copied from the leader, offsets and epochs as they are. The first batch must start at the
   * log end offset (the follower truncated first); a batch that does not continue the log is refused.
   */
  async appendAsFollower(batches: Buffer): Promise<AppendInfo | null> {
    this.assertWritable();
    const appends: Promise<AppendInfo>[] = [];
    let expected = this.nextOffsetToAssign;
    let firstOffset = -1;
    let position = 0;
    const parsed: BatchToWrite[] = [];
    for (const { header, position: at } of batchesIn(batches)) {
      const buffer = batches.subarray(at, at + header.sizeBytes);
      validateBatchStructure(buffer); // the CRC is checked while the batches are being written
      if (header.baseOffset < expected) {
        throw new UnexpectedOffsetError(
          `batch at offset ${header.baseOffset} does not continue the log at ${expected}`,
        );
      }
      parsed.push({ buffer, header });
      expected = lastOffsetOf(header) + 1;
      position = at + header.sizeBytes;
    }
    if (position !== batches.length) throw new UnexpectedOffsetError('partial batch at the end of a replica fetch');
    for (const batch of parsed) {
      if (firstOffset === -1) firstOffset = batch.header.baseOffset;
      const epoch = batch.header.partitionLeaderEpoch;
      const newEpoch = epoch > this.epochs.latestEpoch() ? epoch : null;
      if (newEpoch !== null) this.epochs.assign(newEpoch, batch.header.baseOffset);
      this.nextOffsetToAssign = lastOffsetOf(batch.header) + 1;
      appends.push(this.enqueue(batch, -1, newEpoch, true, true));
    }
    if (appends.length === 0) return null;
    // Every append is awaited (one that fails must not go unhandled); a batch refused makes the call fail, and the
    // batches before it stay written (the fetcher goes on from the log end).
    const outcomes = await Promise.allSettled(appends);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const last = outcomes[outcomes.length - 1] as PromiseFulfilledResult<AppendInfo>;
    return { ...last.value, firstOffset };
  }

  private enqueue(
    batch: BatchToWrite,
    logAppendTimeMs: number,
    newEpoch: number | null,
    crcUnchecked: boolean,
    fromLeader: boolean,
  ): Promise<AppendInfo> {
    const info: AppendInfo = {
      firstOffset: batch.header.baseOffset,
      lastOffset: lastOffsetOf(batch.header),
      logAppendTimeMs,
      maxTimestampMs: batch.header.maxTimestamp,
      recordCount: batch.header.recordCount,
    };
    return new Promise<AppendInfo>((resolve, reject) => {
      this.pending.push({ batch, info, newEpoch, crcUnchecked, fromLeader, resolve, reject });
      if (!this.drainQueued) {
        this.drainQueued = true;
        void this.serial(() => this.drain());
      }
    });
  }

  /** Writes everything queued: one writev per segment touched, rolling where the policy says. */
  private async drain(): Promise<void> {
    this.drainQueued = false;
    const items = this.pending.splice(0, APPENDS_PER_DRAIN_MAX);
    if (this.pending.length > 0) {
      this.drainQueued = true;
      void this.serial(() => this.drain());
    }
    if (items.length === 0) return;
    try {
      if (this.offlineCause) throw this.offlineCause;
      if (items.some((item) => item.newEpoch !== null)) await this.saveEpochs();
      await this.writeItems(items);
      let appended = 0;
      for (const item of items) appended += item.info.recordCount;
      if (this.flushDue(appended)) await this.flushActive();
      // Acknowledged only now, so that with flush.messages an acknowledged append is also fsynced.
      for (const item of items) item.resolve(item.info);
    } catch (error) {
      const cause =
        this.offlineCause ??
        new LogOfflineError(`log ${this.dir} is offline after an I/O error: ${(error as Error).message}`);
      this.offlineCause = cause;
      for (const item of items) item.reject(cause);
      return;
    }
  }

  /**
   * Writes `items` in order, in groups that each fit the active segment, rolling between groups. A group with a
   * corrupt batch is not kept (LogSegment.append); its corrupt batches are refused, the rest renumbered (see
   * dropCorrupt) and written again. On return `items` holds exactly the appends written.
   */
  private async writeItems(items: PendingAppend[]): Promise<void> {
    let groupStart = 0;
    while (groupStart < items.length) {
      const active = this.activeSegment();
      let groupEnd = groupStart;
      let groupBytes = 0;
      while (groupEnd < items.length && !this.mustRollBefore(active, items[groupEnd], groupBytes, items[groupStart])) {
        groupBytes += items[groupEnd].batch.buffer.length;
        groupEnd++;
      }
      if (groupEnd === groupStart) {
        await this.roll(items[groupStart].info.firstOffset);
        continue;
      }
      const group = items.slice(groupStart, groupEnd);
      const unchecked: number[] = [];
      for (let i = 0; i < group.length; i++) if (group[i].crcUnchecked) unchecked.push(i);
      const corruptIndexes = await active.append(
        group.map((item) => item.batch),
        unchecked,
      );
      // every batch in `unchecked` was checked, the corrupt ones listed
      for (const i of unchecked) group[i].crcUnchecked = false;
      if (corruptIndexes.length === 0) {
        this.endOffset = group[group.length - 1].info.lastOffset + 1;
        groupStart = groupEnd;
        continue;
      }
      const corrupt = new Set(corruptIndexes.map((i) => group[i]));
      const refused = this.dropCorrupt(items, groupStart, corrupt);
      try {
        await this.saveEpochs();
      } finally {
        // Told only once the log is as if they had never come (epochs saved), so a retry finds it so.
        for (const { item, error } of refused) item.reject(error);
      }
    }
  }

  private mustRollBefore(
    active: LogSegment,
    item: PendingAppend,
    groupBytes: number,
    groupFirst: PendingAppend,
  ): boolean {
    return shouldRoll({
      segmentSizeBytes: active.sizeBytes + groupBytes,
      segmentBaseOffset: active.baseOffset,
      segmentFirstBatchTimestampMs:
        active.sizeBytes > 0
          ? active.firstBatchTimestamp
          : groupBytes > 0
            ? groupFirst.batch.header.maxTimestamp
            : null,
      segmentCreatedAtMs: active.createdAtMs,
      indexFull: active.offsetIndex.isFull(),
      timeIndexFull: active.timeIndex.isFull(),
      incomingBatchBytes: item.batch.buffer.length,
      incomingLastOffset: item.info.lastOffset,
      incomingMaxTimestampMs: item.info.maxTimestampMs,
      nowMs: this.deps.clock.nowMs(),
      segmentBytes: this.config.segmentBytes,
      segmentMs: this.config.segmentMs,
    });
  }

  /**
   * Takes the corrupt appends out of `items` (from `groupStart` on, where nothing is written yet) and refuses
   * them. The offsets they held are given to what follows, in this drain and still queued: a leader's append is
   * renumbered to close the gap (offsets are dense), an append copied from the leader cannot be and is refused.
   * Leader-epoch entries from the first corrupt offset on are assigned again from the renumbered appends.
   */
  private dropCorrupt(
    items: PendingAppend[],
    groupStart: number,
    corrupt: Set<PendingAppend>,
  ): Array<{ item: PendingAppend; error: Error }> {
    const refused: Array<{ item: PendingAppend; error: Error }> = [];
    let firstCorruptOffset = Number.MAX_SAFE_INTEGER;
    for (const item of corrupt) firstCorruptOffset = Math.min(firstCorruptOffset, item.info.firstOffset);
    let nextOffset = items[groupStart].info.firstOffset;
    const renumber = (list: PendingAppend[], from: number): PendingAppend[] => {
      const kept: PendingAppend[] = [];
      for (let i = from; i < list.length; i++) {
        const item = list[i];
        if (corrupt.has(item)) {
          refused.push({ item, error: new CorruptBatchError('batch CRC mismatch') });
        } else if (item.info.firstOffset < firstCorruptOffset) {
          kept.push(item);
          nextOffset = item.info.lastOffset + 1;
        } else if (item.fromLeader) {
          const error = new UnexpectedOffsetError(
            `batch at offset ${item.info.firstOffset} follows a corrupt batch in the same replica fetch`,
          );
          refused.push({ item, error });
        } else {
          moveTo(item, nextOffset);
          kept.push(item);
          nextOffset = item.info.lastOffset + 1;
        }
      }
      return kept;
    };
    items.splice(groupStart, items.length - groupStart, ...renumber(items, groupStart));
    this.pending = renumber(this.pending, 0);
    this.nextOffsetToAssign = nextOffset;
    this.epochs.truncateFromEnd(firstCorruptOffset);
    for (const item of [...items.slice(groupStart), ...this.pending]) {
      const epoch = item.batch.header.partitionLeaderEpoch;
      item.newEpoch = epoch > this.epochs.latestEpoch() ? epoch : null;
      if (item.newEpoch !== null) this.epochs.assign(item.newEpoch, item.info.firstOffset);
    }
    return refused;
  }

  private async roll(newBaseOffset: number): Promise<void> {
    const previous = this.activeSegment();
    await previous.flush();
    const segment = await LogSegment.create(
      this.dir,
      newBaseOffset,
      this.deps.pool,
      this.segmentOptions(),
      this.deps.clock.nowMs(),
    );
    this.segments = [...this.segments, segment];
    this.recoveryPoint = newBaseOffset;
    await this.saveState();
  }

  /** Counts appended messages; true when flush.messages or flush.ms says the active segment is due an fsync. */
  private flushDue(appendedMessages: number): boolean {
    this.unflushedMessages += appendedMessages;
    const now = this.deps.clock.monotonicMs();
    return this.unflushedMessages >= this.config.flushMessages || now - this.lastFlushMs >= this.config.flushMs;
  }

  private async flushActive(): Promise<void> {
    await this.activeSegment().flush();
    this.unflushedMessages = 0;
    this.lastFlushMs = this.deps.clock.monotonicMs();
    this.recoveryPoint = this.endOffset;
  }

  /** fsyncs the active segment when flush.ms has passed since the last flush (called by a periodic task). */
  flushIfTimeElapsed(): Promise<void> {
    if (this.deps.clock.monotonicMs() - this.lastFlushMs < this.config.flushMs || this.unflushedMessages === 0) {
      return Promise.resolve();
    }
    return this.serial(() => this.flushActive());
  }

  // ---- reads ----

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
    const segments = this.segments;
    let index = floorSegmentIndex(segments, startOffset);
    for (; index < segments.length; index++) {
      const segment = segments[index];
      const batches = await segment.readFromOffset(startOffset, maxBytes, limit, options.minOneBatch ?? true);
      if (batches === null) continue; // compaction can leave a segment with nothing at or after the offset
      if (batches.length === 0) return empty;
      let nextOffset = startOffset;
      for (const { header } of batchesIn(batches)) nextOffset = lastOffsetOf(header) + 1;
      return { batches, nextOffset };
    }
    return empty;
  }

  /** The first offset whose record timestamp is >= `timestampMs`, or null when every record is older. */
  async offsetForTimestamp(timestampMs: number): Promise<number | null> {
    for (const segment of this.segments) {
      if (segment.maxTimestampMs < timestampMs) continue;
      let offset = Math.max(segment.timeIndex.lookup(timestampMs).offset, this.startOffset);
      while (offset < this.endOffset) {
        const { batches, nextOffset } = await this.read(offset, { maxBytes: 1024 * 1024 });
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

  // ---- replication ----

  /**
   * Removes every batch at or after `offset`'s batch (followers, before fetching from a new leader). At the log end
   * it removes only epochs that start there with no batch (assigned by an earlier leadership of this replica).
   */
  truncateTo(offset: number): Promise<void> {
    return this.serial(async () => {
      this.assertNoPendingAppends('truncate');
      if (offset >= this.endOffset) {
        if (offset === this.endOffset && this.epochs.truncateFromEnd(offset)) await this.saveEpochs();
        return;
      }
      if (offset <= this.startOffset) return this.resetTo(offset);
      this.generationCount++;
      const keep = this.segments.filter((segment) => segment.baseOffset < offset);
      const drop = this.segments.filter((segment) => segment.baseOffset >= offset);
      for (const segment of drop) await segment.deleteFiles();
      this.segments = keep;
      await this.activeSegment().truncateTo(offset);
      this.endOffset = this.activeSegment().nextOffset;
      this.nextOffsetToAssign = this.endOffset;
      this.recoveryPoint = Math.min(this.recoveryPoint, this.endOffset);
      this.cleanerCheckpointOffset = Math.min(this.cleanerCheckpointOffset, this.endOffset);
      if (this.epochs.truncateFromEnd(this.endOffset)) await this.saveEpochs();
      await this.saveState();
    });
  }

  /** Drops the whole log and starts it empty at `offset` (a follower far behind a leader's log start). */
  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.serial(async () => {
      this.assertNoPendingAppends('truncate');
      await this.resetTo(offset);
    });
  }

  private async resetTo(offset: number): Promise<void> {
    this.generationCount++;
    for (const segment of this.segments) await segment.deleteFiles();
    this.segments = [
      await LogSegment.create(this.dir, offset, this.deps.pool, this.segmentOptions(), this.deps.clock.nowMs()),
    ];
    this.endOffset = offset;
    this.nextOffsetToAssign = offset;
    this.startOffset = offset;
    this.recoveryPoint = offset;
    this.cleanerCheckpointOffset = offset;
    this.epochs.clear();
    await this.saveEpochs();
    await this.saveState();
  }

  /**
   * A new leader records its epoch at its log end before it appends anything (Kafka's Partition.makeLeader), so a
   * follower whose last epoch is older learns where that epoch ends here even before the first batch. Epochs
   * only move forward: an epoch not above the latest is ignored.
   */
  async assignEpochAtEnd(epoch: number): Promise<void> {
    this.assertWritable();
    if (!this.epochs.assign(epoch, this.nextOffsetToAssign)) return;
    await this.serial(() => this.saveEpochs());
  }

  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    return this.epochs.endOffsetFor(epoch, this.endOffset);
  }

  // ---- retention and maintenance ----

  segmentSummaries(): SegmentSummary[] {
    return this.segments.map((segment, i) => ({
      baseOffset: segment.baseOffset,
      endOffset: this.segments[i + 1]?.baseOffset ?? this.endOffset,
      sizeBytes: segment.sizeBytes,
      maxTimestampMs: segment.maxTimestampMs,
    }));
  }

  /** Deletes whole segments that retention allows, never at or above `highWatermark`. */
  applyRetention(highWatermark: number): Promise<RetentionDecision> {
    return this.serial(async () => {
      const decision = segmentsToDelete({
        segments: this.segmentSummaries(),
        highWatermark: Math.min(highWatermark, this.endOffset),
        logStartOffset: this.startOffset,
        nowMs: this.deps.clock.nowMs(),
        retentionMs: this.config.retentionMs,
        retentionBytes: this.config.retentionBytes,
        deletePolicy: this.config.cleanupPolicyDelete,
      });
      if (decision.deleteBaseOffsets.length === 0) return decision;
      const doomed = new Set(decision.deleteBaseOffsets);
      const deleted = this.segments.filter((segment) => doomed.has(segment.baseOffset));
      this.segments = this.segments.filter((segment) => !doomed.has(segment.baseOffset));
      this.startOffset = Math.max(this.startOffset, this.segments[0].baseOffset);
      this.cleanerCheckpointOffset = Math.max(this.cleanerCheckpointOffset, this.startOffset);
      await this.saveState();
      if (this.epochs.truncateFromStart(this.startOffset)) await this.saveEpochs();
      for (const segment of deleted) await segment.deleteFiles();
      return decision;
    });
  }

  /** The segments compaction may rewrite: every one but the active segment. */
  inactiveSegments(): readonly LogSegment[] {
    return this.segments.slice(0, -1);
  }

  /**
   * Runs `work` on the log's serial queue (no append, truncation or retention runs meanwhile). For maintenance
   * that swaps segment contents, such as the cleaner.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.serial(work);
  }

  /** Called by the cleaner inside `exclusive`: replaces a segment object after its file was swapped. */
  replaceSegment(replacement: LogSegment): void {
    this.segments = this.segments.map((segment) =>
      segment.baseOffset === replacement.baseOffset ? replacement : segment,
    );
  }

  /** Called by the cleaner inside `exclusive`. */
  async setCleanerCheckpoint(offset: number): Promise<void> {
    this.cleanerCheckpointOffset = offset;
    await this.saveState();
  }

  updateConfig(config: LogConfig): void {
    this.config = config;
    for (const segment of this.segments) segment.updateOptions(this.segmentOptions());
  }

  /** Opens a segment of this log's folder with the log's settings (the cleaner's swapped files). */
  openSegment(baseOffset: number, sizeBytes: number): Promise<LogSegment> {
    return LogSegment.open(
      this.dir,
      baseOffset,
      this.deps.pool,
      this.segmentOptions(),
      sizeBytes,
      this.deps.clock.nowMs(),
      false,
    );
  }

  // ---- shutdown ----

  /** Writes what is queued, flushes, and leaves the clean-shutdown marker. */
  close(): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      this.closed = true;
      if (this.offlineCause) return;
      await this.activeSegment().flush();
      this.recoveryPoint = this.endOffset;
      await this.saveState();
      await writeFile(join(this.dir, CLEAN_SHUTDOWN_FILE), '');
      for (const segment of this.segments) this.deps.pool.forget(segment.logPath);
    });
  }

  /** Removes the log's folder (topic deletion, or a replica moved away). */
  delete(): Promise<void> {
    return this.serial(async () => {
      this.closed = true;
      for (const segment of this.segments) this.deps.pool.forget(segment.logPath);
      await rm(this.dir, { recursive: true, force: true });
    });
  }

  // ---- internals ----

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.serialTail.then(work);
    this.serialTail = result.catch(() => undefined);
    return result;
  }

  private activeSegment(): LogSegment {
    return this.segments[this.segments.length - 1];
  }

  private assertWritable(): void {
    if (this.closed) throw new LogClosedError(`log ${this.dir} is closed`);
    if (this.offlineCause) throw this.offlineCause;
  }

  private assertNoPendingAppends(operation: string): void {
    if (this.pending.length > 0) throw new Error(`cannot ${operation} ${this.dir} while appends are queued`);
  }

  private segmentOptions() {
    return { indexIntervalBytes: this.config.indexIntervalBytes, segmentIndexBytes: this.config.segmentIndexBytes };
  }

  private saveState(): Promise<void> {
    const state: LogState = {
      logStartOffset: this.startOffset,
      recoveryPoint: this.recoveryPoint,
      cleanerCheckpoint: this.cleanerCheckpointOffset,
    };
    return writeFileAtomic(join(this.dir, LOG_STATE_FILE), JSON.stringify(state));
  }

  private saveEpochs(): Promise<void> {
    return writeFileAtomic(join(this.dir, LEADER_EPOCH_CHECKPOINT_FILE), this.epochs.serialize());
  }
}

function floorSegmentIndex(segments: LogSegment[], offset: number): number {
  let low = 0;
  let high = segments.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (segments[middle].baseOffset <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function readLogState(dir: string): Promise<LogState> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, LOG_STATE_FILE), 'utf8')) as Partial<LogState>;
    return {
      logStartOffset: nonNegative(parsed.logStartOffset),
      recoveryPoint: nonNegative(parsed.recoveryPoint),
      cleanerCheckpoint: nonNegative(parsed.cleanerCheckpoint),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { logStartOffset: 0, recoveryPoint: 0, cleanerCheckpoint: 0 };
    // The state file is written atomically; an unreadable one means someone else wrote it. Start from the files.
    return { logStartOffset: 0, recoveryPoint: 0, cleanerCheckpoint: 0 };
  }
}

function nonNegative(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

async function readEpochs(dir: string): Promise<LeaderEpochCache> {
  try {
    return LeaderEpochCache.parse(await readFile(join(dir, LEADER_EPOCH_CHECKPOINT_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new LeaderEpochCache();
    throw new Error(`cannot read ${join(dir, LEADER_EPOCH_CHECKPOINT_FILE)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Gives a queued leader append a new base offset (the bytes, its header and what its caller will be told). */
function moveTo(item: PendingAppend, baseOffset: number): void {
  const { header } = item.batch;
  assignOffsetAndEpoch(item.batch.buffer, baseOffset, header.partitionLeaderEpoch);
  header.baseOffset = baseOffset;
  item.info.firstOffset = baseOffset;
  item.info.lastOffset = lastOffsetOf(header);
}
