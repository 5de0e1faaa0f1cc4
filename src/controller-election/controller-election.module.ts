import { Module } from '@nestjs/common';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { ClusterController } from './cluster-controller.service.js';
import { ControlledShutdown } from './controlled-shutdown.service.js';
import { ControllerElection } from './controller-election.service.js';
import { ControllerService } from './controller.service.js';

@Module({
  imports: [TopicModule, ReplicationModule],
  providers: [ControllerElection, ControllerService, ClusterController, ControlledShutdown],
  exports: [ControllerElection, ControllerService, ClusterController, ControlledShutdown],
})
export class ControllerElectionModule {}
