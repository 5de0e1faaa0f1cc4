// Confluent Schema Registry's schema routes: a schema by its global id (with its bare text, the subjects and the
// versions that hold it) and the schema types the registry knows.
import { Controller, Get, Param, Query } from '@nestjs/common';
import { SchemaQueries } from '../application/schemas/schema-queries.service.js';
import { flag, schemaIdParam } from './registry-http.js';

@Controller('schemas')
export class SchemasController {
  constructor(private readonly queries: SchemaQueries) {}

  @Get('types')
  types() {
    return this.queries.types();
  }

  @Get('ids/:id')
  schema(@Param('id') id: string) {
    return this.queries.schemaByIdAnswer(schemaIdParam(id));
  }

  @Get('ids/:id/schema')
  async schemaText(@Param('id') id: string) {
    return (await this.queries.schemaById(schemaIdParam(id))).schema;
  }

  @Get('ids/:id/subjects')
  subjects(@Param('id') id: string, @Query('deleted') deleted: string | undefined) {
    return this.queries.subjectsOfId(schemaIdParam(id), flag(deleted));
  }

  @Get('ids/:id/versions')
  versions(@Param('id') id: string, @Query('deleted') deleted: string | undefined) {
    return this.queries.versionsOfId(schemaIdParam(id), flag(deleted));
  }
}
