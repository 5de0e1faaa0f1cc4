import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { AdminService } from './admin.service.js';
import { ConsumerGroupsService } from './consumer-groups.service.js';
import { ClusterSecretGuard } from './cluster-secret.guard.js';
import { GroupForwarding } from './group-forwarding.js';
import { HealthController } from './health.controller.js';
import { InternalController } from './internal.controller.js';
import { WsGroupsInternalController } from './ws/ws-groups.internal.controller.js';
import { ProduceService } from './produce.service.js';
import { RecordsStreamController } from './sse/records-stream.controller.js';
import { Urls } from './urls.js';
import { V2ConsumerController } from './v2-consumer.controller.js';
import { V2Controller } from './v2.controller.js';
import { V3AdminController } from './v3-admin.controller.js';
import { V3ConsumerGroupsController } from './v3-consumer-groups.controller.js';
import { V3ProduceController } from './v3-produce.controller.js';
import { V3ReadController } from './v3-read.controller.js';
import { ReplicaAdminService } from './replica-admin.service.js';
import { V3ReplicaAdminController } from './v3-replica-admin.controller.js';
import { SharedReads } from './ws/partition-stream.js';
import { RecordJsonCache } from './ws/record-json-cache.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import { WsGateway } from './ws/ws.gateway.js';

@Module({
  imports: [TopicModule, ControllerElectionModule, ReplicationModule, GroupCoordinatorModule],
  controllers: [
    HealthController,
    V3AdminController,
    V3ReplicaAdminController,
    V3ProduceController,
    V3ReadController,
    V3ConsumerGroupsController,
    V2Controller,
    V2ConsumerController,
    InternalController,
    WsGroupsInternalController,
    RecordsStreamController,
  ],
  providers: [
    AdminService,
    ReplicaAdminService,
    ProduceService,
    ConsumerGroupsService,
    GroupForwarding,
    Urls,
    ClusterSecretGuard,
    WsGateway,
    { provide: RecordJsonCache, useFactory: () => new RecordJsonCache() },
    {
      provide: SharedReads,
      useFactory: (router: PartitionRouter) => new SharedReads(router),
      inject: [PartitionRouter],
    },
  ],
})
export class GatewayModule {}
