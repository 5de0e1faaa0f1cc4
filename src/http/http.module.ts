// The REST edge: Confluent's v3 (admin, produce, consumer groups, ACLs, quotas, replica admin) and v2 (topics,
// produce, consumer instances) routes, Brook's reads, health and /metrics. Each controller checks its input and
// calls the application layer; the request pipeline around the routes is installed by request-pipeline.ts.
import { Module } from '@nestjs/common';
import { AdminModule } from '../application/admin/admin.module.js';
import { ObservabilityModule } from '../application/observability/observability.module.js';
import { ConsumerGroupsModule } from '../application/consumer-groups/consumer-groups.module.js';
import { ConsumerInstancesModule } from '../application/consumer-instances/consumer-instances.module.js';
import { ProduceModule } from '../application/produce/produce.module.js';
import { SchemasModule } from '../application/schemas/schemas.module.js';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { V2ConsumerController } from './v2/v2-consumer.controller.js';
import { V2Controller } from './v2/v2.controller.js';
import { AclController } from './v3/acl.controller.js';
import { QuotaController } from './v3/quota.controller.js';
import { V3AdminController } from './v3/v3-admin.controller.js';
import { V3BrokerConfigsController } from './v3/v3-broker-configs.controller.js';
import { V3ConsumerGroupsController } from './v3/v3-consumer-groups.controller.js';
import { V3ProduceController } from './v3/v3-produce.controller.js';
import { V3ProducersController } from './v3/v3-producers.controller.js';
import { IdempotenceModule } from '../application/idempotence/idempotence.module.js';
import { V3ReadController } from './v3/v3-read.controller.js';
import { V3ReplicaAdminController } from './v3/v3-replica-admin.controller.js';
import { V3StatsController } from './v3/v3-stats.controller.js';

@Module({
  imports: [
    TopicModule,
    ControllerElectionModule,
    ReplicationModule,
    AdminModule,
    ObservabilityModule,
    ProduceModule,
    SchemasModule,
    IdempotenceModule,
    ConsumerGroupsModule,
    ConsumerInstancesModule,
  ],
  controllers: [
    HealthController,
    MetricsController,
    V3AdminController,
    V3BrokerConfigsController,
    V3ReplicaAdminController,
    V3StatsController,
    V3ProduceController,
    V3ProducersController,
    V3ReadController,
    V3ConsumerGroupsController,
    V2Controller,
    V2ConsumerController,
    AclController,
    QuotaController,
  ],
})
export class HttpModule {}
