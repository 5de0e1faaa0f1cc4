// The read side of the replica manager (replica-manager.service.ts extends it): the Partitions this broker hosts
// by key, the lookups of a leadership (leaderOf, leaderLog), the views of them (localReplica, the count of
// under-replicated partitions), and the reads they answer as leader (stateless, v2 consumers, the group coordinator, forwarded reads,
// the Kafka listener). Reads never go past the high watermark, and a leader that took over answers them only once
// it has learnt its HW (leader-replica-state.ts, highWatermarkKnown), so the HW readers see never goes backwards.
// Long polls park in PartitionWaiters on the Clock and are woken as the replica manager executes HW effects.
import { errors } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { LogManager } from '../partition-log/log-manager.service.js';
import type { PartitionLog, ReadResult } from '../partition-log/partition-log.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import { type LeaderPartition, learningHighWatermark, partitionKey } from './leader-partition.js';
import type { Partition } from './partition.js';
import { LastAppends } from './last-appends.js';
import { PartitionWaiters } from './partition-waiters.js';

export interface PartitionRead extends ReadResult {
  highWatermark: number;
  logStartOffset: number;
}

/**
 * How long a read waits at a leader that took over and has not yet learnt its high watermark (its followers fetch
 * within a round trip; a dead ISR member leaves the ISR within replica.lag.time.max.ms) before answering 50003.
 */
export const HIGH_WATERMARK_LEARNING_WAIT_MS_MAX = 5_000;

/** A partition this broker leads: its Partition and the leadership (the LeaderPartition it holds now). */
export interface Led {
  partition: Partition;
  leader: LeaderPartition;
}

export abstract class ReplicaReads {
  /** The replicas hosted here, by partition key: one Partition per open log. */
  protected readonly partitions = new Map<string, Partition>();
  /** High watermarks for partitions without a Partition yet (the checkpoint's, at start) or any more. */
  protected readonly seeds = new Map<string, number>();
  /** Consumers' long polls, woken when the HW moves. */
  protected readonly readers: PartitionWaiters;
  /** The batches each leadership here appended last, for its followers and the readers it wakes (last-appends.ts). */
  protected readonly lastAppends = new LastAppends();
  /** Set once a controlled shutdown has drained: no more reads answered as leader here. */
  protected handingOver = false;

  constructor(
    protected readonly config: BrokerConfig,
    protected readonly logs: LogManager,
    protected readonly metadata: MetadataCache,
    protected readonly clock: Clock,
  ) {
    this.readers = new PartitionWaiters(clock);
  }

  /** Kafka's UnderReplicatedPartitions: partitions led here with fewer in-sync replicas than replicas. */
  underReplicatedCount(): number {
    let count = 0;
    for (const { leader } of this.partitions.values()) {
      if (leader !== null && leader.state.isr.length < leader.state.replicas.length) count++;
    }
    return count;
  }

  /** Checks that the topic and partition exist and that this broker leads the partition; returns its log. */
  leaderLog(topic: string, partition: number): { log: PartitionLog; leaderEpoch: number } {
    const { leader } = this.leaderOf(topic, partition);
    return { log: leader.log, leaderEpoch: leader.epoch };
  }

  /** The high watermark of a partition hosted here: the leader's, or what a follower learnt from its leader. */
  highWatermarkOf(topic: string, partition: number): number | undefined {
    const key = partitionKey(topic, partition);
    const hosted = this.partitions.get(key);
    if (hosted !== undefined) return hosted.highWatermark;
    const highWatermark = this.seeds.get(key);
    if (highWatermark === undefined) return undefined;
    // a restarted replica's checkpointed HW never runs past what it holds
    const log = this.logs.log(topic, partition);
    return log === undefined ? highWatermark : Math.min(highWatermark, log.logEndOffset);
  }

