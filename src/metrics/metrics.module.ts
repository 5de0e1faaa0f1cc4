// Prometheus metrics: the Metrics registry (global, so the produce and consume paths can count), the gauges of
// broker state and GET /metrics.
import { Global, Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { BrokerGauges } from './broker-gauges.service.js';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.service.js';

@Global()
@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule, GroupCoordinatorModule],
  controllers: [MetricsController],
  providers: [Metrics, BrokerGauges],
  exports: [Metrics],
})
export class MetricsModule {}
