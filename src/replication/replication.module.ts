import { Module } from '@nestjs/common';
import { PartitionLogModule } from '../partition-log/partition-log.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { PartitionRouter } from './partition-router.service.js';
import { ReplicaManager } from './replica-manager.service.js';

@Module({
  imports: [PartitionLogModule, TopicModule],
  providers: [ReplicaManager, PartitionRouter],
  exports: [ReplicaManager, PartitionRouter],
})
export class ReplicationModule {}