  /**
   * Reads whole batches below the high watermark; waits up to `waitMs` when nothing is there yet. The first batch
   * comes even when it is larger than `maxBytes`, unless `minOneBatch` is false (a Kafka fetch's later partitions).
   * A leader that has not yet learnt its high watermark (it just took over) holds the read back until it has
   * (servingLeaderOf).
   */
  async read(
    topic: string,
    partition: number,
    offset: number,
    options: { maxBytes: number; waitMs: number; signal?: AbortSignal; minOneBatch?: boolean },
  ): Promise<PartitionRead> {
    const led = await this.servingLeaderOf(topic, partition, options.signal);
    const minOneBatch = options.minOneBatch ?? true;
    const first = await this.readLed(led, offset, options.maxBytes, minOneBatch);
    if (first.batches.length > 0 || options.waitMs <= 0 || offset < first.highWatermark) return first;
    const waitMs = Math.min(options.waitMs, this.config.readWaitMsMax);
    await this.readers.wait(led.leader.key, offset, waitMs, options.signal);
    const now = await this.servingLeaderOf(topic, partition, options.signal);
    return this.readLed(now, offset, options.maxBytes, minOneBatch);
  }

  /**
   * A read answered now, synchronously, from the batches appended last (last-appends.ts), or null: when this broker
   * does not serve reads of the partition now (another leader, handing over, its HW not yet learnt) or the batches
   * at `offset` are not in memory. What it answers is what `read` would (no wait). A caught-up stream woken by an
   * append reads here in the reaction to its wake-up, before the produce's own answer is built.
   */
  readRecent(topic: string, partition: number, offset: number, maxBytes: number): PartitionRead | null {
    if (this.handingOver) return null;
    let led: Led;
    try {
      led = this.leaderOf(topic, partition);
    } catch {
      return null; // `read` reports it
    }
    if (!led.leader.state.highWatermarkKnown) return null;
    return this.lastAppends.read(led.leader, offset, maxBytes, true);
  }

  /** A read below the HW of a partition led here: the batch just appended from memory, else from the log. */
  private readLed(led: Led, offset: number, maxBytes: number, minOneBatch: boolean): Promise<PartitionRead> {
    const recent = this.lastAppends.read(led.leader, offset, maxBytes, minOneBatch);
    if (recent !== null) return Promise.resolve(recent);
    return led.partition.readBelowHighWatermark(led.leader, offset, maxBytes, minOneBatch);
  }

  /**
   * Resolves when the partition has data at or past `offset`, after `waitMs`, or on abort: waitForAny of one
   * partition, parked directly among its waiters (a caught-up stream waits here after every delivery).
   */
  waitForRecords(
    topic: string,
    partition: number,
    offset: number,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const highWatermark = this.highWatermarkOf(topic, partition);
    if (waitMs <= 0 || (highWatermark !== undefined && highWatermark > offset)) return Promise.resolve();
    const boundedMs = Math.min(waitMs, this.config.readWaitMsMax);
    return this.readers.wait(partitionKey(topic, partition), offset, boundedMs, signal);
  }

