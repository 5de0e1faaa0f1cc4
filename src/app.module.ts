// The broker application: one NestJS module per part of DESIGN.md §1, wired around the validated config.
import { DynamicModule, Global, Module } from '@nestjs/common';
import { BrokerLifecycle } from './broker-lifecycle.service.js';
import { ClusterModule } from './cluster/cluster.module.js';
import { BROKER_CONFIG } from './config/broker-config.provider.js';
import type { BrokerConfig } from './config/broker-config.js';
import { ControllerElectionModule } from './controller-election/controller-election.module.js';
import { CoordinationModule } from './coordination/coordination.module.js';
import { GatewayModule } from './gateway/gateway.module.js';
import { GroupCoordinatorModule } from './group-coordinator/group-coordinator.module.js';
import { PartitionLogModule } from './partition-log/partition-log.module.js';
import { ReplicationModule } from './replication/replication.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { SecurityModule } from './security/security.module.js';
import { TopicModule } from './topic/topic.module.js';

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
        GatewayModule,
      ],
      providers: [BrokerLifecycle],
    };
  }
}
