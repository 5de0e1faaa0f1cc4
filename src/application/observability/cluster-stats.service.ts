// Brook's cluster and topic statistics (Brook additions in openapi.yaml: GET /v3/clusters/{c}/status and
// GET /v3/clusters/{c}/topic-stats), gathered by the broker answering:
// - its own part (localStats(), served to peers at GET /internal/v1/stats): its broker epoch, its controller
//   epoch when it is the controller, each partition it leads with its size on disk, log start offset and high
//   watermark, and the records and bytes produced and fetched per second per topic through this broker (the
//   rates of brook_topic_{messages,bytes}_{in,out}_total over the last RATE_SAMPLES_MAX samples, rate-window.ts);
// - every other live broker's part through the internal route, each call bounded by STATS_PEER_TIMEOUT_MS; a
//   broker that does not answer is reported as such and its partitions' sizes are null;
// - the registrations and partition states from the coordination store and the metadata cache.
// The gathered view is kept for CLUSTER_STATS_CACHE_MS and shared by concurrent callers.
// A partition's record count is its high watermark minus its log start offset: exact for a topic that is not
// compacted; for a compacted topic it counts the offsets in the log, of which compaction may have removed some.
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { PeerClient } from '../../cluster/peer-client.js';
import { type CancelTimer, CLOCK, everyMs, systemClock, type Clock } from '../../common/clock.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { CONTROLLER_EPOCH_KEY } from '../../coordination/cluster-keys.js';
import { CoordinationStore } from '../../coordination/coordination-store.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { RATE_SAMPLE_INTERVAL_MS, RateWindow } from './rate-window.js';

export const CLUSTER_STATS_CACHE_MS = 1_000;
export const STATS_PEER_TIMEOUT_MS = 2_000;

const RATES = ['produce_records', 'produce_bytes', 'fetch_records', 'fetch_bytes'] as const;
type RateName = (typeof RATES)[number];
export type TopicRates = Record<`${RateName}_per_second`, number>;

export interface LocalPartitionStats {
  topic: string;
  partition: number;
  size_bytes: number;
  log_start_offset: number;
  high_watermark: number;
}

/** One broker's part, as GET /internal/v1/stats answers it. */
export interface LocalBrokerStats {
  broker_id: number;
  broker_epoch: number;
  /** -1 when this broker is not the controller. */
  controller_epoch: number;
  partitions: LocalPartitionStats[];
  /** null until two rate samples were taken (the first seconds after a start). */
  topic_rates: Record<string, TopicRates> | null;
}

export interface ClusterStats {
  brokers: Array<{
    registered: boolean;
    brokerId: number;
    url: string | null;
    kafka: { host: string; port: number } | null;
    brokerEpoch: number | null;
    answered: boolean;
  }>;
  controller: { brokerId: number; epoch: number } | null;
  reports: Map<number, LocalBrokerStats>;
}

