// REST Proxy v2 consumer instances: Confluent's routes under /consumers/{group_name}, delegated to the
// ConsumerInstances service. Confluent's statuses: 200 with {instance_id, base_uri} on create, 204 for
// subscription, assignment and position changes and for delete, 200 with [{topic, partition, consumed, committed}]
// for commits; 40403 unknown instance, 40902 instance exists, 40601 wrong embedded format in Accept, 42204 bad
// config, 40901 subscription conflict, 40903 a seek on a partition the instance is not assigned.
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';
import { ReadAccess } from '../../security/read-access.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import { parseJson } from '../body/json-body-parser.js';
import { asArray, asObject, type JsonObject } from '../body/json-shape.js';
import { integerParam } from '../../application/params.js';
import { readUnparsedBody } from '../body/unparsed-body.js';

const INSTANCE = 'consumers/:group_name/instances/:instance';
const MEDIA_TYPES = {
  binary: 'application/vnd.kafka.binary.v2+json',
  json: 'application/vnd.kafka.json.v2+json',
} as const;

@Controller()
export class V2ConsumerController {
  constructor(
    private readonly instances: ConsumerInstances,
    private readonly access: ReadAccess,
  ) {}

  @Post('consumers/:group_name')
  @HttpCode(200)
  create(@Param('group_name') group: string, @Body() body: unknown) {
    return this.instances.create(group, body);
  }

  @Delete(INSTANCE)
  @HttpCode(204)
  async remove(@Param('group_name') group: string, @Param('instance') instance: string) {
    await this.instances.delete(group, instance);
  }

  @Post(`${INSTANCE}/subscription`)
  @HttpCode(204)
  async subscribe(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ) {
    const subscriber = { principal: principalOf(request), host: hostOf(request) };
    await this.instances.subscribe(group, instance, asObject(body ?? {}, 'request body'), subscriber);
  }

  @Get(`${INSTANCE}/subscription`)
  subscription(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Req() request: FastifyRequest,
  ) {
    return this.instances.subscription(group, instance, this.describable(request));
  }

  @Delete(`${INSTANCE}/subscription`)
  @HttpCode(204)
  async unsubscribe(@Param('group_name') group: string, @Param('instance') instance: string) {
    await this.instances.unsubscribe(group, instance);
  }

  @Post(`${INSTANCE}/assignments`)
  @HttpCode(204)
  async assign(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: unknown) {
    await this.instances.assign(group, instance, partitionsOf(body));
  }

  @Get(`${INSTANCE}/assignments`)
  assignments(@Param('group_name') group: string, @Param('instance') instance: string, @Req() request: FastifyRequest) {
    return { partitions: this.instances.assignments(group, instance, this.describable(request)) };
  }

  @Post(`${INSTANCE}/positions`)
  @HttpCode(204)
  async seek(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: unknown) {
    await this.instances.seek(group, instance, offsetsOf(body));
  }

  @Post(`${INSTANCE}/positions/beginning`)
  @HttpCode(204)
  async seekToBeginning(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Body() body: unknown,
  ) {
    await this.instances.seekToEdge(group, instance, partitionsOf(body), 'beginning');
  }

  @Post(`${INSTANCE}/positions/end`)
  @HttpCode(204)
  async seekToEnd(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: unknown) {
    await this.instances.seekToEdge(group, instance, partitionsOf(body), 'end');
  }

  @Get(`${INSTANCE}/records`)
  async records(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Query() query: Record<string, string | undefined>,
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const format = this.instances.format(group, instance);
    const other = format === 'binary' ? 'json' : 'binary';
    if (accept?.includes(MEDIA_TYPES[other]) && !accept.includes(MEDIA_TYPES[format])) {
      throw errors.consumerFormatMismatch(
        `The requested embedded data format (${other}) does not match the deserializer for this consumer instance (${format}).`,
      );
    }
    const timeoutMs = query.timeout === undefined ? null : integerParam(query.timeout, 'timeout');
    const maxBytes = query.max_bytes === undefined ? null : integerParam(query.max_bytes, 'max_bytes', { min: 1 });
    const reader = { principal: principalOf(request), host: hostOf(request), path: 'rest.poll', requestId: request.id };
    const mayRead = this.access.forReader(reader);
    const records = await this.instances.poll(group, instance, { timeoutMs, maxBytes, mayRead });
    void reply.header('content-type', MEDIA_TYPES[format]);
    return records;
  }

