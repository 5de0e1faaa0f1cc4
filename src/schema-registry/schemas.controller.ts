// Confluent Schema Registry's schema routes: a schema by its global id (with its bare text, the subjects and the
// versions that hold it, those the caller may DESCRIBE) and the schema types the registry knows.
import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SchemaQueries } from '../application/schemas/schema-queries.service.js';
import { Authorizer } from '../security/authorizer.service.js';
import { describableSubjects, flag, schemaIdParam } from './registry-http.js';

@Controller('schemas')
export class SchemasController {
  constructor(
    private readonly queries: SchemaQueries,
    private readonly authorizer: Authorizer,
  ) {}

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
  async subjects(
    @Param('id') id: string,
    @Query('deleted') deleted: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const visible = describableSubjects(this.authorizer, request);
    return (await this.queries.subjectsOfId(schemaIdParam(id), flag(deleted))).filter(visible);
  }

  @Get('ids/:id/versions')
  async versions(
    @Param('id') id: string,
    @Query('deleted') deleted: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const visible = describableSubjects(this.authorizer, request);
    return (await this.queries.versionsOfId(schemaIdParam(id), flag(deleted))).filter(({ subject }) =>
      visible(subject),
    );
  }
}
