// What the broker's periodic maintenance calls on one partition log: retention (the decision is retention-policy.ts,
// Kafka's UnifiedLog.deleteOldSegments) and the hooks of the log cleaner (log-cleaner.ts): a consistent view of the
// segments on the serial queue, swapping in a compacted segment, moving the cleaner checkpoint. Retention also
// forgets the producers whose last batch it deleted (Kafka's truncateHead) and the snapshots below the log start;
// expiring producers runs on its own timer (expireProducers). Producers forgotten either way are also removed from
// the snapshot files (forgetInSnapshots): a reload that started from an older snapshot and replayed a later batch
// of the same id, which started afresh, would bring their old batches back.
import type { LocalLog } from './local-log.js';
import type { LogSegment } from './log-segment.js';
import { deleteProducerSnapshots, forgetInSnapshots } from './producer-state-files.js';
import { segmentsToDelete, type RetentionDecision, type SegmentSummary } from './retention-policy.js';

export class LogMaintenance {
  constructor(private readonly local: LocalLog) {}

  segmentSummaries(): SegmentSummary[] {
    return this.local.segments.summaries(this.local.logEndOffset);
  }

  /** Deletes whole segments that retention allows, never at or above `highWatermark`. */
  applyRetention(highWatermark: number): Promise<RetentionDecision> {
    return this.local.serial(async () => {
      const local = this.local;
      const config = local.config;
      const decision = segmentsToDelete({
        segments: this.segmentSummaries(),
        highWatermark: Math.min(highWatermark, local.logEndOffset),
        logStartOffset: local.logStartOffset,
        nowMs: local.deps.clock.nowMs(),
        retentionMs: config.retentionMs,
        retentionBytes: config.retentionBytes,
        deletePolicy: config.cleanupPolicyDelete,
      });
      if (decision.deleteBaseOffsets.length === 0) return decision;
      const doomed = new Set(decision.deleteBaseOffsets);
      const deleted = local.segments.all.filter((segment) => doomed.has(segment.baseOffset));
      local.segments.keepOnly(local.segments.all.filter((segment) => !doomed.has(segment.baseOffset)));
      local.updateLogStartOffset(Math.max(local.logStartOffset, local.segments.all[0].baseOffset));
      local.updateCleanerCheckpoint(Math.max(local.cleanerCheckpoint, local.logStartOffset));
      await local.saveState();
      if (local.epochs.truncateFromStart(local.logStartOffset)) await local.saveEpochs();
      for (const segment of deleted) await segment.deleteFiles();
      await deleteProducerSnapshots(local.dir, (offset) => offset < local.logStartOffset);
      await forgetInSnapshots(local.dir, local.producers.removeBelow(local.logStartOffset));
      return decision;
    });
  }

  /** Forgets the producers whose producer.id.expiration.ms (or idempotency retention) ran out; returns how many. */
  expireProducers(): Promise<number> {
    return this.local.serial(async () => {
      if (this.local.isClosed) return 0;
      const removed = this.local.producers.removeExpired(this.local.deps.clock.nowMs());
      await forgetInSnapshots(this.local.dir, removed);
      return removed.length;
    });
  }

  /** The last offset of each remembered producer's last batch: the cleaner keeps these batches whole. */
  producerLastBatchOffsets(): Set<number> {
    return this.local.producers.lastBatchOffsets();
  }

  /** The segments compaction may rewrite: every one but the active segment. */
  inactiveSegments(): readonly LogSegment[] {
    return this.local.segments.inactive();
  }

  /**
   * Runs `work` on the log's serial queue (no append, truncation or retention runs meanwhile). For maintenance
   * that swaps segment contents, such as the cleaner.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.local.serial(work);
  }

  /** Called by the cleaner inside `exclusive`: replaces a segment object after its file was swapped. */
  replaceSegment(replacement: LogSegment): void {
    this.local.segments.replace(replacement);
  }

  /** Called by the cleaner inside `exclusive`. */
  async setCleanerCheckpoint(offset: number): Promise<void> {
    this.local.updateCleanerCheckpoint(offset);
    await this.local.saveState();
  }

  /** Opens a segment of this log's folder with the log's settings (the cleaner's swapped files). */
  openSegment(baseOffset: number, sizeBytes: number): Promise<LogSegment> {
    return this.local.openSegment(baseOffset, sizeBytes, false);
  }
}
