// What the streaming edges (WebSocket, SSE) share: the broker-wide cache of serialised records (decoded with the
// registry's schemas in a schema format), the shared reads
// of caught-up streams, and group membership for streams (STREAM_GROUP_PORT: the local coordinator on one broker,
// routed to the group's coordinator in a cluster).
import { Module } from '@nestjs/common';
import { PeerClient } from '../../cluster/peer-client.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { GroupCoordinatorModule } from '../../group-coordinator/group-coordinator.module.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { CoordinatorGroupPort, STREAM_GROUP_PORT, type StreamGroupPort } from './group-port.js';
import { SharedReads } from './partition-stream.js';
import { RecordJsonCache } from './record-json-cache.js';
import { RoutingGroupPort } from './routing-group-port.js';
import { SchemaSerde } from '../schemas/schema-serde.service.js';
import { SchemasModule } from '../schemas/schemas.module.js';

@Module({
  imports: [ReplicationModule, GroupCoordinatorModule, SchemasModule],
  providers: [
    {
      provide: RecordJsonCache,
      useFactory: (serde: SchemaSerde) => new RecordJsonCache(undefined, serde),
      inject: [SchemaSerde],
    },
    {
      provide: SharedReads,
      useFactory: (router: PartitionRouter) => new SharedReads(router),
      inject: [PartitionRouter],
    },
    {
      provide: STREAM_GROUP_PORT,
      useFactory: (config: BrokerConfig, coordinator: GroupCoordinator, peers: PeerClient): StreamGroupPort => {
        const local = new CoordinatorGroupPort(coordinator);
        return config.redisUrl === null ? local : new RoutingGroupPort(local, coordinator, config.brokerId, peers);
      },
      inject: [BROKER_CONFIG, GroupCoordinator, PeerClient],
    },
  ],
  exports: [RecordJsonCache, SharedReads, STREAM_GROUP_PORT],
})
export class StreamingModule {}
