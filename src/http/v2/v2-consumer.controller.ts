// REST Proxy v2 consumer instances: Confluent's routes under /consumers/{group_name}, delegated to the
// ConsumerInstances service. Confluent's statuses: 200 with {instance_id, base_uri} on create, 204 for
// subscription, assignment and position changes and for delete, 200 with [{topic, partition, consumed, committed}]
// for commits; 40403 unknown instance, 40902 instance exists, 40601 wrong embedded format in Accept, 42204 bad
// config, 40901 subscription conflict, 40903 a seek on a partition the instance is not assigned. The bodies and
// queries are checked by the DTOs beside this file.
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { UseGuards, UsePipes } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';
import { ReadAccess } from '../../security/read-access.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import { parseJson } from '../body/json-body-parser.js';
import { readUnparsedBody } from '../body/unparsed-body.js';
import { RestValidationPipe, validateBody } from '../validation/rest-validation.pipe.js';
import { PartitionsDto } from './assignments.dto.js';
import { CONSUMER_MEDIA_TYPES, ConsumerFormatGuard } from './consumer-format.guard.js';
import { ConsumerRecordsQuery } from './consumer-records.dto.js';
import { CreateInstanceDto } from './consumer-instances.dto.js';
import { CommitOffsetsDto, CommittedOffsetsQuery } from './offsets.dto.js';
import { SeekDto } from './positions.dto.js';
import { SubscriptionDto } from './subscriptions.dto.js';

const INSTANCE = 'consumers/:group_name/instances/:instance';

@Controller()
@UsePipes(RestValidationPipe)
export class V2ConsumerController {
  constructor(
    private readonly instances: ConsumerInstances,
    private readonly access: ReadAccess,
  ) {}

  @Post('consumers/:group_name')
  @HttpCode(200)
  create(@Param('group_name') group: string, @Body() body: CreateInstanceDto) {
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
    @Body() body: SubscriptionDto,
    @Req() request: FastifyRequest,
  ) {
    const subscriber = { principal: principalOf(request), host: hostOf(request) };
    await this.instances.subscribe(group, instance, body, subscriber);
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
  async assign(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: PartitionsDto) {
    await this.instances.assign(group, instance, body.topicPartitions());
  }

  @Get(`${INSTANCE}/assignments`)
  assignments(@Param('group_name') group: string, @Param('instance') instance: string, @Req() request: FastifyRequest) {
    return { partitions: this.instances.assignments(group, instance, this.describable(request)) };
  }

  @Post(`${INSTANCE}/positions`)
  @HttpCode(204)
  async seek(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: SeekDto) {
    await this.instances.seek(group, instance, body.positions());
  }

  @Post(`${INSTANCE}/positions/beginning`)
  @HttpCode(204)
  async seekToBeginning(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Body() body: PartitionsDto,
  ) {
    await this.instances.seekToEdge(group, instance, body.topicPartitions(), 'beginning');
  }

  @Post(`${INSTANCE}/positions/end`)
  @HttpCode(204)
  async seekToEnd(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Body() body: PartitionsDto,
  ) {
    await this.instances.seekToEdge(group, instance, body.topicPartitions(), 'end');
  }

  @Get(`${INSTANCE}/records`)
  @UseGuards(ConsumerFormatGuard)
  async records(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Query() query: ConsumerRecordsQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const reader = { principal: principalOf(request), host: hostOf(request), path: 'rest.poll', requestId: request.id };
    const mayRead = this.access.forReader(reader);
    const options = { timeoutMs: query.timeout ?? null, maxBytes: query.max_bytes ?? null, mayRead };
    const records = await this.instances.poll(group, instance, options);
    void reply.header('content-type', CONSUMER_MEDIA_TYPES[this.instances.format(group, instance)]);
    return records;
  }

  @Post(`${INSTANCE}/offsets`)
  @HttpCode(200)
  commit(@Param('group_name') group: string, @Param('instance') instance: string, @Body() body: CommitOffsetsDto) {
    return this.instances.commit(group, instance, body.explicit());
  }

  @Get(`${INSTANCE}/offsets`)
  async committed(
    @Param('group_name') group: string,
    @Param('instance') instance: string,
    @Query() query: CommittedOffsetsQuery,
    @Req() request: FastifyRequest,
  ) {
    const partitions = query.partition === undefined ? await partitionsOfGetBody(request) : query.partitions();
    const visible = this.describable(request);
    return { offsets: this.instances.committed(group, instance, partitions).filter(({ topic }) => visible(topic)) };
  }

  /** Answers name only topics the caller may describe (Kafka lists what the caller may describe). */
  private describable(request: FastifyRequest): (topic: string) => boolean {
    const reader = { principal: principalOf(request), host: hostOf(request) };
    return (topic) => this.access.mayDescribe(reader, topic);
  }
}

/**
 * The partitions of the committed-offsets query sent as Confluent does, in a GET body (which Fastify leaves
 * unparsed), validated as PartitionsDto; none without a body.
 */
async function partitionsOfGetBody(request: FastifyRequest): Promise<TopicPartition[]> {
  const raw =
    request.body ?? (await readUnparsedBody(request).then((bytes) => (bytes === null ? undefined : parseJson(bytes))));
  if (raw === undefined) return [];
  return (await validateBody(PartitionsDto, raw)).topicPartitions();
}
