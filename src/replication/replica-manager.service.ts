// The replica manager (Kafka's ReplicaManager and Partition): every partition this broker hosts is, by the
// metadata, in one of these roles, changed only in applyMetadata:
//
//   role       entered when the partition state says              on entry
//   none       the log is not open, or the partition has no leader, stop any fetcher, drop any leader state
//              or it names this broker but leadership-admission.ts
//              refuses (an earlier incarnation, an old epoch)
//   follower   another broker leads, epoch E                      drop leader state (parked acks=all requests wait
//                                                                 on as a replica), start a fetcher for (leader, E)
//                                                                 unless one runs
//   leader     this broker, as the incarnation it runs, leads in  stop the fetcher (its last write done), assign E at
//              epoch E                                            the log end, build the ISR/HW state machine
//                                                                 (leader-replica-state.ts) from the stored ISR
// A leader that sees its own epoch again with a newer stored ISR (the controller dropped a dead follower), or with
// other replicas (a reassignment added or removed some), rebuilds its state with them, keeping its high watermark.
//
// Leader side: produce appends with the partition's leader epoch; acks=0 answers at once, acks=1 after the local
// write, acks=all after the high watermark passes the batch (acks-all-wait.ts, bounded by acksAllTimeoutMs), and is
// refused before appending while the ISR is smaller than min.insync.replicas. Reads (stateless, v2 consumers, the
// group coordinator, forwarded reads) never go past the high watermark, and a leader that took over answers them
// only once it has learnt its HW, so the HW readers see never goes backwards. Followers' fetches
// (replica-fetch-protocol.ts, with their broker epochs) move the HW; ISR changes are written compare-and-set
// (isr-writer.ts) before they count. A timer proposes
// shrinking the ISR every replica.lag.time.max.ms / 2, as Kafka's isr-expiration task does. The HW of every hosted
// partition is checkpointed (high-watermark-checkpoint.ts) and is where a replica starts from after a restart.
import { DynamicBrokerConfigs } from '../topic/dynamic-broker-configs.service.js';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PEER_REQUEST_TIMEOUT_MS, PeerClient } from '../cluster/peer-client.js';
import { errors } from '../common/brook-error.js';
import { type Clock, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { Metrics } from '../metrics/metrics.service.js';
import { LogManager } from '../partition-log/log-manager.service.js';
import type { AppendInfo, ReadResult } from '../partition-log/partition-log.js';
import { PartitionLog } from '../partition-log/partition-log.js';
import { NO_LEADER, type PartitionState, type TopicMetadata } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { resolveTopicConfig } from '../config/topic-config.js';
import { AcksAllWait } from './acks-all-wait.js';
import { divergingEpoch } from './fetch-divergence.js';
import { assertMayLead, type Incarnation, leadershipAdmission } from './leadership-admission.js';
import {
  type HighWatermarkEntry,
  readHighWatermarkCheckpoint,
  writeHighWatermarkCheckpoint,
} from './high-watermark-checkpoint.js';
import { sameMembers, writeIsr } from './isr-writer.js';
import {
  checkEpoch,
  type LeaderPartition,
  learningHighWatermark,
  partitionKey,
  splitKey,
  translate,
} from './leader-partition.js';
import { refuseKeyInFlight } from './key-in-flight.js';
import { type IsrChange, LeaderReplicaState } from './leader-replica-state.js';
import { PartitionWaiters } from './partition-waiters.js';
import {
  parseAnswer,
  type ReplicaFetchAnswer,
  type ReplicaFetchRequest,
  replicaFetchQuery,
} from './replica-fetch-protocol.js';
import { ReplicaFetcher } from './replica-fetcher.js';

export type Acks = '0' | '1' | 'all';

export interface PartitionRead extends ReadResult {
  highWatermark: number;
  logStartOffset: number;
}

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
 * How long a read waits at a leader that took over and has not yet learnt its high watermark (its followers fetch
 * within a round trip; a dead ISR member leaves the ISR within replica.lag.time.max.ms) before answering 50003.
 */
export const HIGH_WATERMARK_LEARNING_WAIT_MS_MAX = 5_000;

/** How often a stopping broker checks whether parked acks=all requests are done. */
const SHUTDOWN_POLL_MS = 20;

@Injectable()
export class ReplicaManager implements OnModuleDestroy {
  private readonly logger = new Logger(ReplicaManager.name);
  /** Consumers' long polls, woken when the HW moves. */
  private readonly readers = new PartitionWaiters();
  /** Followers' long polls, woken when the leader's LEO moves. */
  private readonly followerFetches = new PartitionWaiters();
  /** acks=all produce requests, woken when the HW moves. */
  private readonly acks = new PartitionWaiters();
  private readonly leaders = new Map<string, LeaderPartition>();
  private readonly fetchers = new Map<string, ReplicaFetcher>();
  private readonly followerHighWatermarks = new Map<string, number>();
  private readonly minInsyncByMetadata = new WeakMap<TopicMetadata, number>();
  private isrTimer: NodeJS.Timeout | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;
  private checkpointInFlight: Promise<void> | null = null;
  private stopped = false;
  /** Set by a controlled shutdown: no more appends as leader here. */
  private draining = false;
  /** Set once a controlled shutdown has drained: no more reads answered as leader here either. */
  private handingOver = false;
  private readonly clock: Clock = systemClock;
  private readonly acksAll: AcksAllWait;
  /** This process's incarnation, known once the broker has registered (start). */
  private incarnation: Incarnation = { brokerId: -1, brokerEpoch: -1 };
  /** Leaderships refused by leadership-admission.ts, as `<partition>@<leader epoch>`: each is logged once. */
  private readonly refusedLeaderships = new Set<string>();

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly logs: LogManager,
    private readonly metadata: MetadataCache,
    private readonly store: CoordinationStore,
    private readonly peers: PeerClient,
    private readonly metrics: Metrics,
    private readonly brokerConfigs: DynamicBrokerConfigs,
  ) {
    logs.setHighWatermarkSource((topic, partition) => this.highWatermarkOf(topic, partition));
    this.acksAll = new AcksAllWait(
      {
        stillLeading: (leader) => this.leaders.get(leader.key) === leader,
        hostedLog: (topic, partition) => this.logs.log(topic, partition),
        highWatermarkOf: (topic, partition) => this.highWatermarkOf(topic, partition),
        waitForHighWatermark: (key, offset, waitMs) => this.acks.wait(key, offset, waitMs),
      },
      this.clock,
      config.brokerId,
      config.acksAllTimeoutMs,
    );
    metrics.gaugeOf(
      'brook_replication_under_replicated_partitions',
      'Partitions led by this broker whose ISR is smaller than their replica set.',
      () => this.underReplicatedCount(),
    );
  }

  /** Kafka's UnderReplicatedPartitions: partitions led here with fewer in-sync replicas than replicas. */
  underReplicatedCount(): number {
    let count = 0;
    for (const leader of this.leaders.values()) if (leader.state.isr.length < leader.state.replicas.length) count++;
    return count;
  }

  /**
   * Loads the high-watermark checkpoint, follows the metadata from now on (after the log manager, which opens the
   * logs) and starts the ISR checks and the checkpoint writes; `brokerEpoch` is this process's incarnation, which
   * its follower fetches carry and its leaderships must name.
   */
  async start(brokerEpoch: number): Promise<void> {
    this.incarnation = { brokerId: this.config.brokerId, brokerEpoch };
    await this.loadHighWatermarks();
    this.metadata.onChange((topics) => this.applyMetadata(topics));
    const intervalMs = Math.max(1, Math.floor(this.config.replicaLagTimeMaxMs / 2));
    this.isrTimer = setInterval(() => this.proposeShrinks(), intervalMs);
    this.isrTimer.unref();
    this.checkpointTimer = setInterval(
      () => void this.checkpointHighWatermarks(),
      this.config.replicaHighWatermarkCheckpointIntervalMs,
    );
    this.checkpointTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    // acks=all requests still parked (leadership just moved by a controlled shutdown) need the fetchers to finish
    const deadline = this.clock.monotonicMs() + this.config.acksAllTimeoutMs;
    while (this.acks.parked > 0 && this.clock.monotonicMs() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_POLL_MS));
    }
    this.stopped = true;
    if (this.isrTimer) clearInterval(this.isrTimer);
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    await Promise.all([...this.fetchers.keys()].map((key) => this.stopFetcher(key)));
    for (const key of [...this.leaders.keys()]) this.dropLeader(key);
    await this.checkpointInFlight; // a periodic write may hold older values: the final one goes after it
    await this.checkpointHighWatermarks();
  }

  // ---- the high-watermark checkpoint ----

  /** Seeds the HW each hosted partition starts from (as follower, or as leader until the followers fetch). */
  private async loadHighWatermarks(): Promise<void> {
    try {
      for (const entry of await readHighWatermarkCheckpoint(this.config.dataDir)) {
        this.followerHighWatermarks.set(partitionKey(entry.topic, entry.partition), entry.highWatermark);
      }
    } catch (error) {
      this.logger.warn(`ignoring the high-watermark checkpoint: ${(error as Error).message}`);
    }
  }

  /** Writes the HW of every partition this broker hosts; one write at a time (a call meanwhile shares it). */
  private checkpointHighWatermarks(): Promise<void> {
    this.checkpointInFlight ??= this.writeHighWatermarks().finally(() => {
      this.checkpointInFlight = null;
    });
    return this.checkpointInFlight;
  }

  /** One checkpoint write; a failure is only logged (the previous file stays, a floor like any checkpoint). */
  private async writeHighWatermarks(): Promise<void> {
    try {
      const entries: HighWatermarkEntry[] = [];
      const keys = new Set([...this.leaders.keys(), ...this.followerHighWatermarks.keys()]);
      for (const key of keys) {
        const [topic, partition] = splitKey(key);
        const highWatermark = this.highWatermarkOf(topic, partition);
        if (highWatermark !== undefined && this.logs.log(topic, partition) !== undefined) {
          entries.push({ topic, partition, highWatermark });
        }
      }
      await writeHighWatermarkCheckpoint(this.config.dataDir, entries);
    } catch (error) {
      this.logger.warn(`could not write the high-watermark checkpoint: ${(error as Error).message}`);
    }
  }

  // ---- roles ----

  async applyMetadata(topics: ReadonlyMap<string, TopicMetadata>): Promise<void> {
    if (this.stopped) return;
    const hosted = new Set<string>();
    const assigned = new Set<string>();
    for (const topic of topics.values()) {
      for (let partition = 0; partition < topic.assignment.replicas.length; partition++) {
        const replicas = topic.assignment.replicas[partition];
        if (!replicas.includes(this.config.brokerId)) continue;
        const name = topic.assignment.name;
        const key = partitionKey(name, partition);
        assigned.add(key);
        const log = this.logs.log(name, partition);
        const state = topic.states[partition];
        if (log === undefined || state === undefined || log.isClosed) continue;
        hosted.add(key);
        try {
          if (state.leader === this.config.brokerId) {
            const admission = leadershipAdmission(state, this.incarnation, log.latestEpochAtOpen);
            if (!admission.lead) {
              await this.refuseLeadership(key, state, admission.reason);
              continue;
            }
            await this.becomeLeader(key, name, partition, log, state, replicas, topic.stateVersions[partition] ?? 0);
          } else {
            await this.becomeFollower(key, log, state);
          }
        } catch (error) {
          this.logger.error(`${key}: role change failed: ${(error as Error).message}`);
        }
      }
    }
    for (const key of [...this.leaders.keys()]) if (!hosted.has(key)) this.dropLeader(key);
    for (const key of [...this.fetchers.keys()]) {
      if (hosted.has(key)) continue;
      await this.stopFetcher(key);
      this.followerHighWatermarks.delete(key);
      this.acks.notify(key, Number.POSITIVE_INFINITY); // requests parked here learn that this replica is gone
    }
    // a deleted (or moved away) partition's HW must not seed a partition of the same name created later
    for (const key of [...this.followerHighWatermarks.keys()]) {
      if (!assigned.has(key)) this.followerHighWatermarks.delete(key);
    }
  }

  private async becomeLeader(
    key: string,
    topic: string,
    partition: number,
    log: PartitionLog,
    stored: PartitionState,
    replicas: number[],
    version: number,
  ): Promise<void> {
    const current = this.leaders.get(key);
    const removing = stored.removingReplicas ?? [];
    if (current !== undefined && current.epoch === stored.leaderEpoch && current.log === log) {
      if (current.state.pendingChange !== null) return; // its outcome reloads the metadata, and this runs again
      const newer = version > current.stateVersion;
      if (newer) current.stateVersion = version;
      const isrChanged = newer && !sameMembers(current.state.isr, stored.isr);
      const replicasChanged =
        !sameMembers(current.state.replicas, replicas) || !sameMembers(current.state.notExpandable, removing);
      if (isrChanged || replicasChanged) {
        const isr = isrChanged ? stored : { isr: current.state.isr, isrBrokerEpochs: current.state.isrBrokerEpochs };
        current.state = this.newLeaderState(log, isr, replicas, removing, current.state.highWatermark, current.state);
        this.highWatermarkMoved(current);
      }
      return;
    }
    await this.stopFetcher(key);
    this.dropLeader(key);
    assertMayLead(stored, this.incarnation, log.latestEpochAtOpen);
    await log.assignEpochAtEnd(stored.leaderEpoch);
    const highWatermark = Math.min(this.followerHighWatermarks.get(key) ?? log.logStartOffset, log.logEndOffset);
    this.followerHighWatermarks.delete(key);
    const leader: LeaderPartition = {
      key,
      topic,
      partition,
      log,
      epoch: stored.leaderEpoch,
      stateVersion: version,
      state: this.newLeaderState(log, stored, replicas, removing, highWatermark, null),
    };
    this.leaders.set(key, leader);
    this.logger.log(`${key}: leader in epoch ${leader.epoch}, ISR [${stored.isr.join(',')}]`);
    this.highWatermarkMoved(leader);
  }

  private newLeaderState(
    log: PartitionLog,
    members: { isr: readonly number[]; isrBrokerEpochs?: Readonly<Record<string, number>> },
    replicas: number[],
    removing: number[],
    highWatermark: number,
    previous: LeaderReplicaState | null,
  ): LeaderReplicaState {
    return new LeaderReplicaState({
      leaderId: this.config.brokerId,
      replicas,
      isr: members.isr,
      isrBrokerEpochs: members.isrBrokerEpochs ?? {},
      epochStartOffset: previous?.epochStartOffset ?? log.logEndOffset,
      leaderEndOffset: log.logEndOffset,
      highWatermark: Math.min(highWatermark, log.logEndOffset),
      nowMs: this.clock.monotonicMs(),
      notExpandable: removing,
    });
  }

  /** Named leader, but not allowed to lead (leadership-admission.ts): serve it as nothing until the controller acts. */
  private async refuseLeadership(key: string, stored: PartitionState, reason: string): Promise<void> {
    await this.stopFetcher(key);
    this.dropLeader(key);
    const refusal = `${key}@${stored.leaderEpoch}`;
    if (this.refusedLeaderships.has(refusal)) return;
    this.refusedLeaderships.add(refusal);
    this.logger.warn(`${key}: not leading: ${reason}`);
  }

  private async becomeFollower(key: string, log: PartitionLog, stored: PartitionState): Promise<void> {
    this.dropLeader(key);
    if (stored.leader === NO_LEADER) {
      await this.stopFetcher(key);
      return;
    }
    const running = this.fetchers.get(key);
    if (running?.leaderId === stored.leader && running.leaderEpoch === stored.leaderEpoch && running.log === log) {
      return;
    }
    await this.stopFetcher(key);
    const fetcher = new ReplicaFetcher(
      stored.leader,
      stored.leaderEpoch,
      log,
      {
        brokerId: this.config.brokerId,
        brokerEpoch: this.incarnation.brokerEpoch,
        maxBytes: this.config.replicaFetchMaxBytes,
        waitMs: this.config.replicaFetchWaitMaxMs,
        backoffMs: this.config.replicaFetchBackoffMs,
      },
      {
        fetch: (leaderId, request, signal) => this.fetchFromLeader(key, leaderId, request, signal),
        onHighWatermark: (highWatermark) => {
          this.followerHighWatermarks.set(key, highWatermark);
          this.acks.notify(key, highWatermark);
        },
        onFenced: () => void this.metadata.reload(),
        onError: (error) => this.logger.debug(`${key}: fetch from broker ${stored.leader}: ${error.message}`),
      },
    );
    this.fetchers.set(key, fetcher);
  }

  private async stopFetcher(key: string): Promise<void> {
    const fetcher = this.fetchers.get(key);
    if (fetcher === undefined) return;
    this.fetchers.delete(key);
    await fetcher.stop();
  }

  /** This broker stops leading: parked acks=all requests fail (outcome unknown), parked fetches return. */
  private dropLeader(key: string): void {
    const leader = this.leaders.get(key);
    if (leader === undefined) return;
    this.leaders.delete(key);
    this.followerHighWatermarks.set(key, leader.state.highWatermark);
    this.acks.notify(key, Number.POSITIVE_INFINITY); // parked acks=all requests go on as a replica

    this.followerFetches.notify(key, Number.POSITIVE_INFINITY);
    this.readers.notify(key, Number.POSITIVE_INFINITY);
    this.logger.log(`${key}: no longer leader (was epoch ${leader.epoch})`);
  }

  private async fetchFromLeader(
    key: string,
    leaderId: number,
    request: ReplicaFetchRequest,
    signal: AbortSignal,
  ): Promise<ReplicaFetchAnswer> {
    const url = await this.peers.brokerUrl(leaderId);
    if (url === null) throw new Error(`the leader, broker ${leaderId}, is not registered`);
    const [topic, partition] = splitKey(key);
    const response = await this.peers.call(url, {
      method: 'GET',
      path: `/partitions/${encodeURIComponent(topic)}/${partition}/replica-fetch`,
      query: replicaFetchQuery(request),
      timeoutMs: PEER_REQUEST_TIMEOUT_MS + request.waitMs,
      signal,
    });
    return parseAnswer(response.headers, Buffer.from(await response.arrayBuffer()));
  }

  // ---- leader side: produce and acks ----

  /** Checks that the topic and partition exist and that this broker leads the partition; returns its log. */
  leaderLog(topic: string, partition: number): { log: PartitionLog; leaderEpoch: number } {
    const leader = this.leaderOf(topic, partition);
    return { log: leader.log, leaderEpoch: leader.epoch };
  }

  /**
   * Appends one encoded batch and answers per `acks`: a batch Brook built is not re-checked; a client's
   * (`clientBatch`, the Kafka listener's) has its CRC and records checked by the log. With `expectedLeaderEpoch`
   * (a forwarded request) a different leader epoch is refused before appending. A batch with a producer id, Brook's
   * or a client's, is checked against the partition's producer state (a duplicate answers the original's offsets
   * with `duplicate: true`; `sequenceGaps` as in partition-log/producer-state.ts). Synchronous until the append is
   * queued: appends called in some order get their offsets in that order.
   */
  async produce(
    topic: string,
    partition: number,
    batch: Buffer,
    acks: Acks,
    options: ProduceOptions = {},
  ): Promise<AppendInfo | null> {
    const leader = this.leaderOf(topic, partition);
    checkEpoch(leader, options.expectedLeaderEpoch);
    if (this.draining) return this.parkUntilLeadershipMoves(leader);
    const minInsync = this.minInsyncReplicas(topic);
    if (acks === 'all') {
      if (!leader.state.hasEnoughReplicas(minInsync)) {
        throw errors.notEnoughReplicas(
          `the in-sync replicas of ${leader.key} are [${leader.state.isr.join(',')}], fewer than ` +
            `min.insync.replicas=${minInsync}; nothing was appended.`,
        );
      }
      if (this.acks.parked >= ACKS_WAITING_MAX) {
        throw errors.tooManyRequests(`${ACKS_WAITING_MAX} acks=all requests are already waiting for replicas.`);
      }
    }
    let appended: Promise<AppendInfo>;
    try {
      appended = leader.log.appendAsLeader(batch, leader.epoch, {
        ...(options.clientBatch === true ? { validateRecords: true } : { verifyCrc: false }),
        sequenceGaps: options.sequenceGaps === true,
        keyProducers: options.keyProducers === true && options.clientBatch !== true,
      });
    } catch (error) {
      throw translate(error);
    }
    const done = appended.then(
      (info) => {
        this.leaderAppended(leader);
        return info;
      },
      (error: unknown) => {
        throw translate(error);
      },
    );
    if (acks === '0') {
      done.catch(() => undefined);
      return null;
    }
    const info = await done;
    refuseKeyInFlight(leader, batch, info);
    if (acks === 'all') await this.acksAll.untilCommitted(leader, info.lastOffset + 1, minInsync);
    return info;
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
    const behind = () => [...this.leaders.values()].filter((l) => l.state.highWatermark < l.log.logEndOffset);
    while (behind().length > 0 && this.clock.monotonicMs() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_POLL_MS));
    }
    const left = behind().map((leader) => leader.key);
    if (left.length > 0) this.logger.warn(`controlled shutdown: followers still behind on ${left.join(', ')}`);
    this.handingOver = true;
  }

  /** A produce while draining: nothing is appended; once leadership moved the router sends it to the new leader. */
  private async parkUntilLeadershipMoves(leader: LeaderPartition): Promise<never> {
    if (this.acks.parked < ACKS_WAITING_MAX && this.leaders.get(leader.key) === leader) {
      await this.acks.wait(leader.key, Number.MAX_SAFE_INTEGER, this.config.acksAllTimeoutMs);
    }
    throw errors.leaderNotAvailable(
      `Broker ${this.config.brokerId} is shutting down and hands ${leader.key} over; retry.`,
    );
  }

  private leaderAppended(leader: LeaderPartition): void {
    if (this.leaders.get(leader.key) !== leader) return;
    const endOffset = leader.log.logEndOffset;
    leader.state.onLeaderAppend(endOffset);
    this.followerFetches.notify(leader.key, endOffset);
    this.highWatermarkMoved(leader);
  }

  private highWatermarkMoved(leader: LeaderPartition): void {
    const highWatermark = leader.state.highWatermark;
    this.readers.notify(leader.key, highWatermark);
    this.acks.notify(leader.key, highWatermark);
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
    signal?: AbortSignal,
  ): Promise<ReplicaFetchAnswer> {
    const leader = this.leaderOf(topic, partition);
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
    if (request.replicaId === this.config.brokerId || !leader.state.replicas.includes(request.replicaId)) {
      throw errors.invalidRequest(`Broker ${request.replicaId} is not a follower of ${leader.key}.`);
    }
    const log = leader.log;
    const diverging =
      divergingEpoch(request.fetchOffset, request.lastFetchedEpoch, (epoch) => log.endOffsetForEpoch(epoch)) ??
      (request.fetchOffset > log.logEndOffset ? { epoch: -1, endOffset: log.logEndOffset } : null);
    if (diverging !== null || request.fetchOffset < log.logStartOffset) {
      return this.fetchAnswer(leader, diverging, Buffer.alloc(0));
    }
    const outcome = leader.state.onFollowerFetch(
      request.replicaId,
      request.brokerEpoch,
      request.fetchOffset,
      this.clock.monotonicMs(),
    );
    if (!outcome.accepted) throw errors.staleBrokerEpoch(`${leader.key}: ${outcome.reason}.`);
    if (outcome.change !== null) void this.persistIsrChange(leader, outcome.change);
    this.highWatermarkMoved(leader);
    if (request.fetchOffset >= log.logEndOffset) {
      const waitMs = Math.min(request.waitMs, this.config.readWaitMsMax);
      await this.followerFetches.wait(leader.key, request.fetchOffset, waitMs, signal);
      if (this.leaders.get(leader.key) !== leader) this.leaderOf(topic, partition);
    }
    if (request.fetchOffset >= log.logEndOffset) return this.fetchAnswer(leader, null, Buffer.alloc(0));
    let read: ReadResult;
    try {
      read = await log.read(request.fetchOffset, { maxBytes: request.maxBytes, minOneBatch: true });
    } catch (error) {
      throw translate(error);
    }
    return this.fetchAnswer(leader, null, read.batches);
  }

  private fetchAnswer(
    leader: LeaderPartition,
    diverging: ReplicaFetchAnswer['diverging'],
    batches: Buffer,
  ): ReplicaFetchAnswer {
    return {
      leaderEpoch: leader.epoch,
      highWatermark: leader.state.highWatermark,
      logStartOffset: leader.log.logStartOffset,
      diverging,
      batches,
    };
  }

  private proposeShrinks(): void {
    const nowMs = this.clock.monotonicMs();
    for (const leader of this.leaders.values()) {
      const change = leader.state.proposeShrink(nowMs, this.config.replicaLagTimeMaxMs);
      if (change !== null) void this.persistIsrChange(leader, change);
    }
  }

  /** Writes a proposed ISR change through the coordination store; it counts only once written. */
  private async persistIsrChange(leader: LeaderPartition, change: IsrChange): Promise<void> {
    const from = [...leader.state.isr];
    try {
      const written = await writeIsr(this.store, {
        topic: leader.topic,
        partition: leader.partition,
        leaderId: this.config.brokerId,
        leaderEpoch: leader.epoch,
        currentIsr: from,
        change,
      });
      if (this.leaders.get(leader.key) !== leader || leader.state.pendingChange !== change) return;
      if (!written.ok) {
        leader.state.changeFailed();
        this.logger.warn(`${leader.key}: ISR change to [${change.isr.join(',')}] refused: ${written.reason}`);
        void this.metadata.reload();
        return;
      }
      leader.stateVersion = written.version;
      leader.state.changeCommitted();
      (change.kind === 'shrink' ? this.metrics.isrShrinks : this.metrics.isrExpands).inc();
      this.logger.log(`${leader.key}: ISR [${from.join(',')}] -> [${change.isr.join(',')}]`);
      this.highWatermarkMoved(leader);
      void this.metadata.reload();
    } catch (error) {
      if (leader.state.pendingChange === change) leader.state.changeFailed();
      this.logger.warn(`${leader.key}: ISR change not written: ${(error as Error).message}`);
    }
  }

  // ---- reads ----

  /** The high watermark of a partition hosted here: the leader's, or what a follower learnt from its leader. */
  highWatermarkOf(topic: string, partition: number): number | undefined {
    const key = partitionKey(topic, partition);
    const leader = this.leaders.get(key);
    if (leader !== undefined) return leader.state.highWatermark;
    const highWatermark = this.followerHighWatermarks.get(key);
    if (highWatermark === undefined) return undefined;
    // a follower's (or a restarted replica's checkpointed) HW never runs past what it holds
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
    const leader = await this.servingLeaderOf(topic, partition, options.signal);
    const minOneBatch = options.minOneBatch ?? true;
    const first = await this.readBelowHighWatermark(leader, offset, options.maxBytes, minOneBatch);
    if (first.batches.length > 0 || options.waitMs <= 0 || offset < first.highWatermark) return first;
    await this.readers.wait(leader.key, offset, Math.min(options.waitMs, this.config.readWaitMsMax), options.signal);
    const now = await this.servingLeaderOf(topic, partition, options.signal);
    return this.readBelowHighWatermark(now, offset, options.maxBytes, minOneBatch);
  }

  private async readBelowHighWatermark(
    leader: LeaderPartition,
    offset: number,
    maxBytes: number,
    minOneBatch: boolean,
  ) {
    const highWatermark = leader.state.highWatermark;
    try {
      const result = await leader.log.read(offset, { maxBytes, maxOffsetExclusive: highWatermark, minOneBatch });
      return { ...result, highWatermark, logStartOffset: leader.log.logStartOffset };
    } catch (error) {
      throw translate(error);
    }
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
    try {
      await Promise.race(
        positions.map(({ topic, partition, offset }) =>
          this.readers.wait(
            partitionKey(topic, partition),
            offset,
            Math.min(waitMs, this.config.readWaitMsMax),
            done.signal,
          ),
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
    const leader = this.leaderOf(topic, partition);
    return leader.state.highWatermark >= leader.log.logEndOffset;
  }

  /** Earliest and latest (the high watermark) offsets; held back like a read while the HW is being learnt. */
  async offsets(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const leader = await this.servingLeaderOf(topic, partition);
    return { earliest: leader.log.logStartOffset, latest: leader.state.highWatermark };
  }

  /** The same without waiting: throws the retriable error of servingLeaderOf while the HW is being learnt. */
  offsetsNow(topic: string, partition: number): { earliest: number; latest: number } {
    const leader = this.leaderOf(topic, partition);
    if (!leader.state.highWatermarkKnown) throw learningHighWatermark(leader);
    return { earliest: leader.log.logStartOffset, latest: leader.state.highWatermark };
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number> {
    const leader = await this.servingLeaderOf(topic, partition);
    const found = await leader.log.offsetForTimestamp(timestampMs);
    const highWatermark = leader.state.highWatermark;
    return Math.min(found ?? highWatermark, highWatermark);
  }

  /** This broker's replica of a partition as it is (any role), for operators and tests. */
  localReplica(topic: string, partition: number) {
    const log = this.logs.log(topic, partition);
    if (log === undefined)
      throw errors.unknownTopicOrPartition(`Broker ${this.config.brokerId} hosts no ${topic}-${partition}.`);
    const key = partitionKey(topic, partition);
    const leader = this.leaders.get(key);
    const fetcher = this.fetchers.get(key);
    return {
      log,
      view: {
        broker_id: this.config.brokerId,
        role: leader !== undefined ? 'leader' : fetcher !== undefined ? 'follower' : 'none',
        leader_epoch: leader?.epoch ?? fetcher?.leaderEpoch ?? -1,
        isr: leader === undefined ? null : [...leader.state.isr],
        isr_broker_epochs: leader === undefined ? null : { ...leader.state.isrBrokerEpochs },
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
  private async servingLeaderOf(topic: string, partition: number, signal?: AbortSignal): Promise<LeaderPartition> {
    const deadline = this.clock.monotonicMs() + HIGH_WATERMARK_LEARNING_WAIT_MS_MAX;
    for (;;) {
      const leader = this.leaderOf(topic, partition);
      if (this.handingOver) {
        throw errors.leaderNotAvailable(`Broker ${this.config.brokerId} is handing ${leader.key} over; retry.`);
      }
      if (leader.state.highWatermarkKnown) return leader;
      const remainingMs = deadline - this.clock.monotonicMs();
      if (remainingMs <= 0 || signal?.aborted) throw learningHighWatermark(leader);
      await this.readers.wait(leader.key, leader.state.highWatermark, remainingMs, signal);
    }
  }

  /**
   * The partition's leader state here; 404s for an unknown topic or partition, 40404 when another broker leads,
   * or when this process may have slept through a leadership change (metadata-cache.service.ts, mayBeStale).
   */
  private leaderOf(topic: string, partition: number): LeaderPartition {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    const state = metadata.states[partition];
    if (!Number.isInteger(partition) || partition < 0 || state === undefined) throw errors.partitionNotFound(partition);
    const leader = this.leaders.get(partitionKey(topic, partition));
    if (leader !== undefined && this.metadata.mayBeStale()) {
      throw errors.leaderNotAvailable(
        `Broker ${this.config.brokerId} was paused for longer than its session and is reloading the metadata; retry.`,
      );
    }
    if (leader !== undefined) return leader;
    if (state.leader === this.config.brokerId) {
      throw errors.leaderNotAvailable(`${topic}-${partition} is becoming led by this broker; retry.`);
    }
    throw errors.leaderNotAvailable(
      `Broker ${this.config.brokerId} does not lead ${topic}-${partition}` +
        (state.leader === NO_LEADER ? '; it has no leader now.' : `; broker ${state.leader} does.`),
    );
  }
}
