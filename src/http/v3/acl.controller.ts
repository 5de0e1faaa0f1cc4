// Confluent's v3 ACL routes: GET /v3/clusters/{c}/acls (search by query parameters), POST (create one binding,
// 201), POST .../acls:batch (create every binding of `data`, 201; one bad entry refuses the whole batch), DELETE (delete every binding matching the query parameters; answers them). Field names and values are
// Confluent's (resource_type, resource_name, pattern_type, principal, host, operation, permission).
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { BrookError, errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { Inject } from '@nestjs/common';
import { AclError, parseBinding, parseFilter, type AclBinding, type AclFilter } from '../../security/acl.js';
import { ACL_COUNT_MAX, AclStore } from '../../security/acl-store.service.js';

/** Bound on the bindings of one acls:batch request. */
export const ACL_BATCH_MAX = 1_000;

@Controller('v3/clusters/:cluster_id')
export class AclController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly election: ControllerElection,
    private readonly acls: AclStore,
  ) {}

  @Get('acls')
  search(@Param('cluster_id') clusterId: string, @Query() query: Record<string, unknown>) {
    this.checkCluster(clusterId);
    const self = `${this.base(clusterId)}${queryString(query)}`;
    return {
      kind: 'KafkaAclList',
      metadata: { self, next: null },
      data: this.acls.search(filterOf(query)).map((acl) => this.aclData(clusterId, acl)),
    };
  }

  @Post('acls')
  @HttpCode(201)
  async create(@Param('cluster_id') clusterId: string, @Body() body: unknown) {
    this.checkCluster(clusterId);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw errors.invalidRequest('The request body must be a JSON object.');
    let binding: AclBinding;
    try {
      binding = parseBinding(body as Record<string, unknown>);
    } catch (error) {
      throw asBadRequest(error);
    }
    if (this.acls.all().length >= ACL_COUNT_MAX)
      throw errors.invalidRequest(`At most ${ACL_COUNT_MAX} ACLs can be stored.`);
    await this.acls.create(binding);
  }

  @Post('acls::batch')
  @HttpCode(201)
  async createBatch(@Param('cluster_id') clusterId: string, @Body() body: unknown) {
    this.checkCluster(clusterId);
    const data = (body as Record<string, unknown> | null)?.data;
    if (typeof body !== 'object' || body === null || !Array.isArray(data))
      throw errors.invalidRequest('The request body must be a JSON object with a data array.');
    if (data.length > ACL_BATCH_MAX) throw errors.invalidRequest(`At most ${ACL_BATCH_MAX} ACLs in one batch.`);
    const bindings = data.map((entry: unknown, i) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        throw errors.invalidRequest(`data[${i}] must be a JSON object.`);
      try {
        return parseBinding(entry as Record<string, unknown>);
      } catch (error) {
        const refused = asBadRequest(error);
        throw errors.invalidRequest(`data[${i}]: ${refused.message}`);
      }
    });
    if (this.acls.all().length + bindings.length > ACL_COUNT_MAX)
      throw errors.invalidRequest(`At most ${ACL_COUNT_MAX} ACLs can be stored.`);
    await this.acls.createAll(bindings);
  }

  @Delete('acls')
  async delete(@Param('cluster_id') clusterId: string, @Query() query: Record<string, unknown>) {
    this.checkCluster(clusterId);
    if (query.resource_type === undefined)
      throw errors.invalidRequest('resource_type is required (ANY deletes across types).');
    const deleted = await this.acls.delete(filterOf(query));
    return { data: deleted.map((acl) => this.aclData(clusterId, acl)) };
  }

  private checkCluster(clusterId: string): void {
    if (clusterId !== this.election.clusterId) throw errors.clusterNotFound(clusterId);
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

function filterOf(query: Record<string, unknown>): AclFilter {
  try {
    return parseFilter(query);
  } catch (error) {
    throw asBadRequest(error);
  }
}

function asBadRequest(error: unknown): BrookError {
  if (error instanceof AclError) return errors.invalidRequest(error.message);
  throw error;
}

function queryString(fields: Record<string, unknown>): string {
  const entries = Object.entries(fields).filter(([, value]) => typeof value === 'string') as Array<[string, string]>;
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}
