// Confluent's v3 ACL routes: GET /v3/clusters/{c}/acls (search by query parameters), POST (create one binding,
// 201), POST .../acls:batch (create every binding of `data`, 201; one bad entry refuses the whole batch), DELETE
// (delete every binding matching the query parameters; answers them). Field names and values are Confluent's
// (resource_type, resource_name, pattern_type, principal, host, operation, permission); the inputs are checked by
// the DTOs of acls.dto.ts.
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards, UsePipes } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { Inject } from '@nestjs/common';
import type { AclBinding } from '../../security/acl.js';
import { ACL_COUNT_MAX, AclStore } from '../../security/acl-store.service.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { AclBatchDto, AclDeleteQuery, AclFilterQuery, CreateAclDto } from './acls.dto.js';
import { KnownClusterGuard } from './known-cluster.guard.js';

@Controller('v3/clusters/:cluster_id')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class AclController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly acls: AclStore,
  ) {}

  @Get('acls')
  search(@Param('cluster_id') clusterId: string, @Query() query: AclFilterQuery, @Req() request: FastifyRequest) {
    const self = `${this.base(clusterId)}${queryString(request.query as Record<string, unknown>)}`;
    return {
      kind: 'KafkaAclList',
      metadata: { self, next: null },
      data: this.acls.search(query.filter()).map((acl) => this.aclData(clusterId, acl)),
    };
  }

  @Post('acls')
  @HttpCode(201)
  async create(@Body() body: CreateAclDto) {
    if (this.acls.all().length >= ACL_COUNT_MAX)
      throw errors.invalidRequest(`At most ${ACL_COUNT_MAX} ACLs can be stored.`);
    await this.acls.create(body.binding());
  }

  @Post('acls::batch')
  @HttpCode(201)
  async createBatch(@Body() body: AclBatchDto) {
    const bindings = body.bindings();
    if (this.acls.all().length + bindings.length > ACL_COUNT_MAX)
      throw errors.invalidRequest(`At most ${ACL_COUNT_MAX} ACLs can be stored.`);
    await this.acls.createAll(bindings);
  }

  @Delete('acls')
  async delete(@Param('cluster_id') clusterId: string, @Query() query: AclDeleteQuery) {
    const deleted = await this.acls.delete(query.filter());
    return { data: deleted.map((acl) => this.aclData(clusterId, acl)) };
  }

  private base(clusterId: string): string {
    return `${this.config.advertisedUrl}/v3/clusters/${encodeURIComponent(clusterId)}/acls`;
  }

  private aclData(clusterId: string, acl: AclBinding) {
    const { resource_type, resource_name, pattern_type, principal, host, operation, permission } = acl;
    const fields = { resource_type, resource_name, pattern_type, principal, host, operation, permission };
    return {
      kind: 'KafkaAcl',
      metadata: { self: `${this.base(clusterId)}${queryString(fields)}` },
      cluster_id: clusterId,
      ...fields,
    };
  }
}

function queryString(fields: Record<string, unknown>): string {
  const entries = Object.entries(fields).filter(([, value]) => typeof value === 'string') as Array<[string, string]>;
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}
