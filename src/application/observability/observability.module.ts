// The gauges of broker state, and the cluster and topic statistics of Brook's status routes (cluster-stats.service.ts): they read the core (groups, replicas, metadata, the controller) when Prometheus
// scrapes, and register in the leaf registry (metrics/metrics.service.ts).
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { TopicModule } from '../../topic/topic.module.js';
import { BrokerGauges } from './broker-gauges.service.js';
import { ClusterStatsService } from './cluster-stats.service.js';

@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule, GroupCoordinatorModule],
  providers: [BrokerGauges, ClusterStatsService],
  exports: [ClusterStatsService],
})
export class ObservabilityModule {}
