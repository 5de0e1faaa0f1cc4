// v3 produce: one record per request (or, sent chunked, a stream of concatenated records answered by a stream of
// delivery reports in order), and `records:batch` (207 with successes and failures). Record fields follow
// Confluent's ProduceRequest: partition_id, headers [{name, value(base64)}], key/value {type, data} (or with a
// schema: application/schemas/produce-fields.ts), timestamp, checked by produce-records.schema.ts. The
// Brook-Producer-* headers make a request idempotent (application/produce/produce.service.ts); in streaming mode the
// n-th record of the stream (from 0) has sequence Brook-Producer-Sequence + n. So does an Idempotency-Key
// (application/idempotence/idempotency-key.ts): a retry is answered from the kept outcome with Idempotent-Replayed;
// in streaming mode each record is keyed by its position in the stream, and its report rebuilt alike; the head is
// written before the records are read, so it carries no Idempotent-Replayed: a replayed record's report carries
// `replayed: true` instead (as the WebSocket ack does).
import { once } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Inject,
  Optional,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrookError, errors, outcomeField, type OutcomeMarker } from '../../common/brook-error.js';
import type { Acks } from '../../replication/replica-manager.service.js';
import { StreamingBody } from '../body/json-body-parser.js';
import { JsonObjectSplitter } from '../body/json-object-splitter.js';
import { acksParam } from '../../application/params.js';
import {
  ProduceService,
  type IdempotentProducer,
  type ProduceOutcome,
} from '../../application/produce/produce.service.js';
import { producerFromHeaders } from '../../application/idempotence/producer-headers.js';
import {
  bodyDigest,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyFromHeaders,
  keyProducer,
} from '../../application/idempotence/idempotency-key.js';
import { outcomesReplayed, requestProducer } from '../../application/idempotence/request-producer.js';
import { principalOf } from '../security/security-hooks.js';
import { incrementSequence } from '../../partition-log/producer-state.js';
import { SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { KnownClusterGuard } from './known-cluster.guard.js';
import { batchEntries, parseRecord, type ParsedRecord } from './produce-records.schema.js';
import { type Clock, CLOCK, systemClock } from '../../common/clock.js';

/** What follows every delivery report of a streaming produce (Confluent's separator). */
export const REPORT_SEPARATOR = '\r\n';

@Controller('v3/clusters/:cluster_id/topics/:topic_name')
@UseGuards(KnownClusterGuard)
export class V3ProduceController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly producer: ProduceService,
    private readonly serde: SchemaSerde,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  @Post('records')
  @HttpCode(200)
  async produce(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Query('acks') acksText: string | undefined,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const acks = acksParam(acksText);
    const scope = { principal: principalOf(request), topic };
    if (body instanceof StreamingBody) {
      const key = idempotencyKeyFromHeaders(headers);
      const producer = key === null ? producerFromHeaders(headers) : requestProducer(headers, scope, () => []);
      const keyed = key === null ? null : { ...scope, key };
      return this.produceStream(clusterId, topic, acks, body, reply, key === null ? producer : null, keyed);
    }
    const producer = requestProducer(headers, scope, () => ['v3 record', JSON.stringify(body)]);
    await this.producer.partitionCount(topic);
    const record = await parseRecord(this.serde, topic, body, 'record', this.clock.nowMs());
    const [outcome] = await this.producer.produce(topic, [record.input], acks, producer);
    if (!outcome.ok) throw outcome.error;
    if (outcome.replayed === true) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return this.report(clusterId, topic, record, outcome);
  }

  @Post('records::batch')
  @HttpCode(207)
  async produceBatch(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Query('acks') acksText: string | undefined,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const acks = acksParam(acksText);
    const scope = { principal: principalOf(request), topic };
    const producer = requestProducer(headers, scope, () => ['v3 batch', JSON.stringify(body)]);
    const entries = batchEntries(body, this.config.produceBatchEntriesMax);
    await this.producer.partitionCount(topic);
    const failures: Array<{ id: string; error_code: number; message: string; outcome?: OutcomeMarker }> = [];
    const parsed: Array<{ id: string; record: ParsedRecord }> = [];
    const nowMs = this.clock.nowMs();
    for (const [i, entry] of entries.entries()) {
      try {
        const record = parseRecord(this.serde, topic, entry, `entries[${i}]`, nowMs);
        parsed.push({ id: entry.id, record: record instanceof Promise ? await record : record });
      } catch (error) {
        const failure = error instanceof BrookError ? error : errors.invalidPayload((error as Error).message);
        failures.push({ id: entry.id, error_code: failure.errorCode, message: failure.message });
      }
    }
    const outcomes =
      parsed.length > 0
        ? await this.producer.produce(
            topic,
            parsed.map((entry) => entry.record.input),
            acks,
            producer,
          )
        : [];
    if (outcomesReplayed(outcomes)) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    const successes: object[] = [];
    outcomes.forEach((outcome, i) => {
      const { id, record } = parsed[i];
      if (outcome.ok) successes.push({ id, ...this.report(clusterId, topic, record, outcome) });
      else {
        const { error } = outcome;
        failures.push({ id, error_code: error.errorCode, message: error.message, ...outcomeField(error) });
      }
    });
    return { successes, failures };
  }

  /**
   * Streaming mode: records are produced one at a time as they arrive; reports are written in the same order, each
   * followed by CRLF as Confluent writes them, so that line readers get one report per line as it is ready. The
   * head is written with the first report: a stream that carried no record at all is refused as an empty body.
   */
  private async produceStream(
    clusterId: string,
    topic: string,
    acks: Acks,
    body: StreamingBody,
    reply: FastifyReply,
    producer: IdempotentProducer | null,
    keyed: { principal: string; topic: string; key: string } | null,
  ): Promise<void> {
    await this.producer.partitionCount(topic);
    const response = reply.raw;
    const splitter = new JsonObjectSplitter(this.config.socketRequestMaxBytes);
    const write = async (report: object): Promise<void> => {
      if (!response.headersSent) {
        reply.hijack();
        // with the headers hooks have set on the reply (request id, CORS), which a raw head would leave out
        response.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'application/json' });
      }
      // A client that sends records but does not read its reports is not read from either: memory stays bounded.
      if (!response.write(`${JSON.stringify(report)}${REPORT_SEPARATOR}`)) await once(response, 'drain');
    };
    let position = 0;
    try {
      for await (const chunk of body.stream) {
        for (const text of splitter.push(chunk as Buffer)) {
          const sequenced =
            keyed !== null
              ? keyProducer({ ...keyed, position }, bodyDigest('v3 stream record', text))
              : producer === null
                ? null
                : { ...producer, sequence: incrementSequence(producer.sequence, position) };
          position++;
          await write(await this.streamedReport(clusterId, topic, acks, text, sequenced));
        }
      }
      splitter.end();
    } catch (error) {
      const failure = error instanceof BrookError ? error : errors.badRequest((error as Error).message);
      await write({ error_code: failure.errorCode, message: failure.message });
    }
    if (!response.headersSent) throw errors.emptyBody();
    response.end();
  }

  private async streamedReport(
    clusterId: string,
    topic: string,
    acks: Acks,
    text: string,
    producer: IdempotentProducer | null,
  ): Promise<object> {
    try {
      const record = await parseRecord(this.serde, topic, JSON.parse(text) as unknown, 'record', this.clock.nowMs());
      const [outcome] = await this.producer.produce(topic, [record.input], acks, producer);
      if (!outcome.ok) throw outcome.error;
      const report = this.report(clusterId, topic, record, outcome);
      return outcome.replayed === true ? { ...report, replayed: true } : report;
    } catch (error) {
      const failure =
        error instanceof BrookError ? error : errors.badRequest(`Malformed record: ${(error as Error).message}`);
      return { error_code: failure.errorCode, message: failure.message, ...outcomeField(failure) };
    }
  }

  private report(
    clusterId: string,
    topic: string,
    record: ParsedRecord,
    outcome: Extract<ProduceOutcome, { ok: true }>,
  ) {
    return {
      error_code: 200,
      cluster_id: clusterId,
      topic_name: topic,
      partition_id: outcome.partition,
      offset: outcome.offset,
      timestamp: new Date(outcome.timestampMs).toISOString(),
      ...(record.key ? { key: record.key } : {}),
      ...(record.value ? { value: record.value } : {}),
    };
  }
}
