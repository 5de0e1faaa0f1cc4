// One replica this broker hosts (Kafka's kafka.cluster.Partition): its log, its role (none, follower, leader) as
// the state machine of partition-role.ts, the leader state while it leads (the ISR/HW machine of
// leader-replica-state.ts, in a LeaderPartition of leader-partition.ts), the high watermark it learnt as a follower,
// and its acks=all waiters. Time comes from the injected Clock.
//
// It does no I/O but on its own log: what its transitions and requests cause comes back as PartitionEffects (an
// ISR change to write compare-and-set, the HW or the leader's log end that moved, so that waiters wake, the role
// given up, so that every waiter re-checks), which the replica manager (replica-manager.service.ts) executes.
// Starting and stopping the follower's fetcher is the manager's too: a Partition that becomes a follower says
// whether a new fetcher is needed, and the manager stops the old fetcher before a Partition takes the leadership.
import type { Clock } from '../common/clock.js';
import { errors } from '../common/brook-error.js';
import type { AppendAsLeaderOptions, AppendInfo, PartitionLog, ReadResult } from '../partition-log/partition-log.js';
import type { PartitionState } from '../topic/cluster-metadata.js';
import { AcksAllWait } from './acks-all-wait.js';
import { divergingEpoch } from './fetch-divergence.js';
import { sameMembers, type IsrWriteResult } from './isr-writer.js';
import { assertMayLead, type Incarnation } from './leadership-admission.js';
import { type LeaderPartition, partitionKey, translate } from './leader-partition.js';
import { type IsrChange, LeaderReplicaState } from './leader-replica-state.js';
import { checkTransition, type Role, type TransitionCheck } from './partition-role.js';
import { effects, NO_EFFECTS, type PartitionEffects } from './partition-effects.js';
import { OffsetWaiters, type WaiterBudget } from './partition-waiters.js';
import type { LeaderFetchAnswer, ReplicaFetchRequest } from './replica-fetch-protocol.js';

/** The controller's decision for a partition this broker is to lead. */
export interface LeaderAssignment {
  state: PartitionState;
  replicas: number[];
  /** The version of the partition state in the coordination store. */
  version: number;
}

export interface PartitionSettings {
  /** This process's incarnation: a leadership must name it (leadership-admission.ts). */
  incarnation: Incarnation;
  acksAllTimeoutMs: number;
}

export interface PartitionPorts {
  /** The log this broker hosts for the partition now, if any (it may have been replaced or deleted). */
  hostedLog(topic: string, partition: number): PartitionLog | undefined;
  /** The partition's HW as this broker knows it now, from whichever Partition hosts it. */
  highWatermarkOf(topic: string, partition: number): number | undefined;
}

/** A follower fetch at the leader: either answered at once (divergence, or below the log start), or read on. */
export type FollowerFetchStep =
  { kind: 'answer'; answer: LeaderFetchAnswer } | { kind: 'read'; effects: PartitionEffects };

/** What an ISR write's outcome did to the leadership that proposed it. */
export type IsrWriteOutcome = 'stale' | 'refused' | 'committed';

