// Confluent REST Proxy v3 admin routes: clusters, brokers (and the replicas each holds), topics, topic configs (of
// one topic or of all, `topics/-/configs`), partitions, replicas and the earliest/latest offsets of a partition.
// Each route: the cluster guard, the DTO pipe, one call; lists show what the caller may describe.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { UseGuards, UsePipes } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { describable } from '../security/security-hooks.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { TopicAdminService } from '../../application/admin/topic-admin.service.js';
import { BROKER_ID, PARTITION_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { AlterConfigsDto, UpdateConfigDto } from './configs.dto.js';
import { KnownClusterGuard } from './known-cluster.guard.js';
import { PartitionOffsetQuery } from './partitions.dto.js';
import { CreateTopicDto, ListTopicsQuery, UpdatePartitionsDto } from './topics.dto.js';

@Controller('v3/clusters')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class V3AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly topicAdmin: TopicAdminService,
    private readonly replicas: PartitionRouter,
    private readonly authorizer: Authorizer,
  ) {}

  @Get()
  clusters() {
    return this.admin.clusters();
  }

  @Get(':cluster_id')
  cluster() {
    return this.admin.cluster();
  }

  @Get(':cluster_id/brokers')
  brokers() {
    return this.admin.brokers();
  }

  @Get(':cluster_id/brokers/:broker_id')
  broker(@Param('broker_id', BROKER_ID) brokerId: number) {
    return this.admin.brokerById(brokerId);
  }

  @Get(':cluster_id/brokers/:broker_id/partition-replicas')
  brokerReplicas(@Param('broker_id', BROKER_ID) brokerId: number, @Req() request: FastifyRequest) {
    const visible = describable(this.authorizer, request);
    return this.admin.brokerReplicas(brokerId, (topic) => visible('TOPIC', topic));
  }

  @Get(':cluster_id/topics/-/configs')
  allTopicConfigs(@Req() request: FastifyRequest) {
    const principal = principalOf(request);
    const host = hostOf(request);
    return this.admin.allTopicConfigs((topic) =>
      this.authorizer.authorize(principal, host, 'DESCRIBE_CONFIGS', { type: 'TOPIC', name: topic }),
    );
  }

  @Get(':cluster_id/topics')
  topics(@Query() query: ListTopicsQuery, @Req() request: FastifyRequest) {
    const visible = describable(this.authorizer, request);
    const list = this.admin.topics(query.include_internal);
    return { ...list, data: list.data.filter((topic) => visible('TOPIC', topic.topic_name)) };
  }

  @Post(':cluster_id/topics')
  @HttpCode(201)
  createTopic(@Body() body: CreateTopicDto) {
    return this.topicAdmin.create(body);
  }

  @Get(':cluster_id/topics/:topic_name')
  topic(@Param('topic_name') topic: string) {
    return this.admin.topic(this.admin.topicOrThrow(topic));
  }

  @Patch(':cluster_id/topics/:topic_name')
  updatePartitions(@Param('topic_name') topic: string, @Body() body: UpdatePartitionsDto) {
    return this.topicAdmin.addPartitions(topic, body.partitions_count);
  }

  @Delete(':cluster_id/topics/:topic_name')
  @HttpCode(204)
  async deleteTopic(@Param('topic_name') topic: string) {
    await this.topicAdmin.deleteTopic(topic);
  }

  @Get(':cluster_id/topics/:topic_name/configs')
  configs(@Param('topic_name') topic: string) {
    return this.admin.topicConfigs(topic);
  }

  @Post(':cluster_id/topics/:topic_name/configs::alter')
  @HttpCode(204)
  async alterConfigs(@Param('topic_name') topic: string, @Body() body: AlterConfigsDto) {
    await this.topicAdmin.alterConfigs(topic, body);
  }

  @Get(':cluster_id/topics/:topic_name/configs/:name')
  topicConfig(@Param('topic_name') topic: string, @Param('name') name: string) {
    return this.admin.topicConfigByName(topic, name);
  }

  @Put(':cluster_id/topics/:topic_name/configs/:name')
  @HttpCode(204)
  async putConfig(@Param('topic_name') topic: string, @Param('name') name: string, @Body() body: UpdateConfigDto) {
    await this.topicAdmin.setConfig(topic, name, body.value);
  }

  @Delete(':cluster_id/topics/:topic_name/configs/:name')
  @HttpCode(204)
  async deleteConfig(@Param('topic_name') topic: string, @Param('name') name: string) {
    await this.topicAdmin.deleteConfig(topic, name);
  }

  @Get(':cluster_id/topics/:topic_name/partitions')
  partitions(@Param('topic_name') topic: string) {
    return this.admin.partitions(topic);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id')
  partition(@Param('topic_name') topic: string, @Param('partition_id', PARTITION_ID) partition: number) {
    return this.admin.partition(this.admin.partitionOrThrow(topic, partition), partition);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/replicas')
  replicasOf(@Param('topic_name') topic: string, @Param('partition_id', PARTITION_ID) partition: number) {
    return this.admin.replicas(topic, partition);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/replicas/:broker_id')
  replica(
    @Param('topic_name') topic: string,
    @Param('partition_id', PARTITION_ID) partition: number,
    @Param('broker_id', BROKER_ID) brokerId: number,
  ) {
    return this.admin.replica(topic, partition, brokerId);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/offset')
  async offset(
    @Param('topic_name') topic: string,
    @Param('partition_id', PARTITION_ID) partition: number,
    @Query() _query: PartitionOffsetQuery,
  ) {
    this.admin.partitionOrThrow(topic, partition);
    return this.admin.partitionOffsets(topic, partition, await this.replicas.offsets(topic, partition));
  }
}
