// The schema registry's application layer: this broker's copy of `_schemas` (the store), the writer the leader of
// `_schemas` runs, the writes from any broker (forwarded to that leader), the reads, and records with schemas on
// the produce and read paths.
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { ReplicationModule } from '../../replication/replication.module.js';
import { TopicModule } from '../../topic/topic.module.js';
import { SchemaQueries } from './schema-queries.service.js';
import { SchemaRegistry } from './schema-registry.service.js';
import { SchemaSerde } from './schema-serde.service.js';
import { SchemaStore } from './schema-store.service.js';
import { SchemaWriter } from './schema-writer.js';

@Module({
  imports: [TopicModule, ReplicationModule, ControllerElectionModule],
  providers: [SchemaStore, SchemaWriter, SchemaRegistry, SchemaQueries, SchemaSerde],
  exports: [SchemaStore, SchemaRegistry, SchemaQueries, SchemaSerde],
})
export class SchemasModule {}
