import { describe, expect, it } from 'vitest';
import type { TopicMetadata } from '../../topic/cluster-metadata.js';
import type { ClusterStats, LocalBrokerStats } from './cluster-stats.service.js';
import { clusterStatusView, topicStatsView } from './stats-views.js';

function topic(name: string, leaders: number[]): TopicMetadata {
  return {
    assignment: { topicId: name, name, replicas: leaders.map(() => [1, 2, 3]) },
    states: leaders.map((leader) => ({ leader, leaderEpoch: 0, isr: [1, 2, 3], controllerEpoch: 1 })),
    stateVersions: leaders.map(() => 0),
    configs: {},
  };
}

const rates = (produce: number) => ({
  produce_records_per_second: produce,
  produce_bytes_per_second: produce * 10,
  fetch_records_per_second: 0,
  fetch_bytes_per_second: 0,
});

function report(
  brokerId: number,
  partitions: LocalBrokerStats['partitions'],
  produce: number | null,
): LocalBrokerStats {
  return {
    broker_id: brokerId,
    broker_epoch: brokerId * 10,
    controller_epoch: -1,
    partitions,
    topic_rates: produce === null ? null : { orders: rates(produce) },
  };
}

describe('topicStatsView', () => {
  it("takes each partition's size and offsets from its leader's report and sums the brokers' rates", () => {
    const stats: ClusterStats = {
      brokers: [],
      controller: null,
      reports: new Map([
        [
          1,
          report(1, [{ topic: 'orders', partition: 0, size_bytes: 100, log_start_offset: 5, high_watermark: 15 }], 2),
        ],
        // broker 2 reports partition 0 too (a stale leader): it is not partition 0's leader, so it is ignored
        [
          2,
          report(
            2,
            [
              { topic: 'orders', partition: 0, size_bytes: 999, log_start_offset: 0, high_watermark: 999 },
              { topic: 'orders', partition: 1, size_bytes: 50, log_start_offset: 0, high_watermark: 3 },
            ],
            1.5,
          ),
        ],
        [3, report(3, [], null)],
      ]),
    };
    const [orders] = topicStatsView(stats, [topic('orders', [1, 2])], () => false);
    expect(orders).toMatchObject({
      topic_name: 'orders',
      size_bytes: 150,
      record_count: 13,
      produce_records_per_second: 3.5,
      produce_bytes_per_second: 35,
      rates_from_brokers: [1, 2],
      compacted: false,
    });
    expect(orders.partitions[0]).toEqual({
      partition_id: 0,
      leader_id: 1,
      size_bytes: 100,
      log_start_offset: 5,
      high_watermark: 15,
      record_count: 10,
    });
  });

  it('leaves the sizes of a partition whose leader did not answer, and the sums, null', () => {
    const stats: ClusterStats = { brokers: [], controller: null, reports: new Map([[1, report(1, [], 0)]]) };
    const [orders] = topicStatsView(stats, [topic('orders', [3, -1])], () => true);
    expect(orders.size_bytes).toBeNull();
    expect(orders.record_count).toBeNull();
    expect(orders.partitions.map((partition) => partition.leader_id)).toEqual([3, null]);
    expect(orders.compacted).toBe(true);
  });
});

describe('clusterStatusView', () => {
  it('lists brokers with their incarnation and liveness, and the controller with its epoch', () => {
    const view = clusterStatusView(
      'c1',
      {
        brokers: [
          {
            registered: true,
            brokerId: 1,
            url: 'http://a',
            kafka: { host: 'a', port: 9 },
            brokerEpoch: 4,
            answered: true,
          },
          { registered: false, brokerId: 2, url: null, kafka: null, brokerEpoch: null, answered: false },
        ],
        controller: { brokerId: 1, epoch: 7 },
        reports: new Map(),
      },
      { underReplicated: 2, offline: 1, partitions: 6, topics: 2 },
    );
    expect(view.controller).toEqual({ broker_id: 1, epoch: 7 });
    expect(view.brokers).toEqual([
      {
        broker_id: 1,
        url: 'http://a',
        kafka_listener: 'a:9',
        broker_epoch: 4,
        alive: true,
        stats_reported: true,
        is_controller: true,
      },
      {
        broker_id: 2,
        url: null,
        kafka_listener: null,
        broker_epoch: null,
        alive: false,
        stats_reported: false,
        is_controller: false,
      },
    ]);
    expect(view).toMatchObject({
      under_replicated_partitions: 2,
      offline_partitions: 1,
      partitions_count: 6,
      topics_count: 2,
    });
  });
});