@Injectable()
export class ClusterStatsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ClusterStatsService.name);
  private readonly rates = new RateWindow();
  private stopSampling: CancelTimer | null = null;
  private cached: { atMs: number; stats: Promise<ClusterStats> } | null = null;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metrics: Metrics,
    private readonly replicas: ReplicaManager,
    private readonly metadata: MetadataCache,
    private readonly election: ControllerElection,
    private readonly store: CoordinationStore,
    private readonly peers: PeerClient,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  onModuleInit(): void {
    void this.sample();
    this.stopSampling = everyMs(this.clock, RATE_SAMPLE_INTERVAL_MS, () => void this.sample());
  }

  onModuleDestroy(): void {
    this.stopSampling?.();
  }

  private async sample(): Promise<void> {
    const at = this.clock.monotonicMs();
    const counters: Record<
      RateName,
      { get(): Promise<{ values: Array<{ labels: { topic?: string | number }; value: number }> }> }
    > = {
      produce_records: this.metrics.messagesIn,
      produce_bytes: this.metrics.bytesIn,
      fetch_records: this.metrics.messagesOut,
      fetch_bytes: this.metrics.bytesOut,
    };
    const values = new Map<string, number>();
    try {
      for (const name of RATES)
        for (const series of (await counters[name].get()).values)
          values.set(`${name}|${series.labels.topic}`, series.value);
    } catch (error) {
      this.logger.warn(`topic rates not sampled: ${(error as Error).message}`);
      return;
    }
    this.rates.add(at, values);
  }

  /** This broker's part of the statistics. */
  localStats(): LocalBrokerStats {
    const partitions: LocalPartitionStats[] = [];
    for (const topic of this.metadata.allTopics().values()) {
      topic.states.forEach((state, partition) => {
        if (state?.leader !== this.config.brokerId) return;
        let replica: ReturnType<ReplicaManager['localReplica']>;
        try {
          replica = this.replicas.localReplica(topic.assignment.name, partition);
        } catch {
          return; // not opened here yet
        }
        if (replica.view.role !== 'leader' || replica.view.high_watermark < 0) return;
        partitions.push({
          topic: topic.assignment.name,
          partition,
          size_bytes: replica.log.sizeBytes,
          log_start_offset: replica.view.log_start_offset,
          high_watermark: replica.view.high_watermark,
        });
      });
    }
    const rates = this.rates.rates();
    let topicRates: Record<string, TopicRates> | null = null;
    if (rates !== null) {
      topicRates = {};
      for (const [key, rate] of rates) {
        const separator = key.indexOf('|');
        const name = key.slice(0, separator) as RateName;
        const topic = key.slice(separator + 1);
        topicRates[topic] ??= {
          produce_records_per_second: 0,
          produce_bytes_per_second: 0,
          fetch_records_per_second: 0,
          fetch_bytes_per_second: 0,
        };
        topicRates[topic][`${name}_per_second`] = rate;
      }
    }
    return {
      broker_id: this.config.brokerId,
      broker_epoch: this.election.brokerEpoch,
      controller_epoch: this.election.isController() ? this.election.currentControllerEpoch() : -1,
      partitions,
      topic_rates: topicRates,
    };
  }

  /** Every broker's part and the registrations, gathered at most once per CLUSTER_STATS_CACHE_MS. */
  clusterStats(): Promise<ClusterStats> {
    const now = this.clock.monotonicMs();
    if (this.cached === null || now - this.cached.atMs >= CLUSTER_STATS_CACHE_MS) {
      const stats = this.gather();
      this.cached = { atMs: now, stats };
      stats.catch(() => {
        if (this.cached?.stats === stats) this.cached = null;
      });
    }
    return this.cached.stats;
  }

  private async gather(): Promise<ClusterStats> {
    const [registrations, controllerId, epochCounter] = await Promise.all([
      this.election.liveBrokers(),
      this.election.controllerId(),
      this.store.readCounter(CONTROLLER_EPOCH_KEY).catch(() => null),
    ]);
    const reports = new Map<number, LocalBrokerStats>();
    await Promise.all(
      registrations.map(async (registration) => {
        if (registration.brokerId === this.config.brokerId) {
          reports.set(registration.brokerId, this.localStats());
          return;
        }
        try {
          const answer = await this.peers.call(registration.url, {
            method: 'GET',
            path: '/stats',
            timeoutMs: STATS_PEER_TIMEOUT_MS,
          });
          reports.set(registration.brokerId, (await answer.json()) as LocalBrokerStats);
        } catch (error) {
          this.logger.debug(`broker ${registration.brokerId} sent no stats: ${(error as Error).message}`);
        }
      }),
    );
    const registered = new Set(registrations.map((registration) => registration.brokerId));
    const assigned = new Set<number>();
    for (const topic of this.metadata.allTopics().values())
      for (const replicas of topic.assignment.replicas)
        for (const id of replicas) if (!registered.has(id)) assigned.add(id);
    const brokers: ClusterStats['brokers'] = [
      ...registrations.map((registration) => ({
        registered: true,
        brokerId: registration.brokerId,
        url: registration.url,
        kafka: registration.kafka ?? null,
        brokerEpoch: reports.get(registration.brokerId)?.broker_epoch ?? registration.brokerEpoch,
        answered: reports.has(registration.brokerId),
      })),
      ...[...assigned].map((brokerId) => ({
        registered: false,
        brokerId,
        url: null,
        kafka: null,
        brokerEpoch: null,
        answered: false,
      })),
    ].sort((a, b) => a.brokerId - b.brokerId);
    let controller: ClusterStats['controller'] = null;
    if (controllerId !== null) {
      const reported = reports.get(controllerId)?.controller_epoch ?? -1;
      controller = { brokerId: controllerId, epoch: reported >= 0 ? reported : (epochCounter ?? -1) };
    }
    return { brokers, controller, reports };
  }

  /** Partitions that have fewer in-sync replicas than replicas, and those without a leader, from the metadata. */
  partitionHealth(): { underReplicated: number; offline: number; partitions: number; topics: number } {
    let underReplicated = 0;
    let offline = 0;
    let partitions = 0;
    let topics = 0;
    for (const topic of this.metadata.allTopics().values()) {
      topics++;
      topic.assignment.replicas.forEach((replicas, partition) => {
        partitions++;
        const state = topic.states[partition];
        if (state === undefined || state.leader === NO_LEADER) offline++;
        if (state === undefined || state.isr.length < replicas.length) underReplicated++;
      });
    }
    return { underReplicated, offline, partitions, topics };
  }
}
