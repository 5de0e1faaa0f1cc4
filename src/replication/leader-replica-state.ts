// The leader's view of one partition's replication (Kafka's Partition, leader side), as a pure state machine:
// each follower's log end offset (LEO) and last caught-up time, the ISR with at most one change in flight, and the
// high watermark (HW). Time comes in as monotonic milliseconds; persisting ISR changes and answering fetches are
// the caller's I/O.
//
// Kafka's rules, kept here:
// - A follower fetching at offset F has LEO F. It is caught up now when F >= the leader's LEO at this fetch, or was
//   caught up at its previous fetch when F >= the leader's LEO at that previous fetch.
// - A follower is out of sync when it has not been caught up for more than replica.lag.time.max.ms: the leader
//   proposes the ISR without it. A follower outside the ISR whose LEO has reached the HW and the start offset of the
//   leader's epoch is proposed back in, unless a reassignment is removing it.
// - The HW is the minimum LEO over the maximal ISR (KIP-497): the committed ISR plus a pending addition; a pending
//   removal still counts until it is committed. So the HW only moves past an offset every replica that may be in
//   the ISR has; it never goes down.
// - One ISR change is in flight at a time; until it is committed through the coordination store nothing relies on it.

export interface FollowerState {
  logEndOffset: number;
  lastCaughtUpMs: number;
  lastFetchMs: number;
  /** The leader's LEO when this follower last fetched. */
  leaderEndOffsetAtLastFetch: number;
}

export type IsrChange = { kind: 'expand'; replica: number; isr: number[] } | { kind: 'shrink'; isr: number[] };

export class LeaderReplicaState {
  private committedIsr: number[];
  private pending: IsrChange | null = null;
  private hw: number;
  private leaderEndOffset: number;
  private readonly followers = new Map<number, FollowerState>();

  constructor(
    readonly leaderId: number,
    readonly replicas: readonly number[],
    isr: readonly number[],
    /** The first offset of the leader's current epoch: a follower rejoins the ISR only once it has reached it. */
    readonly epochStartOffset: number,
    leaderEndOffset: number,
    highWatermark: number,
    nowMs: number,
    /** Replicas a reassignment is removing: once out of the ISR they are not let back in (KIP-455). */
    readonly notExpandable: readonly number[] = [],
  ) {
    if (!isr.includes(leaderId)) throw new Error(`the leader ${leaderId} must be in its ISR [${isr.join(',')}]`);
    this.committedIsr = [...isr];
    this.leaderEndOffset = leaderEndOffset;
    this.hw = Math.min(highWatermark, leaderEndOffset);
    for (const replica of replicas) {
      if (replica === leaderId) continue;
      // Followers in the ISR start caught up (they were when it was last written); the others are not.
      this.followers.set(replica, {
        logEndOffset: 0,
        lastCaughtUpMs: isr.includes(replica) ? nowMs : -Infinity,
        lastFetchMs: -Infinity,
        leaderEndOffsetAtLastFetch: 0,
      });
    }
    this.recomputeHighWatermark();
  }

  get isr(): readonly number[] {
    return this.committedIsr;
  }

  get pendingChange(): IsrChange | null {
    return this.pending;
  }

  get highWatermark(): number {
    return this.hw;
  }

  follower(replica: number): Readonly<FollowerState> | undefined {
    return this.followers.get(replica);
  }

  /** The replicas the HW must wait for: the committed ISR plus a pending addition. */
  maximalIsr(): number[] {
    if (this.pending?.kind === 'expand' && !this.committedIsr.includes(this.pending.replica)) {
      return [...this.committedIsr, this.pending.replica];
    }
    return [...this.committedIsr];
  }

  /** The leader appended: its LEO moved. Returns the HW (which moves at once when the leader is alone). */
  onLeaderAppend(leaderEndOffset: number): number {
    if (leaderEndOffset < this.leaderEndOffset) throw new Error('the leader LEO cannot go down while it leads');
    this.leaderEndOffset = leaderEndOffset;
    this.recomputeHighWatermark();
    return this.hw;
  }

  /**
   * A follower fetched at `fetchOffset` (its LEO). Returns the new HW and, when the follower has caught up while
   * outside the ISR and no change is in flight, the ISR change to persist.
   */
  onFollowerFetch(
    replica: number,
    fetchOffset: number,
    nowMs: number,
  ): { highWatermark: number; change: IsrChange | null } {
    const state = this.followers.get(replica);
    if (state === undefined) throw new Error(`broker ${replica} is not a follower of this partition`);
    if (fetchOffset >= this.leaderEndOffset) state.lastCaughtUpMs = nowMs;
    else if (fetchOffset >= state.leaderEndOffsetAtLastFetch)
      state.lastCaughtUpMs = Math.max(state.lastCaughtUpMs, state.lastFetchMs);
    state.logEndOffset = Math.min(fetchOffset, this.leaderEndOffset);
    state.lastFetchMs = nowMs;
    state.leaderEndOffsetAtLastFetch = this.leaderEndOffset;
    this.recomputeHighWatermark();
    let change: IsrChange | null = null;
    if (
      this.pending === null &&
      !this.committedIsr.includes(replica) &&
      !this.notExpandable.includes(replica) &&
      state.logEndOffset >= this.hw &&
      state.logEndOffset >= this.epochStartOffset
    ) {
      change = { kind: 'expand', replica, isr: [...this.committedIsr, replica].sort((a, b) => a - b) };
      this.pending = change;
      this.recomputeHighWatermark();
    }
    return { highWatermark: this.hw, change };
  }

  /** Followers in the ISR that have not been caught up for more than `lagTimeMaxMs`. */
  outOfSyncReplicas(nowMs: number, lagTimeMaxMs: number): number[] {
    return this.committedIsr.filter((replica) => {
      if (replica === this.leaderId) return false;
      const state = this.followers.get(replica)!;
      return nowMs - state.lastCaughtUpMs > lagTimeMaxMs;
    });
  }

  /** The ISR change removing out-of-sync followers, when there are some and no change is in flight. */
  proposeShrink(nowMs: number, lagTimeMaxMs: number): IsrChange | null {
    if (this.pending !== null) return null;
    const out = this.outOfSyncReplicas(nowMs, lagTimeMaxMs);
    if (out.length === 0) return null;
    this.pending = { kind: 'shrink', isr: this.committedIsr.filter((replica) => !out.includes(replica)) };
    return this.pending;
  }

  /** The pending change is durable in the coordination store: it takes effect. Returns the HW. */
  changeCommitted(): number {
    if (this.pending === null) throw new Error('no ISR change in flight');
    this.committedIsr = [...this.pending.isr];
    this.pending = null;
    this.recomputeHighWatermark();
    return this.hw;
  }

  /** The pending change was refused (a newer controller or leader epoch): drop it; the caller steps down or retries. */
  changeFailed(): void {
    this.pending = null;
    this.recomputeHighWatermark();
  }

  /** acks=all may append only while the committed ISR has at least min.insync.replicas members. */
  hasEnoughReplicas(minInsyncReplicas: number): boolean {
    return this.committedIsr.length >= minInsyncReplicas;
  }

  private recomputeHighWatermark(): void {
    let candidate = this.leaderEndOffset;
    for (const replica of this.maximalIsr()) {
      if (replica === this.leaderId) continue;
      candidate = Math.min(candidate, this.followers.get(replica)?.logEndOffset ?? 0);
    }
    if (candidate > this.hw) this.hw = candidate;
  }
}
