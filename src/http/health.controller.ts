// Liveness, readiness, and the API description this broker serves (openapi.yaml from the repo root, as YAML and
// as JSON).
import { Controller, Get, Header, HttpStatus, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';

const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

@Controller()
export class HealthController {
  private readonly openapiYaml = readFileSync(OPENAPI_PATH, 'utf8');
  private readonly openapiJson = JSON.stringify(parse(this.openapiYaml));

  constructor(
    private readonly store: CoordinationStore,
    private readonly metadata: MetadataCache,
  ) {}

  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const coordination = await this.store
      .get('brook/cluster-id')
      .then((value) => value !== null)
      .catch(() => false);
    const checks = { coordination, metadata: this.metadata.loaded };
    const ready = coordination && this.metadata.loaded;
    void reply.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return { status: ready ? 'ready' : 'not_ready', checks };
  }

  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml')
  yaml() {
    return this.openapiYaml;
  }

  @Get('openapi.json')
  @Header('content-type', 'application/json')
  json() {
    return this.openapiJson;
  }
}
