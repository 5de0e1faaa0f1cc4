import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { GroupCoordinator } from './group-coordinator.service.js';

@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule],
  providers: [GroupCoordinator],
  exports: [GroupCoordinator],
})
export class GroupCoordinatorModule {}
