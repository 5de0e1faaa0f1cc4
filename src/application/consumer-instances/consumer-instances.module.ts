// REST Proxy v2 consumer instances, on top of the group coordinator.
import { Module } from '@nestjs/common';
import { GroupCoordinatorModule } from '../../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { TopicModule } from '../../topic/topic.module.js';
import { SchemasModule } from '../schemas/schemas.module.js';
import { ConsumerInstances } from './consumer-instances.service.js';

@Module({
  imports: [TopicModule, ReplicationModule, GroupCoordinatorModule, SchemasModule],
  providers: [ConsumerInstances],
  exports: [ConsumerInstances],
})
export class ConsumerInstancesModule {}
