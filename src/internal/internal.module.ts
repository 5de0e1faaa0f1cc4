// The broker-to-broker edge: the internal routes (follower fetch, controller commands, forwarded produce, streaming
// group members' calls to their coordinator, schema registry writes forwarded to its leader), guarded by the
// cluster secret and not in openapi.yaml.
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { GroupCoordinatorModule } from '../group-coordinator/group-coordinator.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { SchemasModule } from '../application/schemas/schemas.module.js';
import { ObservabilityModule } from '../application/observability/observability.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { ClusterSecretGuard } from './cluster-secret.guard.js';
import { InternalController } from './internal.controller.js';
import { SchemaRegistryInternalController } from './schema-registry.internal.controller.js';
import { WsGroupsInternalController } from './ws-groups.internal.controller.js';

@Module({
  imports: [
    TopicModule,
    ControllerElectionModule,
    ReplicationModule,
    GroupCoordinatorModule,
    SchemasModule,
    ObservabilityModule,
  ],
  controllers: [InternalController, WsGroupsInternalController, SchemaRegistryInternalController],
  providers: [ClusterSecretGuard],
})
export class InternalModule {}
