import { Module } from '@nestjs/common';
import { TopicModule } from '../topic/topic.module.js';
import { ClusterController } from './cluster-controller.service.js';
import { ControllerElection } from './controller-election.service.js';
import { ControllerService } from './controller.service.js';

@Module({
  imports: [TopicModule],
  providers: [ControllerElection, ControllerService, ClusterController],
  exports: [ControllerElection, ControllerService, ClusterController],
})
export class ControllerElectionModule {}
