import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { ClassicGroups } from './classic-groups.service.js';
import { GroupCoordinator } from './group-coordinator.service.js';

@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule],
  providers: [GroupCoordinator, ClassicGroups],
  exports: [GroupCoordinator, ClassicGroups],
})
export class GroupCoordinatorModule {}
