// The broker-to-broker route of the schema registry: a write a broker forwards to the leader of `_schemas`
// (application/schemas/schema-registry.service.ts), run here by the writer; 40404 when this broker does not lead
// `_schemas` (the sender reloads its metadata and tries the leader again). Not in openapi.yaml: not public.
import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { parseRegistryCommand } from '../application/schemas/registry-command-wire.js';
import { SchemaRegistry, SCHEMA_COMMANDS_PATH } from '../application/schemas/schema-registry.service.js';
import { ClusterSecretGuard } from './cluster-secret.guard.js';

@Controller(`internal/v1${SCHEMA_COMMANDS_PATH}`)
@UseGuards(ClusterSecretGuard)
export class SchemaRegistryInternalController {
  constructor(private readonly registry: SchemaRegistry) {}

  @Post()
  @HttpCode(200)
  command(@Body() body: unknown) {
    return this.registry.executeAsLeader(parseRegistryCommand(body));
  }
}