  @Post(`${INSTANCE}/offsets`)
  @HttpCode(200)
  commit(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: unknown) {
    const offsets = isEmptyBody(body) ? null : offsetsOf(body);
    return this.instances.commit(group, instance, offsets);
  }

  @Get(`${INSTANCE}/offsets`)
  async committed(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Query('partition') partitionQuery: string | string[] | undefined,
    @Req() request: FastifyRequest,
  ) {
    const fromQuery = [partitionQuery ?? []].flat().map(parsePartitionQuery);
    const body = fromQuery.length > 0 ? undefined : await readGetBody(request);
    const partitions = fromQuery.length > 0 ? fromQuery : body === undefined ? [] : partitionsOf(body);
    const visible = this.describable(request);
    return { offsets: this.instances.committed(group, instance, partitions).filter(({ topic }) => visible(topic)) };
  }

  /** Answers name only topics the caller may describe (Kafka lists what the caller may describe). */
  private describable(request: FastifyRequest): (topic: string) => boolean {
    const reader = { principal: principalOf(request), host: hostOf(request) };
    return (topic) => this.access.mayDescribe(reader, topic);
  }
}

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  if (typeof body !== 'object' || Array.isArray(body)) return false;
  const offsets = (body as JsonObject).offsets;
  return Object.keys(body).length === 0 || (Array.isArray(offsets) && offsets.length === 0);
}

function topicPartitionOf(entry: unknown, what: string): TopicPartition {
  const object = asObject(entry, what);
  const { topic, partition } = object;
  if (typeof topic !== 'string' || topic.length === 0)
    throw errors.invalidPayload(`${what}.topic must be a topic name.`);
  if (typeof partition !== 'number' || !Number.isSafeInteger(partition) || partition < 0) {
    throw errors.invalidPayload(`${what}.partition must be a non-negative integer.`);
  }
  return { topic, partition };
}

function partitionsOf(body: unknown): TopicPartition[] {
  const partitions = asArray(asObject(body ?? {}, 'request body').partitions, 'partitions');
  return partitions.map((entry, i) => topicPartitionOf(entry, `partitions[${i}]`));
}

function offsetsOf(body: unknown): Array<TopicPartition & { offset: number; metadata?: string }> {
  const offsets = asArray(asObject(body ?? {}, 'request body').offsets, 'offsets');
  return offsets.map((entry, i) => {
    const tp = topicPartitionOf(entry, `offsets[${i}]`);
    const { offset, metadata } = entry as JsonObject;
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
      throw errors.invalidPayload(`offsets[${i}].offset must be a non-negative integer.`);
    }
    if (metadata !== undefined && metadata !== null && typeof metadata !== 'string') {
      throw errors.invalidPayload(`offsets[${i}].metadata must be a string.`);
    }
    return { ...tp, offset, ...(typeof metadata === 'string' ? { metadata } : {}) };
  });
}

/** `?partition=topic:p`, Brook's alternative to a GET body (topic names cannot contain ':'). */
function parsePartitionQuery(raw: string): TopicPartition {
  const colon = raw.lastIndexOf(':');
  if (colon <= 0) throw errors.badRequest(`partition must look like topic:partition, got '${raw}'.`);
  return { topic: raw.slice(0, colon), partition: integerParam(raw.slice(colon + 1), 'partition') };
}

/** The committed-offsets query's body: Confluent sends it with GET, which Fastify leaves unparsed. */
async function readGetBody(request: FastifyRequest): Promise<unknown> {
  if (request.body !== undefined && request.body !== null) return request.body;
  const raw = await readUnparsedBody(request);
  return raw === null ? undefined : parseJson(raw);
}
