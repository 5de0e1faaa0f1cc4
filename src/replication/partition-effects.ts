// What a Partition's steps (partition.ts) return instead of doing I/O: the replica manager executes them
// (replica-manager.service.ts, execute): writes the ISR change, wakes the waiters the HW or the log end passes, and
// wakes every waiter of a partition whose role was given up.
import type { IsrChange } from './leader-replica-state.js';

/** What a Partition's step asks its replica manager to do. */
export interface PartitionEffects {
  /** An ISR change the leader proposed: write it (isr-writer.ts); it counts only once written. */
  isrChange: IsrChange | null;
  /** The high watermark now (it may have moved): wake the readers and acks=all requests it passes. */
  highWatermark: number | null;
  /** The leader's log end moved: wake the followers' long polls it passes. */
  leaderEndOffset: number | null;
  /** A role was given up (leadership, or a fetcher's leader): every waiter wakes and re-checks. */
  released: boolean;
}

export const NO_EFFECTS: PartitionEffects = Object.freeze({
  isrChange: null,
  highWatermark: null,
  leaderEndOffset: null,
  released: false,
});

export function effects(partial: Partial<PartitionEffects>): PartitionEffects {
  return { ...NO_EFFECTS, ...partial };
}
