// The append path of one partition log: it validates a batch, gives it its offsets and leader epoch when it is
// queued (append-queue.ts), and writes everything queued in the same tick as one group: a drain on the log's
// serial queue writes the appends with one writev per segment touched, rolling where the roll policy says
// (roll-policy.ts) and fsyncing where the flush policy says (flush-policy.ts), and only then answers them.
//
// A leader's group that fits the active segment and needs nothing before its write (no leader epoch to save, no
// roll) is written behind the writes in flight instead (log-write-pipeline.ts, answered in offset order); every
// other drain, and every other change of the log (LocalLog.serial), waits until those are answered.
//
// A client's batch (`validateRecords`, the Kafka listener's) also has its records checked (record-batch-validation.ts):
// structure, offset deltas, keys on a compacted topic; in its write's thread-pool job right after its CRC when the
// addon is built and the records are not compressed (refused there like a bad CRC), else before it is queued.
//
// A batch from outside (a client's, a leader's for a follower) has its CRC-32C checked as part of its write (see
// LogSegment.append): in the thread-pool job right before the write where the native addon is built, else on this
// thread while the write is in flight. A group with a batch that fails is not kept: the batch is refused, the
// appends after it (queued, or written behind it) are renumbered (AppendQueue.dropCorrupt) and written again. A
// crash before such a cut leaves bytes past the log end that recovery truncates (at the hole, or the bad CRC).
//
// Idempotent batches (a producer id in the header) are checked against the producer state when they are queued, in
// the same synchronous step that gives them their offsets (idempotent-appends.ts). Their CRC is checked before they
// are queued rather than while they are written, so an accepted idempotent batch is never dropped afterwards. Each
// group written goes into the producer state, in offset order, before the next roll writes a snapshot of it.
import { AppendQueue, recordWalks, uncheckedCrcIndexes, type AppendInfo, type PendingAppend } from './append-queue.js';
import { FlushPolicy } from './flush-policy.js';
import { IdempotentAppends, type ProducerCheckOptions } from './idempotent-appends.js';
import { LogWritePipeline } from './log-write-pipeline.js';
import type { LocalLog } from './local-log.js';
import { LogOfflineError, UnexpectedOffsetError } from './log-errors.js';
import type { BatchToWrite, LogSegment } from './log-segment.js';
import { checkLeaderBatch, type LeaderBatchCheckOptions } from './leader-batch-checks.js';
import type { ProducerBatch } from './producer-state.js';
import { isIdempotent, producerBatchOf } from './producer-state-manager.js';
import {
  assignOffsetAndEpoch,
  isControlBatch,
  lastOffsetOf,
  stampLogAppendTime,
  TimestampType,
  validateBatchStructure,
  type BatchHeader,
} from './record-batch-layout.js';
import { batchesIn } from './record-batch-reader.js';
import { RecordWalk } from './record-batch-validation.js';
import { shouldRoll } from './roll-policy.js';

/** Most appends one drain writes at once; the rest wait for the next drain. */
export const APPENDS_PER_DRAIN_MAX = 10_000;

export interface AppendAsLeaderOptions extends ProducerCheckOptions, LeaderBatchCheckOptions {}

export class LogAppender {
  private readonly queue: AppendQueue;
  private readonly flushPolicy: FlushPolicy;
  private drainQueued = false;
  private readonly idempotent: IdempotentAppends;
  /** Made on the first leader drain: most partitions of a broker with many are written seldom or never. */
  private pipelineMade: LogWritePipeline | undefined;

  constructor(private readonly local: LocalLog) {
    this.queue = new AppendQueue(local.logEndOffset);
    this.flushPolicy = new FlushPolicy(local.deps.clock.monotonicMs());
    this.idempotent = new IdempotentAppends(local);
  }

