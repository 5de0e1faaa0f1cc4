// Brook's stateless read: GET .../partitions/{p}/records?offset=|timestamp=|from=earliest|latest&max_bytes=
// &max_records=&wait_ms=&format= (binary, json, string, or avro, jsonschema, protobuf: decoded with the registry's
// schemas). JSON answers {records, next_offset, high_watermark}; with
// `Accept: application/vnd.brook.batches` the stored batches are sent as they are (Kafka v2 layout), with
// X-Brook-Next-Offset and X-Brook-High-Watermark headers; the JSON answer's text is written by record-json.ts. The
// query is checked by records.dto.ts. The route's rights are checked before the handler; since a read may wait up
// to wait_ms, security's one read check is asked again once there is something to answer.
import { clientGoneSignal } from '../../common/client-gone.js';
import { Controller, Get, Headers, Param, Query, Res, UseGuards, UsePipes } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BrookError } from '../../common/brook-error.js';
import { ReadAccess } from '../../security/read-access.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { JsonTextBuffer, jsonSizeHint, recordsJsonFromBatches } from '../../application/record-json.js';
import { isSchemaReadFormat } from '../../application/schemas/schema-fields.js';
import { SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { batchesIn } from '../../partition-log/record-batch.js';
import { PARTITION_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { KnownClusterGuard } from './known-cluster.guard.js';
import { KnownPartitionGuard } from './known-partition.guard.js';
import { ReadLimitsPipe, ReadRecordsQuery } from './records.dto.js';

export const BATCHES_MEDIA_TYPE = 'application/vnd.brook.batches';
/** What Fastify sends for an object it serialises. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

@Controller('v3/clusters/:cluster_id/topics/:topic_name/partitions/:partition_id')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class V3ReadController {
  constructor(
    private readonly replicas: PartitionRouter,
    private readonly metrics: Metrics,
    private readonly access: ReadAccess,
    private readonly serde: SchemaSerde,
  ) {}

  @Get('records')
  @UseGuards(KnownPartitionGuard)
  async read(
    @Param('topic_name') topic: string,
    @Param('partition_id', PARTITION_ID) partition: number,
    @Query(ReadLimitsPipe) query: ReadRecordsQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { format, max_bytes: maxBytes, max_records: maxRecords, wait_ms: waitMs } = query;
    const offset = await this.startOffset(topic, partition, query);
    const signal = clientGoneSignal(reply.raw);
    const result = await this.replicas.read(topic, partition, offset, { maxBytes, waitMs, signal });
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
    if (isSchemaReadFormat(format)) await this.serde.prepare(result.batches);
    // the answer's text is written here, records and all (record-json.ts), and sent as it is
    const out = new JsonTextBuffer(jsonSizeHint(result.batches));
    out.append('{"records":[');
    const { count, nextOffset } = recordsJsonFromBatches(
      out,
      result.batches,
      partition,
      format,
      offset,
      maxRecords,
      this.serde.lookup,
    );
    out.append(`],"next_offset":${nextOffset ?? result.nextOffset},"high_watermark":${result.highWatermark}}`);
    this.metrics.consumed(topic, count, result.batches.length);
    void reply.header('content-type', JSON_CONTENT_TYPE);
    return out.toBuffer();
  }

  private async startOffset(topic: string, partition: number, query: ReadRecordsQuery): Promise<number> {
    if (query.offset !== undefined) return query.offset;
    if (query.timestamp !== undefined) return this.replicas.offsetForTimestamp(topic, partition, query.timestamp);
    const offsets = await this.replicas.offsets(topic, partition);
    return query.from === 'latest' ? offsets.latest : offsets.earliest;
  }
}
