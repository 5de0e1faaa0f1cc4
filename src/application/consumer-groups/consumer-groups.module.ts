// The consumer-group use cases of Confluent's v3 API (list, describe, lag, reset, delete) and group forwarding:
// a request about a group goes to the group's coordinator.
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { AdminModule } from '../admin/admin.module.js';
import { ConsumerGroupsService } from './consumer-groups.service.js';
import { GroupForwarding } from './group-forwarding.js';

@Module({
  imports: [AdminModule, ControllerElectionModule, ReplicationModule, GroupCoordinatorModule],
  providers: [ConsumerGroupsService, GroupForwarding],
  exports: [ConsumerGroupsService, GroupForwarding],
})
export class ConsumerGroupsModule {}