  /** Resolves when any of the partitions has data at or past its offset, after `waitMs`, or on abort. */
  async waitForAny(
    positions: ReadonlyArray<{ topic: string; partition: number; offset: number }>,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    if (positions.length === 0 || waitMs <= 0) return;
    for (const { topic, partition, offset } of positions) {
      const highWatermark = this.highWatermarkOf(topic, partition);
      if (highWatermark !== undefined && highWatermark > offset) return; // arrived since the caller last read
    }
    const done = new AbortController();
    const onAbort = () => done.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const boundedMs = Math.min(waitMs, this.config.readWaitMsMax);
    try {
      await Promise.race(
        positions.map(({ topic, partition, offset }) =>
          this.readers.wait(partitionKey(topic, partition), offset, boundedMs, done.signal),
        ),
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
      done.abort();
    }
  }

  /**
   * Whether a partition this broker leads has its high watermark at its log end: everything the leader holds is
   * committed (a new leader's HW catches up as its followers fetch).
   */
  highWatermarkAtLogEnd(topic: string, partition: number): boolean {
    const { leader } = this.leaderOf(topic, partition);
    return leader.state.highWatermark >= leader.log.logEndOffset;
  }

  /** Earliest and latest (the high watermark) offsets; held back like a read while the HW is being learnt. */
  async offsets(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const { leader } = await this.servingLeaderOf(topic, partition);
    return { earliest: leader.log.logStartOffset, latest: leader.state.highWatermark };
  }

  /** The same without waiting: throws the retriable error of servingLeaderOf while the HW is being learnt. */
  offsetsNow(topic: string, partition: number): { earliest: number; latest: number } {
    const { leader } = this.leaderOf(topic, partition);
    if (!leader.state.highWatermarkKnown) throw learningHighWatermark(leader);
    return { earliest: leader.log.logStartOffset, latest: leader.state.highWatermark };
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number> {
    const { leader } = await this.servingLeaderOf(topic, partition);
    const found = await leader.log.offsetForTimestamp(timestampMs);
    const highWatermark = leader.state.highWatermark;
    return Math.min(found ?? highWatermark, highWatermark);
  }

  /** This broker's replica of a partition as it is (any role), for operators and tests. */
  localReplica(topic: string, partition: number) {
    const log = this.logs.log(topic, partition);
    if (log === undefined)
      throw errors.unknownTopicOrPartition(`Broker ${this.config.brokerId} hosts no ${topic}-${partition}.`);
    const hosted = this.partitions.get(partitionKey(topic, partition));
    const leader = hosted?.leader ?? null;
    const followed = hosted?.followedLeader ?? null;
    return {
      log,
      view: {
        broker_id: this.config.brokerId,
        role: hosted?.log === log ? hosted.role : 'none',
        leader_epoch: leader?.epoch ?? followed?.leaderEpoch ?? -1,
        isr: leader === null ? null : [...leader.state.isr],
        isr_broker_epochs: leader === null ? null : { ...leader.state.isrBrokerEpochs },
        log_start_offset: log.logStartOffset,
        log_end_offset: log.logEndOffset,
        high_watermark: this.highWatermarkOf(topic, partition) ?? -1,
        epochs: log.epochs.all(),
      },
    };
  }

  /**
   * The partition's leader state, once it may answer reads: the HW readers see never goes backwards, so a leader
   * that took over serves none until its HW has reached the start of its epoch (leader-replica-state.ts). Waits
   * for that up to HIGH_WATERMARK_LEARNING_WAIT_MS_MAX, then answers 50003 (retriable).
   */
  protected async servingLeaderOf(topic: string, partition: number, signal?: AbortSignal): Promise<Led> {
    const deadline = this.clock.monotonicMs() + HIGH_WATERMARK_LEARNING_WAIT_MS_MAX;
    for (;;) {
      const led = this.leaderOf(topic, partition);
      const { leader } = led;
      if (this.handingOver) {
        throw errors.leaderNotAvailable(`Broker ${this.config.brokerId} is handing ${leader.key} over; retry.`);
      }
      if (leader.state.highWatermarkKnown) return led;
      const remainingMs = deadline - this.clock.monotonicMs();
      if (remainingMs <= 0 || signal?.aborted === true) throw learningHighWatermark(leader);
      await this.readers.wait(leader.key, leader.state.highWatermark, remainingMs, signal);
    }
  }

  /**
   * The partition's leadership here; 404s for an unknown topic or partition, 40404 when another broker leads,
   * or when this process may have slept through a leadership change (metadata-cache.service.ts, mayBeStale).
   */
  protected leaderOf(topic: string, partition: number): Led {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    const state = metadata.states[partition];
    if (!Number.isInteger(partition) || partition < 0 || state === undefined) throw errors.partitionNotFound(partition);
    const hosted = this.partitions.get(partitionKey(topic, partition));
    const leader = hosted?.leader ?? null;
    if (leader !== null && this.metadata.mayBeStale()) {
      throw errors.leaderNotAvailable(
        `Broker ${this.config.brokerId} was paused for longer than its session and is reloading the metadata; retry.`,
      );
    }
    if (hosted !== undefined && leader !== null) return { partition: hosted, leader };
    if (state.leader === this.config.brokerId) {
      throw errors.leaderNotAvailable(`${topic}-${partition} is becoming led by this broker; retry.`);
    }
    throw errors.leaderNotAvailable(
      `Broker ${this.config.brokerId} does not lead ${topic}-${partition}` +
        (state.leader === NO_LEADER ? '; it has no leader now.' : `; broker ${state.leader} does.`),
    );
  }
}
