// POST /v3/clusters/{cluster_id}/producers: a new producer id and epoch for the Brook-Producer-* headers of
// idempotent produce requests (Kafka's InitProducerId without a transactional id).
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { AdminService } from '../../application/admin/admin.service.js';
import { ProducerIdService } from '../../application/idempotence/producer-ids.service.js';

@Controller('v3/clusters/:cluster_id/producers')
export class V3ProducersController {
  constructor(
    private readonly admin: AdminService,
    private readonly producerIds: ProducerIdService,
  ) {}

  @Post()
  @HttpCode(200)
  async initProducerId(@Param('cluster_id') clusterId: string) {
    this.admin.checkCluster(clusterId);
    const { producerId, producerEpoch } = await this.producerIds.initProducerId();
    return { kind: 'KafkaProducer', cluster_id: clusterId, producer_id: producerId, producer_epoch: producerEpoch };
  }
}