  /**
   * Appends one batch as the partition leader: validates it, checks an idempotent batch against the producer
   * state, assigns its offsets and stamps `leaderEpoch` (and the append time under LogAppendTime). Resolves once the
   * bytes were handed to the OS with `write`, or at once (after the original's write) for a duplicate.
   */
  appendAsLeader(batch: Buffer, leaderEpoch: number, options: AppendAsLeaderOptions = {}): Promise<AppendInfo> {
    this.local.assertWritable();
    const config = this.local.config;
    const { header, idempotent, checkWhileWriting, recordWalk } = checkLeaderBatch(batch, config, options);
    const firstOffset = this.queue.nextOffset;
    let producer: ProducerBatch | null = null;
    if (idempotent) {
      const checked = this.idempotent.check(header, firstOffset, options);
      if ('duplicateOf' in checked) return this.idempotent.duplicateAnswer(checked.duplicateOf);
      producer = checked.append;
    }
    assignOffsetAndEpoch(batch, firstOffset, leaderEpoch);
    let logAppendTimeMs = -1;
    if (config.messageTimestampType === TimestampType.LogAppendTime) {
      logAppendTimeMs = this.local.deps.clock.nowMs();
      stampLogAppendTime(batch, logAppendTimeMs);
    }
    const stamped: BatchHeader = { ...header, baseOffset: firstOffset, partitionLeaderEpoch: leaderEpoch };
    if (logAppendTimeMs >= 0) stamped.maxTimestamp = logAppendTimeMs;
    const epochs = this.local.epochs;
    const newEpoch = leaderEpoch > epochs.latestEpoch() ? leaderEpoch : null;
    if (newEpoch !== null) epochs.assign(newEpoch, firstOffset);
    this.queue.nextOffset = lastOffsetOf(stamped) + 1;
    if (producer !== null) {
      producer.maxTimestampMs = stamped.maxTimestamp;
      this.local.producers.queue(producer, this.local.deps.clock.nowMs());
    }
    const appended = this.enqueue({ buffer: batch, header: stamped }, logAppendTimeMs, newEpoch, checkWhileWriting, {
      fromLeader: false,
      producer,
      recordWalk,
    });
    if (producer !== null) this.idempotent.remember(producer, appended);
    return appended;
  }

