// Gauges of broker state, computed from that state when Prometheus scrapes (no timers, nothing stale): consumer
// group lag per group and partition (Kafka's definition: log end offset minus the committed offset, for every
// partition the group has committed on this broker's logs), the partitions this broker leads, whether it is
// the active controller, and (on the active controller only, as Kafka's OfflinePartitionsCount) the partitions
// that have no leader.
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { Metrics } from '../../metrics/metrics.service.js';

@Injectable()
export class BrokerGauges implements OnModuleInit {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metrics: Metrics,
    private readonly groups: GroupCoordinator,
    private readonly replicas: ReplicaManager,
    private readonly metadata: MetadataCache,
    private readonly election: ControllerElection,
  ) {}

  onModuleInit(): void {
    const registers = [this.metrics.registry];
    const lags = () => this.lags();
    const leaderCount = () => this.leaderCount();
    const isController = () => this.election.isController();
    new Gauge({
      name: 'brook_consumergroup_lag',
      help: 'Log end offset minus the committed offset, per consumer group and partition.',
      labelNames: ['group', 'topic', 'partition'] as const,
      registers,
      collect() {
        this.reset();
        for (const lag of lags()) this.set(lag.labels, lag.value);
      },
    });
    new Gauge({
      name: 'brook_partition_leader_count',
      help: 'Partitions whose leader is this broker.',
      registers,
      collect() {
        this.set(leaderCount());
      },
    });
    new Gauge({
      name: 'brook_controller_active_count',
      help: '1 when this broker is the active controller, else 0.',
      registers,
      collect() {
        this.set(isController() ? 1 : 0);
      },
    });
    this.metrics.gaugeOf(
      'brook_controller_offline_partitions',
      'Partitions without a leader, reported by the active controller (0 on other brokers).',
      () => (isController() ? this.offlineCount() : 0),
    );
  }

  private offlineCount(): number {
    let count = 0;
    for (const topic of this.metadata.allTopics().values())
      for (let partition = 0; partition < topic.assignment.replicas.length; partition++) {
        const state = topic.states[partition];
        if (state === undefined || state.leader === NO_LEADER) count++;
      }
    return count;
  }

  private lags(): Array<{ labels: { group: string; topic: string; partition: string }; value: number }> {
    const lags = [];
    for (const group of this.groups.allGroups()) {
      if (group.state === 'Dead') continue;
      for (const stored of group.offsets.values()) {
        let end: number;
        try {
          end = this.replicas.offsetsNow(stored.topic, stored.partition).latest;
        } catch {
          continue; // topic deleted, or the partition is led elsewhere: its leader reports it
        }
        lags.push({
          labels: { group: group.groupId, topic: stored.topic, partition: String(stored.partition) },
          value: Math.max(0, end - stored.committed.offset),
        });
      }
    }
    return lags;
  }

  private leaderCount(): number {
    let count = 0;
    for (const topic of this.metadata.allTopics().values())
      for (const state of topic.states) if (state?.leader === this.config.brokerId) count++;
    return count;
  }
}
