// The admin use cases: the cluster, brokers, topics, partitions and their configs as Confluent's v3 API shows them
// (admin.service.ts), changes to topics and their configs (topic-admin.service.ts), the broker configs
// (broker-config-admin.service.ts), and replica administration:
// reassignments and leader elections (replica-admin.service.ts).
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { TopicModule } from '../../topic/topic.module.js';
import { Urls } from '../urls.js';
import { AdminService } from './admin.service.js';
import { BrokerConfigAdminService } from './broker-config-admin.service.js';
import { ReplicaAdminService } from './replica-admin.service.js';
import { TopicAdminService } from './topic-admin.service.js';

@Module({
  imports: [TopicModule, ControllerElectionModule],
  providers: [AdminService, BrokerConfigAdminService, ReplicaAdminService, TopicAdminService, Urls],
  exports: [AdminService, BrokerConfigAdminService, ReplicaAdminService, TopicAdminService, Urls],
})
export class AdminModule {}
