// Truncation for replication (Kafka's UnifiedLog.truncateTo and truncateFullyAndStartAt): a follower removes what
// a new leader does not have before it fetches from it, or drops its whole log when it is behind the leader's log
// start. Runs on the log's serial queue with no append queued, moves the log's generation on (work that read the
// log outside the queue, the cleaner, checks it), and keeps the leader-epoch cache and the producer state to what
// remains: the state is reloaded from the latest snapshot at or below the new end plus the batches after it, and the
// producers that leaves with no batch at or above the log start are dropped from the snapshot files as well.
import type { LocalLog } from './local-log.js';
import type { LogAppender } from './log-appender.js';
import { deleteProducerSnapshots, reloadProducerState } from './producer-state-files.js';

export class LogTruncation {
  constructor(
    private readonly local: LocalLog,
    private readonly appender: LogAppender,
  ) {}

  /**
   * Removes every batch at or after `offset`'s batch. At the log end it removes only epochs that start there with
   * no batch (assigned by an earlier leadership of this replica).
   */
  truncateTo(offset: number): Promise<void> {
    return this.local.serial(async () => {
      const local = this.local;
      this.appender.assertNoPendingAppends('truncate');
      if (offset >= local.logEndOffset) {
        if (offset === local.logEndOffset && local.epochs.truncateFromEnd(offset)) await local.saveEpochs();
        return;
      }
      if (offset <= local.logStartOffset) return this.resetTo(offset);
      local.bumpGeneration();
      const segments = local.segments.all;
      const keep = segments.filter((segment) => segment.baseOffset < offset);
      const drop = segments.filter((segment) => segment.baseOffset >= offset);
      for (const segment of drop) await segment.deleteFiles();
      local.segments.keepOnly(keep);
      await local.segments.active.truncateTo(offset);
      const end = local.segments.active.nextOffset;
      local.updateLogEndOffset(end);
      this.appender.restartAt(end);
      local.updateRecoveryPoint(Math.min(local.recoveryPoint, end));
      local.updateCleanerCheckpoint(Math.min(local.cleanerCheckpoint, end));
      if (local.epochs.truncateFromEnd(end)) await local.saveEpochs();
      await local.saveState();
      const reloaded = await reloadProducerState(
        local.dir,
        local.segments.all,
        local.logStartOffset,
        end,
        local.producers,
        local.deps.clock.nowMs(),
      );
      local.producers.replaceWritten(reloaded.table);
    });
  }

  /** Drops the whole log and starts it empty at `offset`. */
  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.local.serial(async () => {
      this.appender.assertNoPendingAppends('truncate');
      await this.resetTo(offset);
    });
  }

  private async resetTo(offset: number): Promise<void> {
    const local = this.local;
    local.bumpGeneration();
    for (const segment of local.segments.all) await segment.deleteFiles();
    local.segments.keepOnly([await local.createSegment(offset)]);
    local.updateLogEndOffset(offset);
    this.appender.restartAt(offset);
    local.updateLogStartOffset(offset);
    local.updateRecoveryPoint(offset);
    local.updateCleanerCheckpoint(offset);
    local.epochs.clear();
    await local.saveEpochs();
    await local.saveState();
    await deleteProducerSnapshots(local.dir, () => true);
    local.producers.replaceWritten(local.producers.newTable());
  }
}
