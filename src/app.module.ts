// The broker application, the composition root: the core's modules, the application's, and one module per
// protocol edge (REST, WebSocket, SSE, broker-to-broker routes, the Kafka listener, the schema registry's routes
// unless BROOK_SCHEMA_REGISTRY_ENABLED=false, the web console), wired around the validated config.
import { DynamicModule, Global, Module } from '@nestjs/common';
import { BrokerLifecycle } from './broker-lifecycle.service.js';
import { ConsumerInstancesModule } from './application/consumer-instances/consumer-instances.module.js';
import { ObservabilityModule } from './application/observability/observability.module.js';
import { ClusterModule } from './cluster/cluster.module.js';
import { BROKER_CONFIG } from './config/broker-config.provider.js';
import type { BrokerConfig } from './config/broker-config.js';
import { ControllerElectionModule } from './controller-election/controller-election.module.js';
import { CoordinationModule } from './coordination/coordination.module.js';
import { GroupCoordinatorModule } from './group-coordinator/group-coordinator.module.js';
import { PartitionLogModule } from './partition-log/partition-log.module.js';
import { ReplicationModule } from './replication/replication.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { SecurityModule } from './security/security.module.js';
import { TopicModule } from './topic/topic.module.js';
import { HttpModule } from './http/http.module.js';
import { InternalModule } from './internal/internal.module.js';
import { KafkaModule } from './kafka/kafka.module.js';
import { SseModule } from './sse/sse.module.js';
import { WsModule } from './ws/ws.module.js';
import { SchemasModule } from './application/schemas/schemas.module.js';
import { SchemaRegistryModule } from './schema-registry/schema-registry.module.js';
import { ConsoleModule } from './console/console.module.js';

@Global()
@Module({})
class ConfigModule {
  static forRoot(config: BrokerConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: BROKER_CONFIG, useValue: config }],
      exports: [BROKER_CONFIG],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: BrokerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CoordinationModule,
        ClusterModule,
        TopicModule,
        ControllerElectionModule,
        PartitionLogModule,
        ReplicationModule,
        GroupCoordinatorModule,
        MetricsModule,
        SecurityModule,
        ConsumerInstancesModule,
        SchemasModule,
        ObservabilityModule,
        HttpModule,
        WsModule,
        SseModule,
        InternalModule,
        KafkaModule,
        ...(config.schemaRegistry.enabled ? [SchemaRegistryModule] : []),
        ConsoleModule.forRoot(config.consoleEnabled),
      ],
      providers: [BrokerLifecycle],
    };
  }
}
