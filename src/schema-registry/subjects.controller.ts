// Confluent Schema Registry's subject routes: list subjects (those the caller may DESCRIBE), register / list /
// read / delete versions, look a schema up under a subject, delete a subject, and the schemas referencing a version. Reads come from this
// broker's copy of `_schemas`; writes go to the registry's leader (application/schemas).
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Authorizer } from '../security/authorizer.service.js';
import { parseVersionId } from '../application/schemas/registry-answers.js';
import { SchemaQueries } from '../application/schemas/schema-queries.service.js';
import { SchemaRegistry } from '../application/schemas/schema-registry.service.js';
import { parseSchemaBody } from './registry-bodies.js';
import { checkSubject, describableSubjects, flag } from './registry-http.js';

const VERSION = 'subjects/:subject/versions/:version';

@Controller()
export class SubjectsController {
  constructor(
    private readonly queries: SchemaQueries,
    private readonly registry: SchemaRegistry,
    private readonly authorizer: Authorizer,
  ) {}

  @Get('subjects')
  async subjects(
    @Query('deleted') deleted: string | undefined,
    @Query('subjectPrefix') prefix: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const visible = describableSubjects(this.authorizer, request);
    return (await this.queries.subjects(flag(deleted), prefix ?? '')).filter(visible);
  }

  @Post('subjects/:subject')
  @HttpCode(200)
  lookUp(
    @Param('subject') subject: string,
    @Query('normalize') normalize: string | undefined,
    @Query('deleted') deleted: string | undefined,
    @Body() body: unknown,
  ) {
    return this.queries.lookUp(subject, parseSchemaBody(body).schema, flag(normalize), flag(deleted));
  }

  @Delete('subjects/:subject')
  deleteSubject(@Param('subject') subject: string, @Query('permanent') permanent: string | undefined) {
    return this.registry.execute({ op: 'delete-subject', subject, permanent: flag(permanent) });
  }

  @Get('subjects/:subject/versions')
  versions(@Param('subject') subject: string, @Query('deleted') deleted: string | undefined) {
    return this.queries.versions(subject, flag(deleted));
  }

  @Post('subjects/:subject/versions')
  @HttpCode(200)
  register(
    @Param('subject') subject: string,
    @Query('normalize') normalize: string | undefined,
    @Body() body: unknown,
  ) {
    const { schema, id, version } = parseSchemaBody(body);
    return this.registry.execute({
      op: 'register',
      subject: checkSubject(subject),
      schema,
      normalize: flag(normalize),
      ...(id === undefined ? {} : { id }),
      ...(version === undefined ? {} : { version }),
    });
  }

  @Get(VERSION)
  version(
    @Param('subject') subject: string,
    @Param('version') version: string,
    @Query('deleted') deleted: string | undefined,
  ) {
    return this.queries.version(subject, version, flag(deleted));
  }

  @Get(`${VERSION}/schema`)
  schemaText(
    @Param('subject') subject: string,
    @Param('version') version: string,
    @Query('deleted') deleted: string | undefined,
  ) {
    return this.queries.versionSchemaText(subject, version, flag(deleted));
  }

  @Get(`${VERSION}/referencedby`)
  referencedBy(@Param('subject') subject: string, @Param('version') version: string) {
    return this.queries.referencedBy(subject, version);
  }

  @Delete(VERSION)
  deleteVersion(
    @Param('subject') subject: string,
    @Param('version') version: string,
    @Query('permanent') permanent: string | undefined,
  ) {
    return this.registry.execute({
      op: 'delete-version',
      subject,
      version: parseVersionId(version),
      permanent: flag(permanent),
    });
  }
}
