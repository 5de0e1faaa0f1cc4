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
//
// Incarnations (KIP-903): every fetch carries the follower's broker epoch, and the ISR records the one it admitted
// for each member (replica-incarnations.ts). A fetch from an older incarnation than one already seen is refused.
// A member fetching as another incarnation than the one admitted has restarted and may have lost its tail: its
// fetches never raise what it counts for towards the HW (only lower it, to what it now holds), and it is proposed
// out of the ISR at once; it comes back like any follower, caught up, as its new incarnation (an expansion carries
// the broker epoch of the fetches that caught up).
//
// The high watermark readers may see (highWatermarkKnown): a leader that just took over knows the HW only as it
// had it as a follower, which may be below what the previous leader already served. It serves none until its HW
// has reached the start offset of its epoch (its LEO when it took over); from then on its HW only grows. Why that
// is enough for the HW readers see never to go backwards, across restarts and leader changes:
//   1. Within one leadership the HW only grows: recomputeHighWatermark keeps the maximum, and a rebuild after an
//      ISR change (replica-manager.service.ts) starts from the HW it had.
//   2. A HW h computed in epoch E is at most the fetch offset of every member of the maximal ISR, and a member's
//      fetch offset is what it holds: a member that restarted counts for no more than before and no more than it
//      now holds (KIP-903 above), and a follower joins only once it holds at least the HW. A member never truncates
//      below h: truncation by leader epoch stops where its log and its leader's diverge, above every committed
//      offset. So every member of the stored ISR that is still the incarnation admitted holds [0, h).
//   3. The controller elects the leader of the next epoch E' only among those members (partition-leadership.ts),
//      and a broker leads only as such a member (leadership-admission.ts). So the start offset of E', the new
//      leader's LEO when it takes over, is at least every HW served in E, and by induction in every epoch before.
//   4. The new leader serves no HW below that start offset (this rule), and then (1).
//   5. The leader of E cannot serve more after E' began: its HW is bounded by the new leader's last fetch offset
//      in E, at most the start of E'. It may still answer with its old HW, which is what the rule must keep
//      readers from seeing after a newer one: it stops serving as soon as it applies the change, a leader that
//      slept through its session serves nothing until its metadata is fresh (metadata-cache.service.ts), and one
//      in a controlled shutdown answers no reads once drained. In a preferred election the old leader stays in
//      the ISR, and the new one's HW reaches the start of its epoch only once the old one fetched from it as a
//      follower, so after it stopped serving.
// Not covered, as in Kafka: an unclean election (unclean.leader.election.enable, or every ISR member restarted
// after losing unflushed writes, when the first of them leads), and a leader cut off from the coordination store
// but not from clients, which serves its last HW until it learns of the move.

export interface FollowerState {
  /** What this follower counts for towards the HW: its LEO as its latest fetch showed it. */
  logEndOffset: number;
  lastCaughtUpMs: number;
  lastFetchMs: number;
  /** The leader's LEO when this follower last fetched. */
  leaderEndOffsetAtLastFetch: number;
  /** The newest incarnation (broker epoch) seen fetching, or admitted; -1 before any. */
  brokerEpoch: number;
}

export type IsrChange =
  { kind: 'expand'; replica: number; brokerEpoch: number; isr: number[] } | { kind: 'shrink'; isr: number[] };

export type FollowerFetchOutcome =
  { accepted: true; highWatermark: number; change: IsrChange | null } | { accepted: false; reason: string };

export interface LeaderReplicaStateInit {
  leaderId: number;
  replicas: readonly number[];
  isr: readonly number[];
  /** The incarnation the ISR admitted for each member, by broker id (PartitionState.isrBrokerEpochs). */
  isrBrokerEpochs: Readonly<Record<string, number>>;
  /** The first offset of the leader's current epoch: a follower rejoins the ISR only once it has reached it. */
  epochStartOffset: number;
  leaderEndOffset: number;
  highWatermark: number;
  nowMs: number;
  /** Replicas a reassignment is removing: once out of the ISR they are not let back in (KIP-455). */
  notExpandable?: readonly number[];
}

export class LeaderReplicaState {
  readonly leaderId: number;
  readonly replicas: readonly number[];
  readonly epochStartOffset: number;
  readonly notExpandable: readonly number[];
  private committedIsr: number[];
  private committedEpochs: Readonly<Record<string, number>>;
  private pending: IsrChange | null = null;
  private hw: number;
  private leaderEndOffset: number;
  /** By replica; a partition with no follower (one replica) shares NO_FOLLOWERS. */
  private readonly followers: ReadonlyMap<number, FollowerState>;

