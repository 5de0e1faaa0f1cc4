// v3 consumer groups: Confluent's read routes (groups, consumers, assignments and one assignment, lags, lag summary) and Brook's
// operator additions, reset offsets (POST .../offsets:reset, dry run by default) and delete a group.
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { describable, hostOf, principalOf } from '../security/security-hooks.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { ConsumerGroupsService, type ResetTarget } from '../../application/consumer-groups/consumer-groups.service.js';
import { FORWARDED_HEADER } from '../../cluster/peer-client.js';
import { asArray, asObject, optionalBoolean, type JsonObject } from '../body/json-shape.js';
import { integerParam, timestampParam } from '../../application/params.js';

const GROUP = 'v3/clusters/:cluster_id/consumer-groups/:consumer_group_id';

@Controller()
export class V3ConsumerGroupsController {
  constructor(
    private readonly admin: AdminService,
    private readonly groups: ConsumerGroupsService,
    private readonly authorizer: Authorizer,
  ) {}

  @Get('v3/clusters/:cluster_id/consumer-groups')
  async list(
    @Param('cluster_id') clusterId: string,
    @Headers(FORWARDED_HEADER) forwardedBy: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    const visible = describable(this.authorizer, request);
    const list = await this.groups.list(clusterId, forwardedBy !== undefined, {
      principal: principalOf(request),
      host: hostOf(request),
    });
    return { ...list, data: list.data.filter((group) => visible('GROUP', group.consumer_group_id)) };
  }

  @Get(GROUP)
  describe(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    this.admin.checkCluster(clusterId);
    return this.groups.describe(clusterId, groupId);
  }

  @Delete(GROUP)
  @HttpCode(204)
  async delete(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    this.admin.checkCluster(clusterId);
    await this.groups.deleteGroup(groupId);
  }

  @Get(`${GROUP}/consumers`)
  consumers(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    this.admin.checkCluster(clusterId);
    return this.groups.consumers(clusterId, groupId);
  }

  @Get(`${GROUP}/consumers/:consumer_id`)
  consumer(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.consumer(clusterId, groupId, consumerId);
  }

  @Get(`${GROUP}/consumers/:consumer_id/assignments`)
  assignments(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.assignments(clusterId, groupId, consumerId, this.describableTopics(request));
  }

  @Get(`${GROUP}/consumers/:consumer_id/assignments/:topic_name/partitions/:partition_id`)
  assignment(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.assignment(clusterId, groupId, consumerId, topic, integerParam(partitionId, 'partition_id'));
  }

  @Get(`${GROUP}/lags`)
  lags(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.lags(clusterId, groupId, this.describableTopics(request));
  }

  @Get(`${GROUP}/lags/:topic_name/partitions/:partition_id`)
  lag(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionText: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.lag(clusterId, groupId, topic, integerParam(partitionText, 'partition_id'));
  }

  @Get(`${GROUP}/lag-summary`)
  lagSummary(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    return this.groups.lagSummary(clusterId, groupId, this.describableTopics(request));
  }

  @Post(`${GROUP}/offsets::reset`)
  @HttpCode(200)
  reset(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string, @Body() body: unknown) {
    this.admin.checkCluster(clusterId);
    const request = asObject(body, 'request body');
    const dryRun = optionalBoolean(request, 'dry_run') ?? true;
    return this.groups.resetOffsets(clusterId, groupId, resetTarget(request), resetTopics(request), dryRun);
  }

  /** Lags and assignments name only topics the caller may describe (Kafka's rule for what a caller sees). */
  private describableTopics(request: FastifyRequest): (topic: string) => boolean {
    const visible = describable(this.authorizer, request);
    return (topic) => visible('TOPIC', topic);
  }
}

function resetTarget(request: JsonObject): ResetTarget {
  switch (request.to) {
    case 'earliest':
    case 'latest':
      return { to: request.to };
    case 'offset': {
      const offset = request.offset;
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
        throw errors.invalidRequest('offset must be a non-negative integer when to is offset.');
      }
      return { to: 'offset', offset };
    }
    case 'timestamp': {
      const raw = request.timestamp;
      if (typeof raw !== 'number' && typeof raw !== 'string') {
        throw errors.invalidRequest('timestamp (epoch ms or RFC 3339) is required when to is timestamp.');
      }
      return { to: 'timestamp', timestampMs: timestampParam(String(raw), 'timestamp') };
    }
    default:
      throw errors.invalidRequest('to must be earliest, latest, offset or timestamp.');
  }
}

function resetTopics(request: JsonObject): Array<{ topic: string; partitions: number[] | null }> | null {
  if (request.topics === undefined || request.topics === null) return null;
  return asArray(request.topics, 'topics').map((entry, i) => {
    const object = asObject(entry, `topics[${i}]`);
    if (typeof object.topic_name !== 'string' || object.topic_name.length === 0) {
      throw errors.invalidRequest(`topics[${i}].topic_name must be a topic name.`);
    }
    if (object.partitions === undefined || object.partitions === null)
      return { topic: object.topic_name, partitions: null };
    const partitions = asArray(object.partitions, `topics[${i}].partitions`).map((p, j) => {
      if (typeof p !== 'number' || !Number.isSafeInteger(p) || p < 0) {
        throw errors.invalidRequest(`topics[${i}].partitions[${j}] must be a non-negative integer.`);
      }
      return p;
    });
    return { topic: object.topic_name, partitions };
  });
}
