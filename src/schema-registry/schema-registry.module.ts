// The schema registry edge: Confluent Schema Registry's REST routes (subjects, schemas, config, mode,
// compatibility) over the application layer's registry (application/schemas). install-schema-registry.ts sets
// their media type and their own listener.
import { Module } from '@nestjs/common';
import { SchemasModule } from '../application/schemas/schemas.module.js';
import { RegistryConfigController } from './registry-config.controller.js';
import { SchemasController } from './schemas.controller.js';
import { SubjectsController } from './subjects.controller.js';

@Module({
  imports: [SchemasModule],
  controllers: [SubjectsController, SchemasController, RegistryConfigController],
})
export class SchemaRegistryModule {}