export class Partition {
  readonly key: string;
  /** acks=all produce requests, woken as the HW moves (as leader, or as follower after a move). */
  readonly acks: OffsetWaiters;
  private current: Role = 'none';
  private epoch = -1;
  private leadership: LeaderPartition | null = null;
  private followed: { leaderId: number; leaderEpoch: number } | null = null;
  private followerHighWatermark: number | undefined;
  /** Made on the first acks=all wait: most partitions of a broker with many never have one. */
  private acksAll: AcksAllWait | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly log: PartitionLog,
    private readonly settings: PartitionSettings,
    private readonly clock: Clock,
    acksBudget: WaiterBudget,
    private readonly ports: PartitionPorts,
    /** The HW to start from (the checkpoint's, or what this broker knew before), capped at the log end. */
    seedHighWatermark?: number,
  ) {
    this.key = partitionKey(topic, partition);
    this.acks = new OffsetWaiters(clock, acksBudget);
    this.followerHighWatermark = seedHighWatermark;
  }

  get role(): Role {
    return this.current;
  }

  /** The leader epoch this replica is in (as leader or follower; the last one it had once it is none), or -1. */
  get leaderEpoch(): number {
    return this.epoch;
  }

  /** The leadership while this replica leads. */
  get leader(): LeaderPartition | null {
    return this.leadership;
  }

  /** The leader a follower fetches from, and in which epoch. */
  get followedLeader(): { leaderId: number; leaderEpoch: number } | null {
    return this.followed;
  }

  /** The leader's HW, or what a follower (or a restarted replica's checkpoint) knows, never past its log end. */
  get highWatermark(): number | undefined {
    if (this.leadership !== null) return this.leadership.state.highWatermark;
    if (this.followerHighWatermark === undefined) return undefined;
    return Math.min(this.followerHighWatermark, this.log.logEndOffset);
  }

  /** Whether the transition table (partition-role.ts) lets this replica become `to` in leader epoch `epoch`. */
  check(to: Role, epoch: number): TransitionCheck {
    return checkTransition(this.current, this.epoch, to, epoch);
  }

  // ---- role changes ----

  /**
   * Leads in the assignment's epoch: the same epoch updates the ISR or replicas the leader state works with
   * (keeping its HW); a new one (the caller stopped any fetcher) assigns the epoch at the log end and builds the
   * leader state from the stored ISR, starting from the HW this replica knew.
   */
  async makeLeader(assignment: LeaderAssignment): Promise<PartitionEffects> {
    const { state } = assignment;
    this.assertTransition('leader', state.leaderEpoch);
    if (this.leadership !== null && this.leadership.epoch === state.leaderEpoch) return this.updateLeader(assignment);
    assertMayLead(state, this.settings.incarnation, this.log.latestEpochAtOpen);
    const released = this.giveUpLeadership();
    this.followed = null;
    this.current = 'none'; // until the epoch is in the log
    await this.log.assignEpochAtEnd(state.leaderEpoch);
    const highWatermark = Math.min(this.followerHighWatermark ?? this.log.logStartOffset, this.log.logEndOffset);
    this.followerHighWatermark = undefined;
    this.leadership = {
      key: this.key,
      topic: this.topic,
      partition: this.partition,
      log: this.log,
      epoch: state.leaderEpoch,
      stateVersion: assignment.version,
      state: this.newLeaderState(state, assignment.replicas, state.removingReplicas ?? [], highWatermark, null),
    };
    this.current = 'leader';
    this.epoch = state.leaderEpoch;
    return effects({ released, highWatermark: this.leadership.state.highWatermark });
  }

  /**
   * Follows `leaderId` in `leaderEpoch`, giving up any leadership (its HW stays as this replica's). Returns whether
   * the fetcher must be (re)started: not when it already follows that leader in that epoch.
   */
  makeFollower(leaderId: number, leaderEpoch: number): { effects: PartitionEffects; startFetcher: boolean } {
    this.assertTransition('follower', leaderEpoch);
    const released = this.giveUpLeadership();
    const same = this.followed?.leaderId === leaderId && this.followed.leaderEpoch === leaderEpoch;
    this.followed = { leaderId, leaderEpoch };
    this.current = 'follower';
    this.epoch = leaderEpoch;
    return { effects: effects({ released }), startFetcher: !same };
  }

  /**
   * Neither leads nor follows (no leader, a refused leadership, a log going away). `forgetHighWatermark` (a
   * follower whose replica is no longer served) drops the HW it learnt.
   */
  makeNone(forgetHighWatermark = false): PartitionEffects {
    const wasFollower = this.followed !== null;
    const released = this.giveUpLeadership() || wasFollower;
    this.followed = null;
    this.current = 'none';
    if (forgetHighWatermark && wasFollower) this.followerHighWatermark = undefined;
    return effects({ released });
  }

  /** The follower's fetcher learnt the leader's HW (capped at this log's end). */
  followerLearnt(highWatermark: number): PartitionEffects {
    if (this.current !== 'follower') return NO_EFFECTS;
    this.followerHighWatermark = highWatermark;
    return effects({ highWatermark });
  }

  // ---- leader side ----

  /** acks=all is refused before appending while the ISR is below min.insync.replicas, or too many wait already. */
  admitAcksAll(leader: LeaderPartition, minInsync: number, waitingMax: number): void {
    if (!leader.state.hasEnoughReplicas(minInsync)) {
      throw errors.notEnoughReplicas(
        `the in-sync replicas of ${leader.key} are [${leader.state.isr.join(',')}], fewer than ` +
          `min.insync.replicas=${minInsync}; nothing was appended.`,
      );
    }
    if (this.acks.budget.parked >= waitingMax) {
      throw errors.tooManyRequests(`${waitingMax} acks=all requests are already waiting for replicas.`);
    }
  }

  /** Appends as `leader`; synchronous until the append is queued, so appends keep their call order. */
  append(leader: LeaderPartition, batch: Buffer, options: AppendAsLeaderOptions): Promise<AppendInfo> {
    try {
      return this.log.appendAsLeader(batch, leader.epoch, options);
    } catch (error) {
      throw translate(error);
    }
  }

  /** An append of `leader` is written: the leader's LEO moved, and the HW with it when the leader is alone. */
  leaderAppended(leader: LeaderPartition): PartitionEffects {
    if (this.leadership !== leader) return NO_EFFECTS;
    const leaderEndOffset = this.log.logEndOffset;
    leader.state.onLeaderAppend(leaderEndOffset);
    return effects({ leaderEndOffset, highWatermark: leader.state.highWatermark });
  }

  /** Resolves once the records before `endOffset` are committed (acks-all-wait.ts); throws 50003 otherwise. */
  untilCommitted(leader: LeaderPartition, endOffset: number, minInsync: number): Promise<void> {
    this.acksAll ??= new AcksAllWait(
      {
        stillLeading: (current) => this.leadership === current,
        hostedLog: (name, index) => this.ports.hostedLog(name, index),
        highWatermarkOf: (name, index) => this.ports.highWatermarkOf(name, index),
        waitForHighWatermark: (_key, offset, waitMs) => this.acks.wait(offset, waitMs),
      },
      this.clock,
      this.settings.incarnation.brokerId,
      this.settings.acksAllTimeoutMs,
    );
    return this.acksAll.untilCommitted(leader, endOffset, minInsync);
  }

  /** Resolves when `leader` is given up, or after `waitMs` (a produce held while a controlled shutdown drains). */
  async untilReleased(leader: LeaderPartition, waitingMax: number, waitMs: number): Promise<void> {
    if (this.acks.budget.parked < waitingMax && this.leadership === leader) {
      await this.acks.wait(Number.MAX_SAFE_INTEGER, waitMs);
    }
  }

  /**
   * A follower's fetch (replica-fetch-protocol.ts): fenced by leader epoch (an older one is fenced, a newer
   * one unknown here) and by broker epoch (an older incarnation than one seen); a diverging or out-of-range fetch is
   * answered at once; otherwise its offset moves the follower's LEO, the HW and maybe the ISR.
   */
  followerFetch(leader: LeaderPartition, request: ReplicaFetchRequest): FollowerFetchStep {
    if (request.leaderEpoch < leader.epoch) {
      throw errors.fencedLeaderEpoch(
        `Fenced: ${leader.key} is in leader epoch ${leader.epoch}, the fetch believes ${request.leaderEpoch}.`,
      );
    }
    if (request.leaderEpoch > leader.epoch) {
      throw errors.unknownLeaderEpoch(
        `${leader.key}: this broker is in leader epoch ${leader.epoch}, the fetch believes ${request.leaderEpoch}.`,
      );
    }
    if (request.replicaId === leader.state.leaderId || !leader.state.replicas.includes(request.replicaId)) {
      throw errors.invalidRequest(`Broker ${request.replicaId} is not a follower of ${leader.key}.`);
    }
    const log = this.log;
    const diverging =
      divergingEpoch(request.fetchOffset, request.lastFetchedEpoch, (epoch) => log.endOffsetForEpoch(epoch)) ??
      (request.fetchOffset > log.logEndOffset ? { epoch: -1, endOffset: log.logEndOffset } : null);
    if (diverging !== null || request.fetchOffset < log.logStartOffset) {
      return { kind: 'answer', answer: this.fetchAnswer(leader, diverging, []) };
    }
    const outcome = leader.state.onFollowerFetch(
      request.replicaId,
      request.brokerEpoch,
      request.fetchOffset,
      this.clock.monotonicMs(),
    );
    if (!outcome.accepted) throw errors.staleBrokerEpoch(`${leader.key}: ${outcome.reason}.`);
    return { kind: 'read', effects: effects({ isrChange: outcome.change, highWatermark: outcome.highWatermark }) };
  }

  /** The batches a follower fetch gets from `fetchOffset` (none at the log end). */
  async readForFollower(leader: LeaderPartition, fetchOffset: number, maxBytes: number): Promise<LeaderFetchAnswer> {
    if (fetchOffset >= this.log.logEndOffset) return this.fetchAnswer(leader, null, []);
    let read: ReadResult;
    try {
      read = await this.log.read(fetchOffset, { maxBytes, minOneBatch: true });
    } catch (error) {
      throw translate(error);
    }
    return this.fetchAnswer(leader, null, [read.batches]);
  }

  /** The answer to a follower fetch with `batches` the leader kept in memory (last-appends.ts), as the log holds them. */
  followerAnswer(leader: LeaderPartition, batches: readonly Buffer[]): LeaderFetchAnswer {
    return this.fetchAnswer(leader, null, batches);
  }

  /** The ISR shrink the isr-expiration check proposes, for followers not caught up for `lagTimeMaxMs`. */
  proposeShrink(lagTimeMaxMs: number): PartitionEffects {
    const change = this.leadership?.state.proposeShrink(this.clock.monotonicMs(), lagTimeMaxMs) ?? null;
    return change === null ? NO_EFFECTS : effects({ isrChange: change });
  }

  /** The outcome of writing `change`: it counts only when the leadership that proposed it is still here. */
  isrWritten(
    leader: LeaderPartition,
    change: IsrChange,
    written: IsrWriteResult,
  ): { outcome: IsrWriteOutcome; effects: PartitionEffects } {
    if (this.leadership !== leader || leader.state.pendingChange !== change) {
      return { outcome: 'stale', effects: NO_EFFECTS };
    }
    if (!written.ok) {
      leader.state.changeFailed();
      return { outcome: 'refused', effects: NO_EFFECTS };
    }
    leader.stateVersion = written.version;
    const highWatermark = leader.state.changeCommitted();
    return { outcome: 'committed', effects: effects({ highWatermark }) };
  }

  /** Writing `change` failed (the store could not be reached): it is dropped; the next check proposes again. */
  isrWriteFailed(leader: LeaderPartition, change: IsrChange): void {
    if (leader.state.pendingChange === change) leader.state.changeFailed();
  }

  /** Reads whole batches below the HW (the first even past `maxBytes` with `minOneBatch`). */
  async readBelowHighWatermark(
    leader: LeaderPartition,
    offset: number,
    maxBytes: number,
    minOneBatch: boolean,
  ): Promise<ReadResult & { highWatermark: number; logStartOffset: number }> {
    const highWatermark = leader.state.highWatermark;
    try {
      const result = await this.log.read(offset, { maxBytes, maxOffsetExclusive: highWatermark, minOneBatch });
      return { ...result, highWatermark, logStartOffset: this.log.logStartOffset };
    } catch (error) {
      throw translate(error);
    }
  }

  // ---- internals ----

  private updateLeader(assignment: LeaderAssignment): PartitionEffects {
    const current = this.leadership!;
    const { state: stored, replicas, version } = assignment;
    if (current.state.pendingChange !== null) return NO_EFFECTS; // its outcome reloads the metadata: asked again
    const removing = stored.removingReplicas ?? [];
    const newer = version > current.stateVersion;
    if (newer) current.stateVersion = version;
    const isrChanged = newer && !sameMembers(current.state.isr, stored.isr);
    const replicasChanged =
      !sameMembers(current.state.replicas, replicas) || !sameMembers(current.state.notExpandable, removing);
    if (!isrChanged && !replicasChanged) return NO_EFFECTS;
    const isr = isrChanged ? stored : { isr: current.state.isr, isrBrokerEpochs: current.state.isrBrokerEpochs };
    current.state = this.newLeaderState(isr, replicas, removing, current.state.highWatermark, current.state);
    return effects({ highWatermark: current.state.highWatermark });
  }

  private newLeaderState(
    members: { isr: readonly number[]; isrBrokerEpochs?: Readonly<Record<string, number>> },
    replicas: number[],
    removing: number[],
    highWatermark: number,
    previous: LeaderReplicaState | null,
  ): LeaderReplicaState {
    return new LeaderReplicaState({
      leaderId: this.settings.incarnation.brokerId,
      replicas,
      isr: members.isr,
      isrBrokerEpochs: members.isrBrokerEpochs ?? {},
      epochStartOffset: previous?.epochStartOffset ?? this.log.logEndOffset,
      leaderEndOffset: this.log.logEndOffset,
      highWatermark: Math.min(highWatermark, this.log.logEndOffset),
      nowMs: this.clock.monotonicMs(),
      notExpandable: removing,
    });
  }

  /** Drops the leader state, keeping its HW as this replica's; whether there was one. */
  private giveUpLeadership(): boolean {
    if (this.leadership === null) return false;
    this.followerHighWatermark = this.leadership.state.highWatermark;
    this.leadership = null;
    return true;
  }

  private assertTransition(to: Role, epoch: number): void {
    const check = this.check(to, epoch);
    if (!check.allowed) throw new Error(`${this.key}: refused transition: ${check.reason}`);
  }

  private fetchAnswer(
    leader: LeaderPartition,
    diverging: LeaderFetchAnswer['diverging'],
    batches: readonly Buffer[],
  ): LeaderFetchAnswer {
    return {
      leaderEpoch: leader.epoch,
      highWatermark: leader.state.highWatermark,
      logStartOffset: this.log.logStartOffset,
      diverging,
      batches,
    };
  }
}
