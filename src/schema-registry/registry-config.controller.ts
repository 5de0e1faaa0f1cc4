// Confluent Schema Registry's configuration routes: compatibility levels (global and per subject, BACKWARD by
// default), modes (READWRITE, READONLY, IMPORT) and the compatibility check of a schema against a subject's
// versions (`?verbose=true` says why not).
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { SchemaQueries } from '../application/schemas/schema-queries.service.js';
import { SchemaRegistry } from '../application/schemas/schema-registry.service.js';
import { parseConfigBody, parseModeBody, parseSchemaBody } from './registry-bodies.js';
import { checkSubject, flag } from './registry-http.js';

@Controller()
export class RegistryConfigController {
  constructor(
    private readonly queries: SchemaQueries,
    private readonly registry: SchemaRegistry,
  ) {}

  @Get('config')
  globalConfig() {
    return this.queries.config(null, true);
  }

  @Put('config')
  setGlobalConfig(@Body() body: unknown) {
    return this.registry.execute({ op: 'set-config', subject: null, config: parseConfigBody(body) });
  }

  @Delete('config')
  deleteGlobalConfig() {
    return this.registry.execute({ op: 'delete-config', subject: null });
  }

  @Get('config/:subject')
  subjectConfig(@Param('subject') subject: string, @Query('defaultToGlobal') defaultToGlobal: string | undefined) {
    return this.queries.config(subject, flag(defaultToGlobal));
  }

  @Put('config/:subject')
  setSubjectConfig(@Param('subject') subject: string, @Body() body: unknown) {
    return this.registry.execute({ op: 'set-config', subject: checkSubject(subject), config: parseConfigBody(body) });
  }

  @Delete('config/:subject')
  deleteSubjectConfig(@Param('subject') subject: string) {
    return this.registry.execute({ op: 'delete-config', subject });
  }

  @Get('mode')
  globalMode() {
    return this.queries.mode(null, true);
  }

  @Put('mode')
  setGlobalMode(@Body() body: unknown, @Query('force') force: string | undefined) {
    return this.registry.execute({ op: 'set-mode', subject: null, mode: parseModeBody(body), force: flag(force) });
  }

  @Delete('mode')
  deleteGlobalMode() {
    return this.registry.execute({ op: 'delete-mode', subject: null });
  }

  @Get('mode/:subject')
  subjectMode(@Param('subject') subject: string, @Query('defaultToGlobal') defaultToGlobal: string | undefined) {
    return this.queries.mode(subject, flag(defaultToGlobal));
  }

  @Put('mode/:subject')
  setSubjectMode(@Param('subject') subject: string, @Body() body: unknown, @Query('force') force: string | undefined) {
    return this.registry.execute({
      op: 'set-mode',
      subject: checkSubject(subject),
      mode: parseModeBody(body),
      force: flag(force),
    });
  }

  @Delete('mode/:subject')
  deleteSubjectMode(@Param('subject') subject: string) {
    return this.registry.execute({ op: 'delete-mode', subject });
  }

  @Post('compatibility/subjects/:subject/versions/:version')
  @HttpCode(200)
  compatibleWithVersion(
    @Param('subject') subject: string,
    @Param('version') version: string,
    @Query('verbose') verbose: string | undefined,
    @Body() body: unknown,
  ) {
    return this.queries.compatibility(subject, version, parseSchemaBody(body).schema, flag(verbose));
  }

  @Post('compatibility/subjects/:subject/versions')
  @HttpCode(200)
  compatibleWithAll(
    @Param('subject') subject: string,
    @Query('verbose') verbose: string | undefined,
    @Body() body: unknown,
  ) {
    return this.queries.compatibility(subject, null, parseSchemaBody(body).schema, flag(verbose));
  }
}