  /**
   * Appends batches copied from the leader, offsets and epochs as they are. The first batch must start at the
   * log end offset (the follower truncated first); a batch that does not continue the log is refused.
   */
  async appendAsFollower(batches: Buffer): Promise<AppendInfo | null> {
    this.local.assertWritable();
    const appends: Promise<AppendInfo>[] = [];
    let expected = this.queue.nextOffset;
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
    const epochs = this.local.epochs;
    for (const batch of parsed) {
      if (firstOffset === -1) firstOffset = batch.header.baseOffset;
      const epoch = batch.header.partitionLeaderEpoch;
      const newEpoch = epoch > epochs.latestEpoch() ? epoch : null;
      if (newEpoch !== null) epochs.assign(newEpoch, batch.header.baseOffset);
      this.queue.nextOffset = lastOffsetOf(batch.header) + 1;
      const producer =
        isIdempotent(batch.header) && !isControlBatch(batch.header) ? producerBatchOf(batch.header) : null;
      appends.push(
        this.enqueue(batch, -1, newEpoch, true, { fromLeader: true, producer, recordWalk: RecordWalk.NONE }),
      );
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

  /**
   * A new leader records its epoch at its log end before it appends anything (Kafka's Partition.makeLeader), so a
   * follower whose last epoch is older learns where that epoch ends here even before the first batch. Epochs
   * only move forward: an epoch not above the latest is ignored.
   */
  async assignEpochAtEnd(epoch: number): Promise<void> {
    this.local.assertWritable();
    if (!this.local.epochs.assign(epoch, this.queue.nextOffset)) return;
    await this.local.serial(() => this.local.recordNewEpoch());
  }

  /**
   * fsyncs the active segment when flush.ms has passed since the last flush (called by a periodic task for every
   * log, every second); null, and nothing allocated, when no flush is due.
   */
  flushIfTimeElapsed(): Promise<void> | null {
    if (!this.flushDueByTime(this.local.deps.clock.monotonicMs())) return null;
    return this.local.serial(() => this.flushActive());
  }

  /** Takes the time from the caller: a scheduler asking 10,000 logs reads the clock once (each read boxes a double). */
  flushDueByTime(nowMs: number): boolean {
    return this.flushPolicy.dueByTime(nowMs, this.local.config);
  }

  /** For truncation, on the serial queue: nothing may be queued, the log is about to lose its end. */
  assertNoPendingAppends(operation: string): void {
    if (this.queue.pending.length > 0) {
      throw new Error(`cannot ${operation} ${this.local.dir} while appends are queued`);
    }
  }

  /** After a truncation: the next append gets `offset`. */
  restartAt(offset: number): void {
    this.queue.restartAt(offset);
  }

  private enqueue(
    batch: BatchToWrite,
    logAppendTimeMs: number,
    newEpoch: number | null,
    crcUnchecked: boolean,
    {
      fromLeader,
      producer,
      recordWalk,
    }: { fromLeader: boolean; producer: ProducerBatch | null; recordWalk: RecordWalk },
  ): Promise<AppendInfo> {
    const info: AppendInfo = {
      firstOffset: batch.header.baseOffset,
      lastOffset: lastOffsetOf(batch.header),
      logAppendTimeMs,
      maxTimestampMs: batch.header.maxTimestamp,
      recordCount: batch.header.recordCount,
    };
    return new Promise<AppendInfo>((resolve, reject) => {
      const pending = this.queue.pending;
      pending.push({
        batch,
        info,
        newEpoch,
        crcUnchecked,
        recordWalk,
        fromLeader,
        producer,
        resolve,
        reject,
      });
      if (!this.drainQueued) {
        this.drainQueued = true;
        void this.local.serialDrain(() => this.drain());
      } else if (pending.length === 2) {
        this.pipelineMade?.appendQueued();
      }
    });
  }

  private makePipeline(): LogWritePipeline {
    return new LogWritePipeline(this.local, {
      flushIfDue: (items) => this.flushIfDue(items),
      // the groups from a refused one on, none kept: the good ones are renumbered and written again
      rewrite: async (items, corrupt) => {
        await this.dropCorrupt(items, 0, corrupt);
        if (items.length > 0) await this.writeAndAnswer(items);
      },
      fail: (items, error) => this.fail(items, error),
    });
  }

  /**
   * Writes everything queued: behind the writes in flight when it can (LogWritePipeline.canStart), else once they
   * are answered, with one writev per segment touched, rolling where the policy says.
   */
  private async drain(): Promise<void> {
    const pipeline = (this.pipelineMade ??= this.makePipeline());
    // at most WRITES_IN_FLIGHT_MAX writes at once: appends arriving meanwhile join this drain's group
    await pipeline.waitForSlot(() => this.queue.pending.length);
    const active = this.local.segments.active;
    const next = this.queue.pending.slice(0, APPENDS_PER_DRAIN_MAX);
    if (pipeline.canStart(next, active, (item, bytes) => this.mustRollBefore(active, item, bytes, next[0]))) {
      pipeline.start(this.takeForDrain(), active);
      return;
    }
    // taken only after a refused write was written again: its renumbering moves what is still queued
    await this.local.appendsWritten();
    const items = this.takeForDrain();
    if (items.length === 0) return;
    await this.writeAndAnswer(items);
  }

  /** Takes up to APPENDS_PER_DRAIN_MAX appends; a drain is queued for the rest. */
  private takeForDrain(): PendingAppend[] {
    this.drainQueued = false;
    const items = this.queue.take(APPENDS_PER_DRAIN_MAX);
    if (this.queue.pending.length > 0) {
      this.drainQueued = true;
      void this.local.serialDrain(() => this.drain());
    }
    return items;
  }

  /** On the serial queue, nothing in flight: writes `items`, flushes when due, answers them. */
  private async writeAndAnswer(items: PendingAppend[]): Promise<void> {
    try {
      if (this.local.offlineCause) throw this.local.offlineCause;
      if (items.some((item) => item.newEpoch !== null)) await this.local.recordNewEpoch();
      await this.writeItems(items);
      await this.flushIfDue(items);
      // Acknowledged only now, so that with flush.messages an acknowledged append is also fsynced.
      for (const item of items) item.resolve(item.info);
    } catch (error) {
      this.fail(items, error);
    }
  }

  /** fsyncs the active segment when the flush policy says so after `items` were written. */
  private async flushIfDue(items: PendingAppend[]): Promise<void> {
    let appended = 0;
    for (const item of items) appended += item.info.recordCount;
    if (this.flushPolicy.dueAfterAppend(appended, this.local.deps.clock.monotonicMs(), this.local.config)) {
      await this.flushActive();
    }
  }

  /**
   * Takes the `corrupt` appends out of `items` from `from` on and out of the queue, renumbering what follows
   * (AppendQueue.dropCorrupt), and refuses them once the log is as if they had never come (epochs saved), so a
   * retry finds it so.
   */
  private async dropCorrupt(items: PendingAppend[], from: number, corrupt: ReadonlySet<PendingAppend>): Promise<void> {
    const refused = this.queue.dropCorrupt(items, from, corrupt, this.local.epochs);
    const stillQueued = [...items.slice(from), ...this.queue.pending];
    this.local.producers.requeue(
      stillQueued.flatMap((item) => (item.producer !== null && !item.fromLeader ? [item.producer] : [])),
      this.local.deps.clock.nowMs(),
    );
    try {
      await this.local.saveEpochs();
    } finally {
      for (const { item, error } of refused) item.reject(error);
    }
  }

  /** An I/O error: the log goes offline, and `items` are refused with the cause. */
  private fail(items: PendingAppend[], error: unknown): void {
    const cause = this.local.takeOffline(
      new LogOfflineError(`log ${this.local.dir} is offline after an I/O error: ${(error as Error).message}`),
    );
    this.local.producers.clearQueued();
    for (const item of items) item.reject(cause);
  }

  /**
   * Writes `items` in order, in groups that each fit the active segment, rolling between groups. A group with a
   * corrupt batch is not kept (LogSegment.append); its corrupt batches are refused, the rest renumbered (see
   * AppendQueue.dropCorrupt) and written again. On return `items` holds exactly the appends written.
   */
  private async writeItems(items: PendingAppend[]): Promise<void> {
    let groupStart = 0;
    while (groupStart < items.length) {
      const active = this.local.segments.active;
      let groupEnd = groupStart;
      let groupBytes = 0;
      while (groupEnd < items.length && !this.mustRollBefore(active, items[groupEnd], groupBytes, items[groupStart])) {
        groupBytes += items[groupEnd].batch.buffer.length;
        groupEnd++;
      }
      if (groupEnd === groupStart) {
        await this.local.roll(items[groupStart].info.firstOffset);
        continue;
      }
      const group = items.slice(groupStart, groupEnd);
      const unchecked = uncheckedCrcIndexes(group);
      // a follower's batches (from its leader) are written on this thread: its next fetch, which tells the leader
      // they are written, waits for them (segment-append-write.ts)
      const corruptIndexes = await active.append(
        group.map((item) => item.batch),
        unchecked,
        group.every((item) => item.fromLeader),
        recordWalks(group),
      );
      // every batch in `unchecked` was checked (and walked), the corrupt ones listed
      for (const i of unchecked) group[i].crcUnchecked = false;
      if (corruptIndexes.length === 0) {
        this.local.appendsCommitted(group);
        groupStart = groupEnd;
        continue;
      }
      await this.dropCorrupt(items, groupStart, new Set(corruptIndexes.map((i) => group[i])));
    }
  }

  private mustRollBefore(
    active: LogSegment,
    item: PendingAppend,
    groupBytes: number,
    groupFirst: PendingAppend,
  ): boolean {
    const config = this.local.config;
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
      nowMs: this.local.deps.clock.nowMs(),
      segmentBytes: config.segmentBytes,
      segmentMs: config.segmentMs,
    });
  }

  private async flushActive(): Promise<void> {
    const end = this.local.logEndOffset;
    await this.local.segments.active.flush();
    this.flushPolicy.flushed(this.local.deps.clock.monotonicMs());
    // the segment a roll just closed may still be fsyncing behind the appends: the recovery point waits for it
    await this.local.rolledSegmentFlushed();
    this.local.updateRecoveryPoint(end);
  }
}
