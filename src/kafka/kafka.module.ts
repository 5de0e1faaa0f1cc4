// The Kafka wire-protocol edge (DESIGN.md §3b): the listener (kafka-listener.service.ts), its connections, and one
// handler per API (handler-table.ts) over the same application and core services as the REST routes.
import { Module } from '@nestjs/common';
import { AdminModule } from '../application/admin/admin.module.js';
import { IdempotenceModule } from '../application/idempotence/idempotence.module.js';
import { ProduceModule } from '../application/produce/produce.module.js';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { KafkaListener } from './kafka-listener.service.js';
import { KafkaServices } from './kafka-services.js';

@Module({
  imports: [
    TopicModule,
    ControllerElectionModule,
    ReplicationModule,
    AdminModule,
    ProduceModule,
    IdempotenceModule,
    GroupCoordinatorModule,
  ],
  providers: [KafkaServices, KafkaListener],
  exports: [KafkaListener],
})
export class KafkaModule {}
