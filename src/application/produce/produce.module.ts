// The produce use case shared by every edge that writes records (REST v3 and v2, WebSocket).
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { TopicModule } from '../../topic/topic.module.js';
import { ProduceService } from './produce.service.js';

@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule],
  providers: [ProduceService],
  exports: [ProduceService],
})
export class ProduceModule {}
