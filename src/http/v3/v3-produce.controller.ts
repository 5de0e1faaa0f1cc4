// v3 produce: one record per request (or, sent chunked, a stream of concatenated records answered by a stream of
// delivery reports in order), and `records:batch` (207 with successes and failures). Record fields follow
// Confluent's ProduceRequest: partition_id, headers [{name, value(base64)}], key/value {type, data} (or with a
// schema: application/schemas/produce-fields.ts), timestamp. The Brook-Producer-* headers make a request
// idempotent (application/produce/produce.service.ts); in streaming mode the n-th record of the stream (from 0) has
// sequence Brook-Producer-Sequence + n.
import { once } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import { Body, Controller, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BrookError, errors, outcomeField, type OutcomeMarker } from '../../common/brook-error.js';
import type { Acks } from '../../replication/replica-manager.service.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { StreamingBody } from '../body/json-body-parser.js';
import { asArray, asObject, type JsonObject } from '../body/json-shape.js';
import { JsonObjectSplitter } from '../body/json-object-splitter.js';
import { acksParam } from '../../application/params.js';
import {
  ProduceService,
  type IdempotentProducer,
  type ProduceInput,
  type ProduceOutcome,
} from '../../application/produce/produce.service.js';
import { producerFromHeaders } from '../../application/idempotence/producer-headers.js';
import { incrementSequence } from '../../partition-log/producer-state.js';
import { headersFromApi } from '../../application/record-format.js';
import { v3Field, type FieldBytes, type FieldReport } from '../../application/schemas/produce-fields.js';
import { SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { Inject } from '@nestjs/common';

/** What follows every delivery report of a streaming produce (Confluent's separator). */
export const REPORT_SEPARATOR = '\r\n';

interface ParsedRecord {
  input: ProduceInput;
  key: FieldReport | null;
  value: FieldReport | null;
}

@Controller('v3/clusters/:cluster_id/topics/:topic_name')
export class V3ProduceController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly admin: AdminService,
    private readonly producer: ProduceService,
    private readonly serde: SchemaSerde,
  ) {}

  @Post('records')
  @HttpCode(200)
  async produce(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Query('acks') acksText: string | undefined,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    this.admin.checkCluster(clusterId);
    const acks = acksParam(acksText);
    const producer = producerFromHeaders(headers);
    if (body instanceof StreamingBody) return this.produceStream(clusterId, topic, acks, body, reply, producer);
    await this.producer.partitionCount(topic);
    const record = await parseRecord(this.serde, topic, body, 'record');
    const [outcome] = await this.producer.produce(topic, [record.input], acks, producer);
    if (!outcome.ok) throw outcome.error;
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
  ) {
    this.admin.checkCluster(clusterId);
    const acks = acksParam(acksText);
    const producer = producerFromHeaders(headers);
    const entries = asArray(asObject(body, 'request body').entries, 'entries');
    if (entries.length === 0) throw new BrookError(400, 42208, 'entries must not be empty.');
    if (entries.length > this.config.produceBatchEntriesMax) {
      throw new BrookError(
        400,
        42208,
        `entries holds ${entries.length} records; at most ${this.config.produceBatchEntriesMax} are allowed.`,
      );
    }
    const ids = new Set<string>();
    const objects = entries.map((entry, i) => {
      const object = asObject(entry, `entries[${i}]`);
      const id = object.id;
      if (typeof id !== 'string' || id.length === 0 || id.length > 80)
        throw new BrookError(400, 42208, `entries[${i}].id must be a string of 1 to 80 characters.`);
      if (ids.has(id)) throw new BrookError(400, 42208, `entries ids must be distinct; '${id}' repeats.`);
      ids.add(id);
      return { id, object };
    });
    await this.producer.partitionCount(topic);
    const failures: Array<{ id: string; error_code: number; message: string; outcome?: OutcomeMarker }> = [];
    const parsed: Array<{ id: string; record: ParsedRecord }> = [];
    for (const [i, { id, object }] of objects.entries()) {
      try {
        const record = parseRecord(this.serde, topic, object, `entries[${i}]`);
        parsed.push({ id, record: record instanceof Promise ? await record : record });
      } catch (error) {
        const failure = error instanceof BrookError ? error : errors.invalidPayload((error as Error).message);
        failures.push({ id, error_code: failure.errorCode, message: failure.message });
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
            producer === null ? null : { ...producer, sequence: incrementSequence(producer.sequence, position) };
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
      const record = await parseRecord(this.serde, topic, JSON.parse(text) as unknown, 'record');
      const [outcome] = await this.producer.produce(topic, [record.input], acks, producer);
      if (!outcome.ok) throw outcome.error;
      return this.report(clusterId, topic, record, outcome);
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

/** A record of the request; a Promise only when one of its key and value needs a schema found or registered. */
function parseRecord(
  serde: SchemaSerde,
  topic: string,
  body: unknown,
  what: string,
): ParsedRecord | Promise<ParsedRecord> {
  const object: JsonObject = asObject(body, what);
  const partition = object.partition_id;
  if (
    partition !== undefined &&
    partition !== null &&
    (typeof partition !== 'number' || !Number.isSafeInteger(partition) || partition < 0)
  ) {
    throw errors.invalidPayload(`${what}.partition_id must be a non-negative integer.`);
  }
  const headersRaw = object.headers;
  if (headersRaw !== undefined && headersRaw !== null && !Array.isArray(headersRaw))
    throw errors.invalidPayload(`${what}.headers must be an array.`);
  const headers = headersFromApi(
    ((headersRaw as unknown[] | undefined) ?? []).map((header, i) => {
      const h = asObject(header, `${what}.headers[${i}]`);
      if (typeof h.name !== 'string') throw errors.invalidPayload(`${what}.headers[${i}].name must be a string.`);
      if (h.value !== undefined && h.value !== null && typeof h.value !== 'string')
        throw errors.invalidPayload(`${what}.headers[${i}].value must be base64.`);
      return { name: h.name, value: h.value as string | null | undefined };
    }),
  );
  let timestamp = Date.now();
  if (object.timestamp !== undefined && object.timestamp !== null) {
    const parsed = typeof object.timestamp === 'string' ? Date.parse(object.timestamp) : NaN;
    if (Number.isNaN(parsed) || parsed < 0)
      throw errors.invalidPayload(`${what}.timestamp must be an RFC 3339 date-time.`);
    timestamp = parsed;
  }
  const assemble = (key: FieldBytes, value: FieldBytes): ParsedRecord => ({
    input: {
      key: key.bytes,
      value: value.bytes,
      headers,
      timestamp,
      partition: partition as number | null | undefined,
    },
    key: key.report,
    value: value.report,
  });
  const key = v3Field(serde, topic, true, object.key, `${what}.key`);
  const value = v3Field(serde, topic, false, object.value, `${what}.value`);
  if (key instanceof Promise || value instanceof Promise) {
    return Promise.all([key, value]).then(([k, v]) => assemble(k, v));
  }
  return assemble(key, value);
}
