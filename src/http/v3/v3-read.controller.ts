// Brook's stateless read: GET .../partitions/{p}/records?offset=|timestamp=|from=earliest|latest&max_bytes=
// &max_records=&wait_ms=&format=. JSON answers {records, next_offset, high_watermark}; with
// `Accept: application/vnd.brook.batches` the stored batches are sent as they are (Kafka v2 layout), with
// X-Brook-Next-Offset and X-Brook-High-Watermark headers. The route's rights are checked before the handler; since
// a read may wait up to wait_ms, security's one read check is asked again once there is something to answer.
import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ReadAccess } from '../../security/read-access.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import type { FastifyReply } from 'fastify';
import { BrookError, errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { integerParam, timestampParam } from '../../application/params.js';
import { recordsFromBatches, type ReadFormat } from '../../application/record-format.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { batchesIn } from '../../partition-log/record-batch.js';

export const BATCHES_MEDIA_TYPE = 'application/vnd.brook.batches';
const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_RECORDS = 500;
const MAX_RECORDS_LIMIT = 10_000;

@Controller('v3/clusters/:cluster_id/topics/:topic_name/partitions/:partition_id')
export class V3ReadController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly admin: AdminService,
    private readonly replicas: PartitionRouter,
    private readonly metrics: Metrics,
    private readonly access: ReadAccess,
  ) {}

  @Get('records')
  async read(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionText: string,
    @Query() query: Record<string, string | undefined>,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    this.admin.checkCluster(clusterId);
    const partition = integerParam(partitionText, 'partition_id');
    this.admin.partitionOrThrow(topic, partition);
    const format = (query.format ?? 'binary') as ReadFormat;
    if (!['binary', 'json', 'string'].includes(format))
      throw errors.badRequest(`format must be binary, json or string, got '${query.format}'.`);
    const maxBytes = integerParam(query.max_bytes, 'max_bytes', {
      min: 1,
      max: this.config.readBytesMax,
      fallback: DEFAULT_MAX_BYTES,
    });
    const maxRecords = integerParam(query.max_records, 'max_records', {
      min: 1,
      max: MAX_RECORDS_LIMIT,
      fallback: DEFAULT_MAX_RECORDS,
    });
    const waitMs = integerParam(query.wait_ms, 'wait_ms', { min: 0, max: this.config.readWaitMsMax, fallback: 0 });
    const offset = await this.startOffset(topic, partition, query);
    const abort = new AbortController();
    reply.raw.once('close', () => abort.abort());
    const result = await this.replicas.read(topic, partition, offset, { maxBytes, waitMs, signal: abort.signal });
    const reader = { principal: principalOf(reply.request), host: hostOf(reply.request), path: 'rest.read' };
    if (!this.access.mayRead({ ...reader, requestId: reply.request.id }, topic))
      throw new BrookError(403, 40301, `${reader.principal} is not authorized to READ topic '${topic}'.`);
    if (accept?.includes(BATCHES_MEDIA_TYPE)) {
      void reply
        .header('content-type', BATCHES_MEDIA_TYPE)
        .header('x-brook-next-offset', String(result.nextOffset))
        .header('x-brook-high-watermark', String(result.highWatermark));
      let count = 0;
      for (const { header } of batchesIn(result.batches)) count += header.recordCount;
      this.metrics.consumed(topic, count, result.batches.length);
      return result.batches;
    }
    const { records, nextOffset } = recordsFromBatches(result.batches, partition, format, offset, maxRecords);
    this.metrics.consumed(topic, records.length, result.batches.length);
    return { records, next_offset: nextOffset ?? result.nextOffset, high_watermark: result.highWatermark };
  }

  private async startOffset(
    topic: string,
    partition: number,
    query: Record<string, string | undefined>,
  ): Promise<number> {
    const given = ['offset', 'timestamp', 'from'].filter((name) => query[name] !== undefined);
    if (given.length > 1)
      throw errors.badRequest(`Give only one of offset, timestamp and from (got ${given.join(', ')}).`);
    if (query.offset !== undefined) return integerParam(query.offset, 'offset');
    if (query.timestamp !== undefined)
      return this.replicas.offsetForTimestamp(topic, partition, timestampParam(query.timestamp, 'timestamp'));
    const offsets = await this.replicas.offsets(topic, partition);
    const from = query.from ?? 'earliest';
    if (from === 'earliest') return offsets.earliest;
    if (from === 'latest') return offsets.latest;
    throw errors.badRequest(`from must be earliest or latest, got '${from}'.`);
  }
}
