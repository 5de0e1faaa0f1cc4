// The public shapes of Brook's statistics routes (openapi.yaml: BrookClusterStatus, BrookTopicStatsList), built
// from what cluster-stats.service.ts gathered. Pure.
import type { TopicMetadata } from '../../topic/cluster-metadata.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import { isInternalTopic } from '../../topic/topic-name.js';
import type { ClusterStats, TopicRates } from './cluster-stats.service.js';

export function clusterStatusView(
  clusterId: string,
  stats: ClusterStats,
  health: { underReplicated: number; offline: number; partitions: number; topics: number },
) {
  return {
    kind: 'BrookClusterStatus',
    cluster_id: clusterId,
    controller:
      stats.controller === null ? null : { broker_id: stats.controller.brokerId, epoch: stats.controller.epoch },
    brokers: stats.brokers.map((broker) => ({
      broker_id: broker.brokerId,
      url: broker.url,
      kafka_listener: broker.kafka === null ? null : `${broker.kafka.host}:${broker.kafka.port}`,
      broker_epoch: broker.brokerEpoch,
      alive: broker.registered,
      stats_reported: broker.answered,
      is_controller: stats.controller?.brokerId === broker.brokerId,
    })),
    topics_count: health.topics,
    partitions_count: health.partitions,
    under_replicated_partitions: health.underReplicated,
    offline_partitions: health.offline,
  };
}

const ZERO_RATES: TopicRates = {
  produce_records_per_second: 0,
  produce_bytes_per_second: 0,
  fetch_records_per_second: 0,
  fetch_bytes_per_second: 0,
};

export function topicStatsView(
  stats: ClusterStats,
  topics: TopicMetadata[],
  compacted: (topic: TopicMetadata) => boolean,
) {
  const sizes = new Map<string, { size_bytes: number; log_start_offset: number; high_watermark: number }>();
  for (const [brokerId, report] of stats.reports)
    for (const partition of report.partitions)
      sizes.set(`${brokerId}|${partition.topic}|${partition.partition}`, partition);
  const reporting = [...stats.reports.values()].filter((report) => report.topic_rates !== null);
  return topics.map((metadata) => {
    const name = metadata.assignment.name;
    const partitions = metadata.assignment.replicas.map((_, partition) => {
      const leader = metadata.states[partition]?.leader ?? NO_LEADER;
      const found = leader === NO_LEADER ? undefined : sizes.get(`${leader}|${name}|${partition}`);
      return {
        partition_id: partition,
        leader_id: leader === NO_LEADER ? null : leader,
        size_bytes: found?.size_bytes ?? null,
        log_start_offset: found?.log_start_offset ?? null,
        high_watermark: found?.high_watermark ?? null,
        record_count: found === undefined ? null : Math.max(0, found.high_watermark - found.log_start_offset),
      };
    });
    const known = partitions.every((partition) => partition.size_bytes !== null);
    const rates = { ...ZERO_RATES };
    for (const report of reporting) {
      const topicRates = report.topic_rates![name];
      if (topicRates === undefined) continue;
      for (const key of Object.keys(rates) as (keyof TopicRates)[]) rates[key] += topicRates[key];
    }
    return {
      topic_name: name,
      is_internal: isInternalTopic(name),
      compacted: compacted(metadata),
      size_bytes: known ? partitions.reduce((sum, partition) => sum + partition.size_bytes!, 0) : null,
      record_count: known ? partitions.reduce((sum, partition) => sum + partition.record_count!, 0) : null,
      ...rates,
      rates_from_brokers: reporting.map((report) => report.broker_id).sort((a, b) => a - b),
      partitions,
    };
  });
}
