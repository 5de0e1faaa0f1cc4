// POST /v3/clusters/{cluster_id}/producers: a new producer id and epoch for the Brook-Producer-* headers of
// idempotent produce requests (Kafka's InitProducerId without a transactional id). The body is `{}`: a v3 write
// carries one (body/empty-body.ts), and this one has no field yet.
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { AdminService } from '../../application/admin/admin.service.js';
import { errors } from '../../common/brook-error.js';
import { ProducerIdService } from '../../application/idempotence/producer-ids.service.js';

@Controller('v3/clusters/:cluster_id/producers')
export class V3ProducersController {
  constructor(
    private readonly admin: AdminService,
    private readonly producerIds: ProducerIdService,
  ) {}

  @Post()
  @HttpCode(200)
  async initProducerId(@Param('cluster_id') clusterId: string, @Body() body: unknown) {
    this.admin.checkCluster(clusterId);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw errors.invalidRequest('The request body must be a JSON object.');
    const fields = Object.keys(body);
    if (fields.length > 0) throw errors.invalidRequest(`The request body takes no field; ${fields[0]} is unknown.`);
    const { producerId, producerEpoch } = await this.producerIds.initProducerId();
    return { kind: 'KafkaProducer', cluster_id: clusterId, producer_id: producerId, producer_epoch: producerEpoch };
  }
}
