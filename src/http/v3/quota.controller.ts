// Brook's client-quota routes (Kafka's kafka-configs.sh --entity-type users, as REST):
//   GET    /v3/clusters/{c}/client-quotas            every configured entity
//   GET    /v3/clusters/{c}/client-quotas/{entity}   one entity (User:alice or <default>)
//   PUT    /v3/clusters/{c}/client-quotas/{entity}   set producer_byte_rate, consumer_byte_rate, request_rate
//   DELETE /v3/clusters/{c}/client-quotas/{entity}   remove the entity's quotas
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put, UseGuards, UsePipes } from '@nestjs/common';
import { errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import type { QuotaValues } from '../../security/quota.js';
import { QuotaManager } from '../../security/quota-manager.service.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { PutQuotaDto, QUOTA_ENTITY } from './client-quotas.dto.js';
import { KnownClusterGuard } from './known-cluster.guard.js';

@Controller('v3/clusters/:cluster_id/client-quotas')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class QuotaController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly quotas: QuotaManager,
  ) {}

  @Get()
  list(@Param('cluster_id') clusterId: string) {
    const data = [...this.quotas.all()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([entity, values]) => this.quotaData(clusterId, entity, values));
    return { kind: 'KafkaClientQuotaList', metadata: { self: this.url(clusterId), next: null }, data };
  }

  @Get(':entity')
  get(@Param('cluster_id') clusterId: string, @Param('entity') entity: string) {
    const values = this.quotas.all().get(entity);
    if (values === undefined) throw errors.notFound(`No quotas are set for ${entity}.`);
    return this.quotaData(clusterId, entity, values);
  }

  @Put(':entity')
  async put(
    @Param('cluster_id') clusterId: string,
    @Param('entity', QUOTA_ENTITY) entity: string,
    @Body() body: PutQuotaDto,
  ) {
    const values = body.values();
    await this.quotas.put(entity, values);
    return this.quotaData(clusterId, entity, values);
  }

  @Delete(':entity')
  @HttpCode(204)
  async delete(@Param('cluster_id') clusterId: string, @Param('entity') entity: string) {
    if (!(await this.quotas.delete(entity))) throw errors.notFound(`No quotas are set for ${entity}.`);
  }

  private url(clusterId: string, entity?: string): string {
    const base = `${this.config.advertisedUrl}/v3/clusters/${encodeURIComponent(clusterId)}/client-quotas`;
    return entity === undefined ? base : `${base}/${encodeURIComponent(entity)}`;
  }

  private quotaData(clusterId: string, entity: string, values: QuotaValues) {
    return {
      kind: 'KafkaClientQuota',
      metadata: { self: this.url(clusterId, entity) },
      cluster_id: clusterId,
      entity,
      producer_byte_rate: values.producer_byte_rate ?? null,
      consumer_byte_rate: values.consumer_byte_rate ?? null,
      request_rate: values.request_rate ?? null,
    };
  }
}
