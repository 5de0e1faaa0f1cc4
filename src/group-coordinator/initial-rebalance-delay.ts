// Kafka's delayed initial rebalance (group.initial.rebalance.delay.ms), one rule for both kinds of group (the
// Brook-assigned one in assigned-rebalance.ts, the classic one in classic-rebalance.ts): the first rebalance of an
// empty group waits the delay for more members to join, each join starting the delay again, but never past the
// cap, the longer of the delay and the members' rebalance timeout counted from the start. Pure.

export interface InitialJoinPhase {
  /** When the join phase ends unless another member joins. */
  deadlineMs: number;
  /** The latest the join phase may end. */
  capMs: number;
}

/** The join phase of an empty group's first rebalance, starting at `nowMs`. */
export function initialJoinPhase(nowMs: number, delayMs: number, rebalanceTimeoutMs: number): InitialJoinPhase {
  return { deadlineMs: nowMs + delayMs, capMs: nowMs + Math.max(delayMs, rebalanceTimeoutMs) };
}

/** A member joined during the initial join phase at `nowMs`: the phase's new deadline. */
export function extendedJoinDeadline(nowMs: number, delayMs: number, capMs: number): number {
  return Math.min(nowMs + delayMs, capMs);
}
