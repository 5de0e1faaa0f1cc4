// The replica manager (Kafka's ReplicaManager): the per-broker loop around the Partitions this broker hosts
// (partition.ts, one per hosted replica). It turns the controller's decisions (partition states in the metadata)
// into role changes of the partitions (partition-roles.ts: the roles, their fetchers, the refusals), dispatches
// produce, follower fetches and reads to the partition, and executes what the partitions return
// (PartitionEffects, effect-executor.ts): ISR changes written compare-and-set (isr-writer.ts) before they count,
// long polls woken as the HW or the leader's log end moves, every waiter woken when a role is given up.
//
// Leader side: produce appends with the partition's leader epoch; acks=0 answers at once, acks=1 after the local
// write, acks=all after the high watermark passes the batch (acks-all-wait.ts, bounded by acksAllTimeoutMs), and is
// refused before appending while the ISR is smaller than min.insync.replicas. Reads (replica-reads.ts) never go
// past the high watermark. A Clock timer proposes shrinking the ISR every replica.lag.time.max.ms / 2, as Kafka's
// isr-expiration task does; another checkpoints the HW of every hosted partition (high-watermark-checkpoint.ts),
// which is where a replica starts from after a restart. Every wait is woken by an event or a Clock timer.
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { PeerClient } from '../cluster/peer-client.js';
import type { WaitSignal } from '../common/client-gone.js';
import { forEachBounded } from '../common/bounded-concurrency.js';
import { errors } from '../common/brook-error.js';
import { type CancelTimer, type Clock, CLOCK, everyMs, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { resolveTopicConfig } from '../config/topic-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { Metrics } from '../metrics/metrics.service.js';
import { LogManager } from '../partition-log/log-manager.service.js';
import type { AppendAsLeaderOptions, AppendInfo, PartitionLog } from '../partition-log/partition-log.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import { MetadataCache, type MetadataTelling } from '../topic/metadata-cache.service.js';
import { EffectExecutor } from './effect-executor.js';
import { FollowerFetchers } from './follower-fetchers.js';
import { HighWatermarks } from './high-watermarks.js';
import type { Incarnation } from './leadership-admission.js';
import { checkEpoch, type LeaderPartition, partitionKey, splitKey, translate } from './leader-partition.js';
import { Partition } from './partition.js';
import { PartitionRoles } from './partition-roles.js';
import { AppliedRoles } from './applied-roles.js';
import { OffsetWaiters, PartitionWaiters, WaiterBudget } from './partition-waiters.js';
import type { LeaderFetchAnswer, ReplicaFetchRequest } from './replica-fetch-protocol.js';
import { ReplicaReads } from './replica-reads.js';
import { refuseKeyInFlight } from './key-in-flight.js';
import { DynamicBrokerConfigs } from '../topic/dynamic-broker-configs.service.js';

export type Acks = '0' | '1' | 'all';
export type { PartitionRead } from './replica-reads.js';
export { HIGH_WATERMARK_LEARNING_WAIT_MS_MAX } from './replica-reads.js';

export interface ProduceOptions {
  /** A forwarded request's leader epoch: a partition led in another epoch refuses it before appending. */
  expectedLeaderEpoch?: number;
  /** A client's own batch (the Kafka listener's): its CRC and records are checked by the log. */
  clientBatch?: boolean;
  /** An idempotent batch may skip sequences forward (records spread over partitions by key). */
  sequenceGaps?: boolean;
  /** Brook's own batch may carry an idempotency key's producer id (application/idempotence/idempotency-key.ts). */
  keyProducers?: boolean;
}

/** Bound on acks=all produce requests parked until the ISR has the records; beyond it produce answers 429. */
export const ACKS_WAITING_MAX = 10_000;
/**
 * Partitions whose role changes at once when the metadata changes (the log I/O of each overlaps the others'). A new
 * leadership writes its log's epoch checkpoint (an atomic replace: eight thread-pool steps, two fsyncs), so a
 * restart of a broker leading thousands of partitions is bound by that latency: 64 at a time took 1.2-1.3 ms a
 * new leader against 2.0-2.5 ms with 16 (2,000 partitions, a machine at load 13-17).
 */
const ROLE_CHANGES_CONCURRENT_MAX = 64;

@Injectable()
export class ReplicaManager extends ReplicaReads implements OnModuleDestroy {
  private readonly logger = new Logger(ReplicaManager.name);
  /** Followers' long polls, woken when the leader's LEO moves. */
  private readonly followerFetches: PartitionWaiters;
  /** The acks=all requests parked in every partition's waiters. */
  private readonly acksBudget = new WaiterBudget(ACKS_WAITING_MAX);
  /** Woken whenever an HW moves or a role is given up: a controlled shutdown's drain waits on it. */
  private readonly progress: OffsetWaiters;
  private readonly fetchers: FollowerFetchers;
  private readonly effects: EffectExecutor;
  private readonly roles: PartitionRoles;
  private readonly applied = new AppliedRoles();
  private readonly minInsyncByMetadata = new WeakMap<TopicMetadata, number>();
  private readonly highWatermarks: HighWatermarks;
  private readonly timers: CancelTimer[] = [];
  private stopped = false;
  /** Set by a controlled shutdown: no more appends as leader here. */
  private draining = false;
  /** This process's incarnation, known once the broker has registered (start). */
  private incarnation: Incarnation = { brokerId: -1, brokerEpoch: -1 };

  constructor(
    @Inject(BROKER_CONFIG) config: BrokerConfig,
    logs: LogManager,
    metadata: MetadataCache,
    store: CoordinationStore,
    peers: PeerClient,
    metrics: Metrics,
    private readonly brokerConfigs: DynamicBrokerConfigs,
    @Optional() @Inject(CLOCK) clock: Clock = systemClock,
  ) {
    super(config, logs, metadata, clock);
    this.followerFetches = new PartitionWaiters(clock);
    this.progress = new OffsetWaiters(clock, new WaiterBudget());
    this.fetchers = new FollowerFetchers(config, peers, clock, this.logger);
    this.effects = new EffectExecutor({
      store,
      readers: this.readers,
      followerFetches: this.followerFetches,
      progress: this.progress,
      logger: this.logger,
      onIsrChanged: (kind) => (kind === 'shrink' ? metrics.isrShrinks : metrics.isrExpands).inc(),
      reloadMetadata: () => void metadata.reload({ retell: true }),
    });
    this.roles = new PartitionRoles({
      brokerId: config.brokerId,
      fetchers: this.fetchers,
      effects: this.effects,
      logger: this.logger,
      incarnation: () => this.incarnation,
      reloadMetadata: () => void metadata.reload({ retell: true }),
    });
    this.highWatermarks = new HighWatermarks(config.dataDir, this.logger, (visit) =>
      this.visitCheckpointEntries(visit),
    );
    logs.setHighWatermarkSource((topic, partition) => this.highWatermarkOf(topic, partition));
    metrics.gaugeOf(
      'brook_replication_under_replicated_partitions',
      'Partitions led by this broker whose ISR is smaller than their replica set.',
      () => this.underReplicatedCount(),
    );
  }

  /**
   * Loads the high-watermark checkpoint, follows the metadata from now on (after the log manager, which opens the
   * logs) and starts the ISR checks and the checkpoint writes; `brokerEpoch` is this process's incarnation, which
   * its follower fetches carry and its leaderships must name.
   */
  async start(brokerEpoch: number): Promise<void> {
    this.incarnation = { brokerId: this.config.brokerId, brokerEpoch };
    for (const [key, highWatermark] of await this.highWatermarks.load()) this.seeds.set(key, highWatermark);
    this.metadata.onChange((topics, telling) => this.applyMetadata(topics, telling));
    const shrinkIntervalMs = Math.max(1, Math.floor(this.config.replicaLagTimeMaxMs / 2));
    this.timers.push(
      everyMs(this.clock, shrinkIntervalMs, () => this.proposeShrinks()),
      everyMs(this.clock, this.config.replicaHighWatermarkCheckpointIntervalMs, () => {
        void this.highWatermarks.checkpoint();
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    // acks=all requests still parked (leadership just moved by a controlled shutdown) need the fetchers to finish
    const deadline = this.clock.monotonicMs() + this.config.acksAllTimeoutMs;
    while (this.acksBudget.parked > 0 && this.clock.monotonicMs() < deadline) {
      await this.acksBudget.untilEmpty(this.clock, deadline - this.clock.monotonicMs());
    }
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    await this.fetchers.stopAll();
    for (const partition of this.partitions.values()) {
      if (partition.role === 'leader') this.effects.step(partition, () => partition.makeNone());
    }
    await this.highWatermarks.final();
  }

  // ---- roles ----

  /**
   * Moves every hosted partition to the role the metadata gives it; false when a role change failed (retried).
   * Unless retold, a partition whose inputs and role are as its last successful change left them is skipped
   * (applied-roles.ts).
   */
  async applyMetadata(
    topics: ReadonlyMap<string, TopicMetadata>,
    telling: MetadataTelling = { retell: true },
  ): Promise<boolean> {
    if (this.stopped) return true;
    let failed = false;
    const hosted = new Set<string>();
    const assigned = new Set<string>();
    const changes: Array<() => Promise<void>> = [];
    for (const topic of topics.values()) {
      for (let index = 0; index < topic.assignment.replicas.length; index++) {
        const replicas = topic.assignment.replicas[index];
        if (!replicas.includes(this.config.brokerId)) continue;
        const name = topic.assignment.name;
        const key = partitionKey(name, index);
        assigned.add(key);
        const log = this.logs.log(name, index);
        const state = topic.states[index];
        if (log === undefined || state === undefined || log.isClosed) continue;
        hosted.add(key);
        const version = topic.stateVersions[index] ?? 0;
        const input = { version, replicas, log, brokerEpoch: this.incarnation.brokerEpoch, state };
        const existing = this.partitions.get(key);
        if (
          !telling.retell &&
          existing?.log === log &&
          this.applied.unchanged(key, input) &&
          this.roles.holds(existing, state)
        ) {
          continue;
        }
        this.applied.forget(key);
        changes.push(async () => {
          try {
            const partition = await this.hostedPartition(key, name, index, log);
            await this.roles.apply(partition, state, replicas, version);
            this.applied.record(key, input);
          } catch (error) {
            failed = true;
            this.logger.error(`${key}: role change failed: ${(error as Error).message}`);
          }
        });
      }
    }
    // Partitions are independent (each its own Partition, fetcher and log); a new leadership writes its log's epoch
    // checkpoint, so many of them at once (a restart, a new topic) overlap those writes.
    await forEachBounded(changes, ROLE_CHANGES_CONCURRENT_MAX, (change) => change());
    for (const [key, partition] of [...this.partitions]) {
      if (hosted.has(key)) continue;
      this.applied.forget(key);
      await this.roles.release(partition, true);
      this.partitions.delete(key);
      // a deleted (or moved away) partition's HW must not seed a partition of the same name created later
      const highWatermark = partition.highWatermark;
      if (assigned.has(key) && highWatermark !== undefined) this.seeds.set(key, highWatermark);
    }
    for (const key of [...this.seeds.keys()]) if (!assigned.has(key)) this.seeds.delete(key);
    return !failed;
  }

  /** The Partition of `log`; one for a replaced log (a topic re-created) replaces the old one, released. */
  private async hostedPartition(key: string, topic: string, index: number, log: PartitionLog): Promise<Partition> {
    const current = this.partitions.get(key);
    if (current?.log === log) return current;
    if (current !== undefined) await this.roles.release(current, true);
    const seed = current === undefined ? this.seeds.get(key) : undefined;
    this.seeds.delete(key);
    const partition = new Partition(
      topic,
      index,
      log,
      { incarnation: this.incarnation, acksAllTimeoutMs: this.config.acksAllTimeoutMs },
      this.clock,
      this.acksBudget,
      {
        hostedLog: (name, at) => this.logs.log(name, at),
        highWatermarkOf: (name, at) => this.highWatermarkOf(name, at),
      },
      seed,
    );
    this.partitions.set(key, partition);
    return partition;
  }

  // ---- periodic work ----

  private proposeShrinks(): void {
    for (const partition of this.partitions.values()) {
      this.effects.execute(partition, partition.proposeShrink(this.config.replicaLagTimeMaxMs));
    }
  }

  /**
   * Visits every checkpointed partition's HW: the hosted ones, then the seeds of partitions not hosted (yet), each
   * with a log here. Map.forEach and the key as it is: an idle broker with 10,000 partitions checks this every
   * interval, and building a key set, split keys and an entry list for it was ~1.2 MB of garbage each time.
   */
  private visitCheckpointEntries(visit: (key: string, highWatermark: number) => void): void {
    this.partitions.forEach((partition, key) => {
      const highWatermark = partition.highWatermark;
      // a partition key is its log's folder name (`<topic>-<partition>`)
      if (highWatermark !== undefined && this.logs.logNamed(key) !== undefined) visit(key, highWatermark);
    });
    this.seeds.forEach((_, key) => {
      if (this.partitions.has(key)) return;
      const [topic, partition] = splitKey(key);
      const highWatermark = this.highWatermarkOf(topic, partition);
      if (highWatermark !== undefined && this.logs.log(topic, partition) !== undefined) visit(key, highWatermark);
    });
  }

  // ---- leader side: produce and acks ----

  /**
   * Appends one encoded batch and answers per `acks`: a batch Brook built is not re-checked; a client's
   * (`clientBatch`, the Kafka listener's) has its CRC and records checked by the log. With `expectedLeaderEpoch`
   * (a forwarded request) a different leader epoch is refused before appending. A batch with a producer id, Brook's
   * or a client's, is checked against the partition's producer state (a duplicate answers the original's offsets
   * with `duplicate: true`; `sequenceGaps` as in partition-log/producer-state.ts). Synchronous until the append is
   * queued: appends called in some order get their offsets in that order. Not an async function: with acks=1 the
   * answer is one promise reaction after the write's (the Kafka listener's Produce path runs this per request),
   * and whatever throws before the append is queued still rejects the promise rather than throwing.
   */
  produce(
    topic: string,
    partition: number,
    batch: Buffer,
    acks: Acks,
    options: ProduceOptions = {},
  ): Promise<AppendInfo | null> {
    let replica: Partition;
    let leader: LeaderPartition;
    let minInsync: number;
    let appended: Promise<AppendInfo>;
    try {
      ({ partition: replica, leader } = this.leaderOf(topic, partition));
      checkEpoch(leader, options.expectedLeaderEpoch);
      if (this.draining) return this.parkUntilLeadershipMoves(replica, leader);
      minInsync = this.minInsyncReplicas(topic);
      if (acks === 'all') replica.admitAcksAll(leader, minInsync, ACKS_WAITING_MAX);
      appended = replica.append(
        leader,
        batch,
        appendOptions(
          options.clientBatch === true,
          options.sequenceGaps === true,
          options.keyProducers === true && options.clientBatch !== true,
        ),
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const done = appended.then(
      (info) => {
        this.lastAppends.remember(leader, info, batch);
        this.effects.execute(replica, replica.leaderAppended(leader));
        this.lastAppends.appended(leader);
        if (acks !== '0') refuseKeyInFlight(leader, batch, info);
        return info;
      },
      (error: unknown) => {
        throw translate(error);
      },
    );
    if (acks === '0') {
      done.catch(() => undefined);
      return Promise.resolve(null);
    }
    if (acks === 'all')
      return done.then(async (info) => {
        await replica.untilCommitted(leader, info.lastOffset + 1, minInsync);
        return info;
      });
    return done;
  }

  /**
   * Controlled shutdown, first step: stop appending as leader, and wait (at most acksAllTimeoutMs) until every
   * partition led here has its HW at its LEO, so the replica the controller picks next holds every appended record.
   * Then stop answering reads as leader: the next leader may serve a higher HW before this broker has applied the
   * move, and a reader must not see this one's older HW after it (40404 meanwhile: the client asks again).
   */
  async drainLeadership(): Promise<void> {
    this.draining = true;
    const deadline = this.clock.monotonicMs() + this.config.acksAllTimeoutMs;
    const behind = () =>
      [...this.partitions.values()].filter(
        ({ leader }) => leader !== null && leader.state.highWatermark < leader.log.logEndOffset,
      );
    while (behind().length > 0 && this.clock.monotonicMs() < deadline) {
      await this.progress.wait(0, deadline - this.clock.monotonicMs());
    }
    const left = behind().map((partition) => partition.key);
    if (left.length > 0) this.logger.warn(`controlled shutdown: followers still behind on ${left.join(', ')}`);
    this.handingOver = true;
  }

  /** A produce while draining: nothing is appended; once leadership moved the router sends it to the new leader. */
  private async parkUntilLeadershipMoves(partition: Partition, leader: LeaderPartition): Promise<never> {
    await partition.untilReleased(leader, ACKS_WAITING_MAX, this.config.acksAllTimeoutMs);
    throw errors.leaderNotAvailable(
      `Broker ${this.config.brokerId} is shutting down and hands ${leader.key} over; retry.`,
    );
  }

  private minInsyncReplicas(topic: string): number {
    const metadata = this.metadata.topic(topic)!;
    let value = this.minInsyncByMetadata.get(metadata);
    if (value === undefined) {
      value = resolveTopicConfig(metadata.configs, this.brokerConfigs.settings().topicConfigDefaults).minInsyncReplicas;
      this.minInsyncByMetadata.set(metadata, value);
    }
    return value;
  }

  // ---- leader side: followers ----

  /** A follower's fetch (replica-fetch-protocol.ts); long-polls up to `waitMs` when it is at the log end. */
  async replicaFetch(
    topic: string,
    partition: number,
    request: ReplicaFetchRequest,
    signal?: WaitSignal,
  ): Promise<LeaderFetchAnswer> {
    const { partition: replica, leader } = this.leaderOf(topic, partition);
    const step = replica.followerFetch(leader, request);
    if (step.kind === 'answer') return step.answer;
    this.effects.execute(replica, step.effects);
    // what the ISR holds (below the HW) no follower in it fetches again
    this.lastAppends.forgetFetched(leader, leader.state.highWatermark);
    if (request.fetchOffset >= leader.log.logEndOffset) {
      const waitMs = Math.min(request.waitMs, this.config.readWaitMsMax);
      await this.followerFetches.wait(leader.key, request.fetchOffset, waitMs, signal);
      if (replica.leader !== leader || this.partitions.get(leader.key) !== replica) this.leaderOf(topic, partition);
    }
    const kept = this.lastAppends.readForFollower(leader, request.fetchOffset, request.maxBytes);
    if (kept !== null) return replica.followerAnswer(leader, kept);
    return replica.readForFollower(leader, request.fetchOffset, request.maxBytes);
  }
}

/**
 * The log's options for an append, by (clientBatch, sequenceGaps, keyProducers): one shared object each (the log
 * only reads them), not two new ones on every produce. A batch Brook built is not re-checked; a client's has its
 * records checked.
 */
const APPEND_OPTIONS: readonly AppendAsLeaderOptions[] = [false, true].flatMap((clientBatch) =>
  [false, true].flatMap((sequenceGaps) =>
    [false, true].map((keyProducers) =>
      // one shape for all eight (the K1 profile saw V8 build maps for a spread of a conditional literal here)
      Object.freeze({ verifyCrc: clientBatch, validateRecords: clientBatch, sequenceGaps, keyProducers }),
    ),
  ),
);

function appendOptions(clientBatch: boolean, sequenceGaps: boolean, keyProducers: boolean): AppendAsLeaderOptions {
  return APPEND_OPTIONS[(clientBatch ? 4 : 0) + (sequenceGaps ? 2 : 0) + (keyProducers ? 1 : 0)];
}
