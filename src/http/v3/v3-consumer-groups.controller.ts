// v3 consumer groups: Confluent's read routes (groups, consumers, assignments and one assignment, lags, lag
// summary) and Brook's operator additions, reset offsets (POST .../offsets:reset, dry run by default) and delete a
// group. Each route: the cluster guard, the DTO pipe, one call.
import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Req,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Authorizer } from '../../security/authorizer.service.js';
import { describable, hostOf, principalOf } from '../security/security-hooks.js';
import { ConsumerGroupsService } from '../../application/consumer-groups/consumer-groups.service.js';
import { FORWARDED_HEADER } from '../../cluster/peer-client.js';
import { PARTITION_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { ResetOffsetsDto } from './consumer-groups.dto.js';
import { KnownClusterGuard } from './known-cluster.guard.js';

const GROUP = 'v3/clusters/:cluster_id/consumer-groups/:consumer_group_id';

@Controller()
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class V3ConsumerGroupsController {
  constructor(
    private readonly groups: ConsumerGroupsService,
    private readonly authorizer: Authorizer,
  ) {}

  @Get('v3/clusters/:cluster_id/consumer-groups')
  async list(
    @Param('cluster_id') clusterId: string,
    @Headers(FORWARDED_HEADER) forwardedBy: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const visible = describable(this.authorizer, request);
    const list = await this.groups.list(clusterId, forwardedBy !== undefined, {
      principal: principalOf(request),
      host: hostOf(request),
    });
    return { ...list, data: list.data.filter((group) => visible('GROUP', group.consumer_group_id)) };
  }

  @Get(GROUP)
  describe(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    return this.groups.describe(clusterId, groupId);
  }

  @Delete(GROUP)
  @HttpCode(204)
  async delete(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    await this.groups.deleteGroup(groupId);
  }

  @Get(`${GROUP}/consumers`)
  consumers(@Param('cluster_id') clusterId: string, @Param('consumer_group_id') groupId: string) {
    return this.groups.consumers(clusterId, groupId);
  }

  @Get(`${GROUP}/consumers/:consumer_id`)
  consumer(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
  ) {
    return this.groups.consumer(clusterId, groupId, consumerId);
  }

  @Get(`${GROUP}/consumers/:consumer_id/assignments`)
  assignments(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
    @Req() request: FastifyRequest,
  ) {
    return this.groups.assignments(clusterId, groupId, consumerId, this.describableTopics(request));
  }

  @Get(`${GROUP}/consumers/:consumer_id/assignments/:topic_name/partitions/:partition_id`)
  assignment(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('consumer_id') consumerId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id', PARTITION_ID) partition: number,
  ) {
    return this.groups.assignment(clusterId, groupId, consumerId, topic, partition);
  }

  @Get(`${GROUP}/lags`)
  lags(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Req() request: FastifyRequest,
  ) {
    return this.groups.lags(clusterId, groupId, this.describableTopics(request));
  }

  @Get(`${GROUP}/lags/:topic_name/partitions/:partition_id`)
  lag(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id', PARTITION_ID) partition: number,
  ) {
    return this.groups.lag(clusterId, groupId, topic, partition);
  }

  @Get(`${GROUP}/lag-summary`)
  lagSummary(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Req() request: FastifyRequest,
  ) {
    return this.groups.lagSummary(clusterId, groupId, this.describableTopics(request));
  }

  @Post(`${GROUP}/offsets::reset`)
  @HttpCode(200)
  reset(
    @Param('cluster_id') clusterId: string,
    @Param('consumer_group_id') groupId: string,
    @Body() body: ResetOffsetsDto,
  ) {
    return this.groups.resetOffsets(clusterId, groupId, body);
  }

  /** Lags and assignments name only topics the caller may describe (Kafka's rule for what a caller sees). */
  private describableTopics(request: FastifyRequest): (topic: string) => boolean {
    const visible = describable(this.authorizer, request);
    return (topic) => visible('TOPIC', topic);
  }
}
