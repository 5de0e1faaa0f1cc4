// REST Proxy v2 (application/vnd.kafka.v2+json and the embedded json/binary formats, and the schema formats of
// v2-schema-produce.ts): topic and partition
// metadata, partition offsets, brokers, and produce to a topic or a partition. Per-record failures are reported
// inside offsets[] with status 200, as Confluent does.
import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Optional,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { outcomeField, type BrookError } from '../../common/brook-error.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { describable, principalOf } from '../security/security-hooks.js';
import type { RequestLike } from '../../security/request-identity.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { acksParam, integerParam } from '../../application/params.js';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyFromHeaders,
} from '../../application/idempotence/idempotency-key.js';
import { producerFromHeaders } from '../../application/idempotence/producer-headers.js';
import { outcomesReplayed, requestProducer } from '../../application/idempotence/request-producer.js';
import { BATCH_HEADER_BYTES } from '../../partition-log/record-batch.js';
import { isInternalTopic } from '../../topic/topic-name.js';
import { PARTITION_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import {
  ProduceService,
  type IdempotentProducer,
  type ProduceOutcome,
  type ProduceResult,
  isReplay,
} from '../../application/produce/produce.service.js';
import { LaidOutRecords } from '../../application/produce/laid-out-records.js';
import { SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import type { SchemaType } from '../../application/schemas/schema-types.js';
import { v2SchemaRecordsEncoded, v2SchemaType } from './v2-schema-produce.js';
import { AnswerBuffers, consecutiveOffsetsAnswer } from './v2-answer.js';
import { v2ProduceInputs } from './produce-records.schema.js';
import { ListTopicsQuery } from './topics.dto.js';
import { parseJson, V2_JSON_FORMAT } from '../body/json-body-parser.js';
import { ScannedSchemaBody } from './v2-schema-body.js';
import type { Acks } from '../../replication/replica-manager.service.js';
import { type Clock, CLOCK, systemClock } from '../../common/clock.js';

export const V2_JSON = 'application/vnd.kafka.v2+json';

type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * What the produce routes use of Fastify's reply: setting a header, and the response under it. The v2 produce's
 * front route (v2-produce-route.ts) passes its own.
 */
export interface ProduceReply {
  header(name: string, value: string): unknown;
  readonly raw: ServerResponse;
}

@Controller()
export class V2Controller {
  private readonly answerBuffers = new AnswerBuffers();

  constructor(
    private readonly admin: AdminService,
    private readonly metadata: MetadataCache,
    private readonly replicas: PartitionRouter,
    private readonly election: ControllerElection,
    private readonly producer: ProduceService,
    private readonly authorizer: Authorizer,
    private readonly serde: SchemaSerde,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  /** Topic names; internal topics (`__consumer_offsets`) only with `include_internal=true`, as Confluent lists. */
  @Get('topics')
  topics(@Query(RestValidationPipe) query: ListTopicsQuery, @Req() request: FastifyRequest) {
    const internal = query.include_internal;
    const visible = describable(this.authorizer, request);
    return [...this.metadata.allTopics().keys()]
      .filter((topic) => (internal || !isInternalTopic(topic)) && visible('TOPIC', topic))
      .sort();
  }

  @Get('topics/:topic_name')
  topic(@Param('topic_name') topic: string) {
    return this.admin.v2Topic(topic);
  }

  @Get('topics/:topic_name/partitions')
  partitions(@Param('topic_name') topic: string) {
    const metadata = this.admin.topicOrThrow(topic);
    return metadata.assignment.replicas.map((_, partition) => this.admin.v2Partition(metadata, partition));
  }

  @Get('topics/:topic_name/partitions/:partition_id')
  partition(@Param('topic_name') topic: string, @Param('partition_id', PARTITION_ID) partition: number) {
    return this.admin.v2Partition(this.admin.partitionOrThrow(topic, partition), partition);
  }

  @Get('topics/:topic_name/partitions/:partition_id/offsets')
  async offsets(@Param('topic_name') topic: string, @Param('partition_id', PARTITION_ID) partition: number) {
    this.admin.partitionOrThrow(topic, partition);
    const offsets = await this.replicas.offsets(topic, partition);
    return { beginning_offset: offsets.earliest, end_offset: offsets.latest };
  }

  @Get('brokers')
  async brokers() {
    return { brokers: await this.election.liveBrokerIds() };
  }

  @Post('topics/:topic_name')
  @HttpCode(200)
  produceToTopic(
    @Param('topic_name') topic: string,
    @Query('acks') acks: string | undefined,
    @Headers() headers: RequestHeaders,
    @Body() body: unknown,
    @Req() request: RequestLike,
    @Res({ passthrough: true }) reply: ProduceReply,
  ) {
    return this.produce(topic, undefined, acks, headers, body, request, reply);
  }

  // The partition id is parsed here rather than by PARTITION_ID: a route with a pipe makes Nest settle its params
  // through an async step and a Promise.all on every request (~1.9 KiB of W1's allocation a request). The same
  // 400, before the acks check, as the pipe gave.
  @Post('topics/:topic_name/partitions/:partition_id')
  @HttpCode(200)
  produceToPartition(
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionText: string,
    @Query('acks') acks: string | undefined,
    @Headers() headers: RequestHeaders,
    @Body() body: unknown,
    @Req() request: RequestLike,
    @Res({ passthrough: true }) reply: ProduceReply,
  ) {
    return this.produce(topic, integerParam(partitionText, 'partition_id'), acks, headers, body, request, reply);
  }

  private async produce(
    topic: string,
    partition: number | undefined,
    acksText: string | undefined,
    headers: RequestHeaders,
    body: unknown,
    request: RequestLike,
    reply: ProduceReply,
  ) {
    const acks = acksParam(acksText);
    const contentType = headers['content-type'];
    // the key's scope and digest only for a request with an Idempotency-Key (most have none: no objects for them)
    const producer =
      idempotencyKeyFromHeaders(headers) === null
        ? producerFromHeaders(headers)
        : requestProducer(headers, { principal: principalOf(request), topic }, () => {
            const route = `v2 ${partition ?? ''} ${typeof contentType === 'string' ? contentType : ''}`;
            return body instanceof LaidOutRecords
              ? [route, body.data.subarray(BATCH_HEADER_BYTES, body.end), JSON.stringify(body.partitions)]
              : // a scanned schema body is fingerprinted as the same body parsed the full way is
                [route, JSON.stringify(body instanceof ScannedSchemaBody ? parseJson(body.text) : body)];
          });
    if (body instanceof LaidOutRecords) return this.produceScanned(topic, partition, acks, body, reply, producer);
    const schemaType = v2SchemaType(typeof contentType === 'string' ? contentType : undefined);
    if (schemaType !== undefined) {
      return this.produceWithSchemas(topic, partition, acks, schemaType, body, producer, reply);
    }
    const json = (typeof contentType === 'string' ? contentType : '').startsWith(V2_JSON_FORMAT);
    const inputs = v2ProduceInputs(body, json, partition, this.clock.nowMs());
    if (partition !== undefined) this.admin.partitionOrThrow(topic, partition);
    return v2ProduceAnswer(replayAnswered(reply, await this.producer.produce(topic, inputs, acks, producer)));
  }

  /**
   * Records in a schema format: their schemas found (or registered) first, their data in the wire format, laid out
   * as the binary scanner lays out its records, and produced and answered the same way.
   */
  private async produceWithSchemas(
    topic: string,
    partition: number | undefined,
    acks: Acks,
    schemaType: SchemaType,
    body: unknown,
    producer: IdempotentProducer | null,
    reply: ProduceReply,
  ): Promise<Buffer | string> {
    await this.producer.partitionCount(topic);
    if (partition !== undefined) this.admin.partitionOrThrow(topic, partition);
    const timestamp = this.clock.nowMs();
    const { records, keySchemaId, valueSchemaId } = await v2SchemaRecordsEncoded(this.serde, topic, schemaType, body);
    const result = await this.producer.produceScanned(topic, records, partition, timestamp, acks, producer);
    if (isReplay(result)) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return this.scannedAnswer(result, records.count, reply, keySchemaId, valueSchemaId);
  }

  /**
   * The fast path: records the body scanner read (well-formed, valid base64, integer partitions), so the checks
   * above cannot fail; the same order of request-level errors, and the same answer as produce() gives, written as
   * bytes or one string rather than 1,000 objects for the serialiser.
   */
  private async produceScanned(
    topic: string,
    partition: number | undefined,
    acks: Acks,
    records: LaidOutRecords,
    reply: ProduceReply,
    producer: IdempotentProducer | null,
  ): Promise<Buffer | string> {
    const timestamp = this.clock.nowMs();
    if (partition !== undefined) this.admin.partitionOrThrow(topic, partition);
    const result = await this.producer.produceScanned(topic, records, partition, timestamp, acks, producer);
    if (producer?.idempotencyKey === true && isReplay(result)) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return this.scannedAnswer(result, records.count, reply, null, null);
  }

  /** v2ScannedAnswer as the reply's JSON payload, its memory reused once the reply is written. */
  private scannedAnswer(
    result: ProduceResult,
    count: number,
    reply: ProduceReply,
    keySchemaId: number | null,
    valueSchemaId: number | null,
  ): Buffer | string {
    void reply.header('content-type', 'application/json; charset=utf-8');
    const answer = v2ScannedAnswer(result, count, this.answerBuffers, keySchemaId, valueSchemaId);
    // its memory goes to another answer once this one is written
    if (typeof answer !== 'string') reply.raw.once('finish', () => this.answerBuffers.release(answer));
    return answer;
  }
}

/** The outcomes, the Idempotent-Replayed header set on `reply` when they are all replays. */
function replayAnswered(reply: ProduceReply, outcomes: ProduceOutcome[]): ProduceOutcome[] {
  if (outcomesReplayed(outcomes)) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return outcomes;
}

/** The v2 produce answer: one offsets[] entry per record, in request order, and the schema ids used. */
export function v2ProduceAnswer(
  outcomes: ProduceOutcome[],
  keySchemaId: number | null = null,
  valueSchemaId: number | null = null,
) {
  return {
    offsets: outcomes.map((outcome) =>
      outcome.ok
        ? { partition: outcome.partition, offset: outcome.offset, error_code: null, error: null }
        : {
            partition: outcome.partition,
            offset: null,
            error_code: outcome.error.errorCode,
            error: outcome.error.message,
            ...outcomeField(outcome.error),
          },
    ),
    key_schema_id: keySchemaId,
    value_schema_id: valueSchemaId,
  };
}

/**
 * JSON.stringify(v2ProduceAnswer(outcomes, keySchemaId, valueSchemaId)) for the outcomes of a scanned request: written as bytes when every record
 * went to one partition at consecutive offsets (the common case; in memory from `buffers` when given), else built as
 * one string.
 */
export function v2ScannedAnswer(
  { refused, appended }: ProduceResult,
  count: number,
  buffers: AnswerBuffers | null = null,
  keySchemaId: number | null = null,
  valueSchemaId: number | null = null,
): Buffer | string {
  if (refused.size === 0 && appended.length === 1 && appended[0].error === null) {
    const { partition, info } = appended[0];
    const first = info === null ? -1 : info.firstOffset;
    return consecutiveOffsetsAnswer(partition, first, count, buffers, keySchemaId, valueSchemaId);
  }
  const entries = new Array<string>(count);
  for (const [i, { partition, error }] of refused) entries[i] = failedEntry(partition, error);
  for (const { partition, indexes, info, error } of appended) {
    if (error !== null) {
      const entry = failedEntry(partition, error);
      for (const i of indexes) entries[i] = entry;
      continue;
    }
    const head = `{"partition":${partition},"offset":`;
    for (let position = 0; position < indexes.length; position++) {
      const offset = info === null ? -1 : info.firstOffset + position;
      entries[indexes[position]] = head + offset + ',"error_code":null,"error":null}';
    }
  }
  return `{"offsets":[${entries.join(',')}],"key_schema_id":${keySchemaId},"value_schema_id":${valueSchemaId}}`;
}

function failedEntry(partition: number | null, error: BrookError): string {
  const outcome = error.outcome === undefined ? '' : `,"outcome":${JSON.stringify(error.outcome)}`;
  return `{"partition":${partition},"offset":null,"error_code":${error.errorCode},"error":${JSON.stringify(error.message)}${outcome}}`;
}
