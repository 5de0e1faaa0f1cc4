// Carries out the PartitionEffects a Partition returns (partition-effects.ts), for the replica manager: wakes the
// long polls an HW or a leader's log end passes (consumers' reads, followers' fetches, acks=all requests), wakes
// every waiter of a partition whose role was given up, and writes a proposed ISR change compare-and-set through
// the coordination store (isr-writer.ts), handing the outcome back to the partition; a written or refused change
// reloads the metadata, so that the controller's view and this broker's meet again.
import type { LoggerService } from '@nestjs/common';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import { writeIsr } from './isr-writer.js';
import type { LeaderPartition } from './leader-partition.js';
import type { IsrChange } from './leader-replica-state.js';
import type { PartitionEffects } from './partition-effects.js';
import type { Partition } from './partition.js';
import type { OffsetWaiters, PartitionWaiters } from './partition-waiters.js';

export interface EffectPorts {
  store: CoordinationStore;
  /** Consumers' long polls, by partition key. */
  readers: PartitionWaiters;
  /** Followers' long polls, by partition key. */
  followerFetches: PartitionWaiters;
  /** Woken by any HW move or role given up (a controlled shutdown's drain). */
  progress: OffsetWaiters;
  logger: LoggerService;
  onIsrChanged(kind: IsrChange['kind']): void;
  reloadMetadata(): void;
}

export class EffectExecutor {
  /** Partitions whose followers' long polls wake at the end of this loop turn, with the leader's log end to pass. */
  private followerWakes = new Map<string, number>();
  private followerWakeScheduled = false;

  constructor(private readonly ports: EffectPorts) {}

  /** Runs a role change of `partition` and executes its effects; a leadership given up is logged. */
  step(partition: Partition, change: () => PartitionEffects): void {
    const was = partition.leader;
    this.execute(partition, change());
    if (was !== null && partition.leader !== was) {
      this.ports.logger.log(`${partition.key}: no longer leader (was epoch ${was.epoch})`);
    }
  }

  execute(partition: Partition, effects: PartitionEffects): void {
    const { key } = partition;
    const { readers, followerFetches, progress } = this.ports;
    if (effects.released) {
      partition.acks.notify(Number.POSITIVE_INFINITY); // parked acks=all requests go on as a replica
      this.followerWakes.delete(key);
      followerFetches.notify(key, Number.POSITIVE_INFINITY);
      readers.notify(key, Number.POSITIVE_INFINITY);
    }
    if (effects.leaderEndOffset !== null) this.wakeFollowersSoon(key, effects.leaderEndOffset);
    if (effects.highWatermark !== null) {
      readers.notify(key, effects.highWatermark);
      partition.acks.notify(effects.highWatermark);
    }
    if (effects.released || effects.highWatermark !== null) progress.notify(Number.POSITIVE_INFINITY);
    const leader = partition.leader;
    if (effects.isrChange !== null && leader !== null) void this.writeIsrChange(partition, leader, effects.isrChange);
  }

  /**
   * Wakes the followers' long polls of `key` that `leaderEndOffset` passes, in this loop turn's check phase
   * (setImmediate), not at once: the appends of the other I/O callbacks of this turn (under load, other produce
   * requests whose bodies came in the same poll) then leave in the same fetch answer, not one answer each. A
   * fetch that comes meanwhile does not park (it finds the leader's log end past its offset), so no parked fetch is
   * missed; nothing parked now, nothing scheduled.
   */
  private wakeFollowersSoon(key: string, leaderEndOffset: number): void {
    if (!this.ports.followerFetches.hasParked(key)) return;
    const pending = this.followerWakes.get(key);
    if (pending === undefined || leaderEndOffset > pending) this.followerWakes.set(key, leaderEndOffset);
    if (this.followerWakeScheduled) return;
    this.followerWakeScheduled = true;
    setImmediate(() => {
      const wakes = this.followerWakes;
      this.followerWakes = new Map();
      this.followerWakeScheduled = false;
      for (const [partitionKey, offset] of wakes) this.ports.followerFetches.notify(partitionKey, offset);
    });
  }

  /** Writes a proposed ISR change; it counts only once written (and only for the leadership that proposed it). */
  async writeIsrChange(partition: Partition, leader: LeaderPartition, change: IsrChange): Promise<void> {
    const { logger } = this.ports;
    const from = [...leader.state.isr];
    try {
      const written = await writeIsr(this.ports.store, {
        topic: leader.topic,
        partition: leader.partition,
        leaderId: leader.state.leaderId,
        leaderEpoch: leader.epoch,
        currentIsr: from,
        change,
      });
      const { outcome, effects } = partition.isrWritten(leader, change, written);
      if (outcome === 'stale') return;
      if (!written.ok) {
        logger.warn(`${leader.key}: ISR change to [${change.isr.join(',')}] refused: ${written.reason}`);
      } else {
        this.ports.onIsrChanged(change.kind);
        logger.log(`${leader.key}: ISR [${from.join(',')}] -> [${change.isr.join(',')}]`);
        this.execute(partition, effects);
      }
      this.ports.reloadMetadata();
    } catch (error) {
      partition.isrWriteFailed(leader, change);
      logger.warn(`${leader.key}: ISR change not written: ${(error as Error).message}`);
    }
  }
}