  constructor(init: LeaderReplicaStateInit) {
    const { leaderId, isr, nowMs } = init;
    if (!isr.includes(leaderId)) throw new Error(`the leader ${leaderId} must be in its ISR [${isr.join(',')}]`);
    this.leaderId = leaderId;
    this.replicas = init.replicas;
    this.epochStartOffset = init.epochStartOffset;
    this.notExpandable = init.notExpandable ?? [];
    this.committedIsr = [...isr];
    this.committedEpochs = membersOnly(init.isrBrokerEpochs, isr);
    this.leaderEndOffset = init.leaderEndOffset;
    this.hw = Math.min(init.highWatermark, init.leaderEndOffset);
    const followers = init.replicas.some((replica) => replica !== leaderId) ? new Map<number, FollowerState>() : null;
    this.followers = followers ?? NO_FOLLOWERS;
    for (const replica of init.replicas) {
      if (replica === leaderId) continue;
      // Followers in the ISR start caught up (they were when it was last written); the others are not.
      followers!.set(replica, {
        logEndOffset: 0,
        lastCaughtUpMs: isr.includes(replica) ? nowMs : -Infinity,
        lastFetchMs: -Infinity,
        leaderEndOffsetAtLastFetch: 0,
        brokerEpoch: this.committedEpochs[String(replica)] ?? -1,
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

  /** The committed ISR's admitted incarnations, by broker id. */
  get isrBrokerEpochs(): Readonly<Record<string, number>> {
    return this.committedEpochs;
  }

  /** Whether the HW may be served to readers: it has reached the start of this leader's epoch (see the header). */
  get highWatermarkKnown(): boolean {
    return this.hw >= this.epochStartOffset;
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
   * A follower, as incarnation `brokerEpoch`, fetched at `fetchOffset` (its LEO). Returns the new HW and, when the
   * follower has caught up while outside the ISR (or restarted while in it) and no change is in flight, the ISR
   * change to persist; refuses a fetch from an older incarnation than one already seen.
   */
  onFollowerFetch(replica: number, brokerEpoch: number, fetchOffset: number, nowMs: number): FollowerFetchOutcome {
    const state = this.followers.get(replica);
    if (state === undefined) throw new Error(`broker ${replica} is not a follower of this partition`);
    if (brokerEpoch < state.brokerEpoch) {
      return {
        accepted: false,
        reason: `broker ${replica} fetched as incarnation ${brokerEpoch}; incarnation ${state.brokerEpoch} replaced it`,
      };
    }
    state.brokerEpoch = brokerEpoch;
    if (this.countsForHighWatermark(replica) && this.admittedEpoch(replica) !== brokerEpoch) {
      // a restarted member: what it now holds may be less than what it counted for; never more
      state.logEndOffset = Math.min(state.logEndOffset, fetchOffset);
      state.lastFetchMs = nowMs;
      return { accepted: true, highWatermark: this.hw, change: this.proposeRemovalOfReplaced() };
    }
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
      const isr = [...this.committedIsr, replica].sort((a, b) => a - b);
      change = { kind: 'expand', replica, brokerEpoch, isr };
      this.pending = change;
      this.recomputeHighWatermark();
    }
    return { accepted: true, highWatermark: this.hw, change };
  }

  /**
   * Followers in the ISR that have not been caught up for more than `lagTimeMaxMs`, or that fetch as another
   * incarnation than the one admitted.
   */
  outOfSyncReplicas(nowMs: number, lagTimeMaxMs: number): number[] {
    return this.committedIsr.filter((replica) => {
      if (replica === this.leaderId) return false;
      const state = this.followers.get(replica)!;
      return nowMs - state.lastCaughtUpMs > lagTimeMaxMs || this.replaced(replica);
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
    const change = this.pending;
    this.committedIsr = [...change.isr];
    this.committedEpochs = membersOnly(
      change.kind === 'expand'
        ? { ...this.committedEpochs, [String(change.replica)]: change.brokerEpoch }
        : this.committedEpochs,
      change.isr,
    );
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

  /** The incarnation a member of the maximal ISR was admitted as (or is being admitted as). */
  private admittedEpoch(replica: number): number | undefined {
    if (this.pending?.kind === 'expand' && this.pending.replica === replica) return this.pending.brokerEpoch;
    return this.committedEpochs[String(replica)];
  }

  private countsForHighWatermark(replica: number): boolean {
    return this.maximalIsr().includes(replica);
  }

  /** An ISR member whose fetches come from another incarnation than the one admitted. */
  private replaced(replica: number): boolean {
    const state = this.followers.get(replica);
    return state !== undefined && state.brokerEpoch !== -1 && this.admittedEpoch(replica) !== state.brokerEpoch;
  }

  private proposeRemovalOfReplaced(): IsrChange | null {
    if (this.pending !== null) return null;
    const replaced = this.committedIsr.filter((replica) => replica !== this.leaderId && this.replaced(replica));
    if (replaced.length === 0) return null;
    this.pending = { kind: 'shrink', isr: this.committedIsr.filter((replica) => !replaced.includes(replica)) };
    return this.pending;
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

/** Never written: the followers of every leadership that has none. */
const NO_FOLLOWERS: ReadonlyMap<number, FollowerState> = new Map();

/**
 * The epochs of the ISR's members: `epochs` itself when it names no one else (the usual case: a partition state's
 * own, which nothing writes to; one object fewer a partition), else a copy without the others.
 */
function membersOnly(
  epochs: Readonly<Record<string, number>>,
  isr: readonly number[],
): Readonly<Record<string, number>> {
  let othersNamed = false;
  for (const key in epochs)
    if (!Object.hasOwn(epochs, key) || !isr.some((member) => String(member) === key)) othersNamed = true;
  if (!othersNamed && Object.getPrototypeOf(epochs) === Object.prototype) return epochs;
  const kept: Record<string, number> = {};
  for (const member of isr) {
    const epoch = epochs[String(member)];
    if (epoch !== undefined) kept[String(member)] = epoch;
  }
  return kept;
}
