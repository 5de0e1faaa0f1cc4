// The wait of an acks=all produce after its append (the leader side of Kafka's DelayedProduce): it succeeds once
// the high watermark has passed its records, with the ISR still at min.insync.replicas; it answers 50003 with an
// unknown outcome (the records were appended and may or may not be committed) when the wait times out, when the
// ISR shrank below min.insync.replicas meanwhile, or when the leadership moved and this replica can no longer
// tell. Bounded by acksAllTimeoutMs.
//
// A leadership that moves while a request waits (a controlled shutdown, a preferred-leader election) does not fail
// it at once: its records are committed once the partition's HW as this broker now knows it (from the new leader,
// or its own in a later epoch) passes them while this replica still holds them in the epoch they were written in:
// the same epoch at the same offset is the same batch (KIP-101). Truncated or rewritten, or not there before the
// deadline: the outcome is unknown.
import type { Clock } from '../common/clock.js';
import { errors } from '../common/brook-error.js';
import type { PartitionLog } from '../partition-log/partition-log.js';
import { lastOffsetOf, readBatchHeader } from '../partition-log/record-batch.js';
import type { LeaderPartition } from './leader-partition.js';

export interface AcksAllPorts {
  /** Whether `leader` is still this broker's leadership of its partition. */
  stillLeading(leader: LeaderPartition): boolean;
  /** The log this broker hosts for the partition now, if any. */
  hostedLog(topic: string, partition: number): PartitionLog | undefined;
  /** The partition's high watermark as this broker knows it (as leader or follower). */
  highWatermarkOf(topic: string, partition: number): number | undefined;
  /** Resolves when the partition's HW passes `offset` (or leadership moves), or after `waitMs`. */
  waitForHighWatermark(key: string, offset: number, waitMs: number): Promise<void>;
}

export class AcksAllWait {
  constructor(
    private readonly ports: AcksAllPorts,
    private readonly clock: Clock,
    private readonly brokerId: number,
    private readonly timeoutMs: number,
  ) {}

  /** Resolves once the records before `endOffset` are committed; throws an unknown-outcome 50003 otherwise. */
  async untilCommitted(leader: LeaderPartition, endOffset: number, minInsync: number): Promise<void> {
    const deadline = this.clock.monotonicMs() + this.timeoutMs;
    for (;;) {
      if (!this.ports.stillLeading(leader)) return this.afterLeadership(leader, endOffset, deadline);
      if (leader.state.highWatermark >= endOffset) {
        if (!leader.state.hasEnoughReplicas(minInsync)) {
          throw errors.notEnoughReplicasAfterAppend(
            `the ISR of ${leader.key} shrank below min.insync.replicas=${minInsync} after the append ` +
              '(outcome unknown).',
          );
        }
        return;
      }
      const remainingMs = deadline - this.clock.monotonicMs();
      if (remainingMs <= 0) {
        throw errors.outcomeUnknown(
          `Timed out after ${this.timeoutMs} ms waiting for the in-sync replicas of ${leader.key}; ` +
            'the records were appended but may not be committed (outcome unknown).',
        );
      }
      await this.ports.waitForHighWatermark(leader.key, endOffset - 1, remainingMs);
    }
  }

  private async afterLeadership(leader: LeaderPartition, endOffset: number, deadlineMs: number): Promise<void> {
    const unknown = (why: string) =>
      errors.outcomeUnknown(
        `${leader.key} is no longer led by broker ${this.brokerId} in epoch ${leader.epoch} and ${why}; ` +
          'the records were appended but may not be committed (outcome unknown).',
      );
    for (;;) {
      if (!this.hostsSameLog(leader)) {
        throw unknown('this broker no longer holds a replica of it (moved away or deleted)');
      }
      const highWatermark = this.ports.highWatermarkOf(leader.topic, leader.partition);
      if (highWatermark !== undefined && highWatermark >= endOffset) {
        if (await this.holdsBatch(leader, endOffset - 1)) return;
        throw unknown('this replica no longer holds them');
      }
      const remainingMs = deadlineMs - this.clock.monotonicMs();
      if (remainingMs <= 0) throw unknown(`they were not committed within ${this.timeoutMs} ms`);
      await this.ports.waitForHighWatermark(leader.key, endOffset - 1, remainingMs);
    }
  }

  private hostsSameLog(leader: LeaderPartition): boolean {
    return this.ports.hostedLog(leader.topic, leader.partition) === leader.log && !leader.log.isClosed;
  }

  /** Whether this broker's log of the partition still has `offset` in a batch of the leader's epoch. */
  private async holdsBatch(leader: LeaderPartition, offset: number): Promise<boolean> {
    if (!this.hostsSameLog(leader)) return false;
    try {
      const { batches } = await leader.log.read(offset, { maxBytes: 1, minOneBatch: true });
      if (batches.length === 0) return false;
      const header = readBatchHeader(batches);
      return (
        header.partitionLeaderEpoch === leader.epoch && header.baseOffset <= offset && lastOffsetOf(header) >= offset
      );
    } catch {
      return false;
    }
  }
}
