// Confluent REST Proxy v3 admin routes: clusters, brokers (and the replicas each holds), topics, topic configs (of
// one topic or of all, `topics/-/configs`), partitions, replicas and the earliest/latest offsets of a partition. Each
// route validates its input and delegates; lists show what the caller may describe.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { Inject } from '@nestjs/common';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerService } from '../../controller-election/controller.service.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { describable } from '../security/security-hooks.js';
import { hostOf, principalOf } from '../../security/request-identity.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { booleanParam, integerParam } from '../../application/params.js';
import { asArray, asObject, optionalBoolean, optionalInteger, requiredString, type Json } from '../body/json-shape.js';

@Controller('v3/clusters')
export class V3AdminController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly admin: AdminService,
    private readonly controller: ControllerService,
    private readonly replicas: PartitionRouter,
    private readonly authorizer: Authorizer,
  ) {}

  @Get()
  clusters() {
    return this.admin.clusters();
  }

  @Get(':cluster_id')
  cluster(@Param('cluster_id') clusterId: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.cluster();
  }

  @Get(':cluster_id/brokers')
  brokers(@Param('cluster_id') clusterId: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.brokers();
  }

  @Get(':cluster_id/brokers/:broker_id')
  broker(@Param('cluster_id') clusterId: string, @Param('broker_id') brokerId: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.brokerById(integerParam(brokerId, 'broker_id'));
  }

  @Get(':cluster_id/brokers/:broker_id/partition-replicas')
  async brokerReplicas(
    @Param('cluster_id') clusterId: string,
    @Param('broker_id') brokerId: string,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    const visible = describable(this.authorizer, request);
    return this.admin.brokerReplicas(integerParam(brokerId, 'broker_id'), (topic) => visible('TOPIC', topic));
  }

  @Get(':cluster_id/topics/-/configs')
  allTopicConfigs(@Param('cluster_id') clusterId: string, @Req() request: FastifyRequest) {
    this.admin.checkCluster(clusterId);
    const principal = principalOf(request);
    const host = hostOf(request);
    return this.admin.allTopicConfigs((topic) =>
      this.authorizer.authorize(principal, host, 'DESCRIBE_CONFIGS', { type: 'TOPIC', name: topic }),
    );
  }

  @Get(':cluster_id/topics')
  topics(
    @Param('cluster_id') clusterId: string,
    @Query('include_internal') includeInternal: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    this.admin.checkCluster(clusterId);
    const visible = describable(this.authorizer, request);
    const list = this.admin.topics(booleanParam(includeInternal, 'include_internal'));
    return { ...list, data: list.data.filter((topic) => visible('TOPIC', topic.topic_name)) };
  }

  @Post(':cluster_id/topics')
  @HttpCode(201)
  async createTopic(@Param('cluster_id') clusterId: string, @Body() body: Json) {
    this.admin.checkCluster(clusterId);
    const request = asObject(body, 'request body');
    const name = requiredString(request, 'topic_name');
    const configs = asArray(request.configs ?? [], 'configs').map((entry, i) => {
      const config = asObject(entry, `configs[${i}]`);
      const value = config.value;
      if (value !== null && value !== undefined && typeof value !== 'string')
        throw errors.invalidRequest(`configs[${i}].value must be a string.`);
      return { name: requiredString(config, 'name', `configs[${i}].name`), value: (value ?? null) as string | null };
    });
    const assignment = await this.controller.createTopic({
      name,
      partitions: optionalInteger(request, 'partitions_count') ?? this.config.numPartitions,
      replicationFactor: optionalInteger(request, 'replication_factor') ?? this.config.defaultReplicationFactor,
      configs,
      validateOnly: optionalBoolean(request, 'validate_only') ?? false,
    });
    if (optionalBoolean(request, 'validate_only')) {
      return { ...this.admin.topic({ assignment, states: [], stateVersions: [], configs: {} }) };
    }
    return this.admin.topic(this.admin.topicOrThrow(name));
  }

  @Get(':cluster_id/topics/:topic_name')
  topic(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.topic(this.admin.topicOrThrow(topic));
  }

  @Patch(':cluster_id/topics/:topic_name')
  async updatePartitions(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Body() body: Json,
  ) {
    this.admin.checkCluster(clusterId);
    const count = optionalInteger(asObject(body, 'request body'), 'partitions_count');
    if (count === undefined) throw errors.invalidRequest('partitions_count is required.');
    await this.controller.addPartitions(topic, count);
    return this.admin.topic(this.admin.topicOrThrow(topic));
  }

  @Delete(':cluster_id/topics/:topic_name')
  @HttpCode(204)
  async deleteTopic(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string) {
    this.admin.checkCluster(clusterId);
    await this.controller.deleteTopic(topic);
  }

  @Get(':cluster_id/topics/:topic_name/configs')
  configs(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.topicConfigs(topic);
  }

  @Post(':cluster_id/topics/:topic_name/configs::alter')
  @HttpCode(204)
  async alterConfigs(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string, @Body() body: Json) {
    this.admin.checkCluster(clusterId);
    const request = asObject(body, 'request body');
    const changes = asArray(request.data, 'data').map((entry, i) => {
      const change = asObject(entry, `data[${i}]`);
      const operation = change.operation ?? 'SET';
      if (operation !== 'SET' && operation !== 'DELETE')
        throw errors.invalidRequest(`data[${i}].operation must be SET or DELETE.`);
      const value = change.value ?? null;
      if (value !== null && typeof value !== 'string')
        throw errors.invalidRequest(`data[${i}].value must be a string.`);
      return {
        name: requiredString(change, 'name', `data[${i}].name`),
        value: value as string | null,
        operation: operation as 'SET' | 'DELETE',
      };
    });
    if (optionalBoolean(request, 'validate_only')) return;
    await this.controller.alterConfigs(topic, changes);
  }

  @Get(':cluster_id/topics/:topic_name/configs/:name')
  topicConfig(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string, @Param('name') name: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.topicConfigByName(topic, name);
  }

  @Put(':cluster_id/topics/:topic_name/configs/:name')
  @HttpCode(204)
  async putConfig(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('name') name: string,
    @Body() body: Json,
  ) {
    this.admin.checkCluster(clusterId);
    const value = asObject(body, 'request body').value;
    if (typeof value !== 'string') throw errors.invalidRequest('value must be a string.');
    await this.controller.alterConfigs(topic, [{ name, value, operation: 'SET' }]);
  }

  @Delete(':cluster_id/topics/:topic_name/configs/:name')
  @HttpCode(204)
  async deleteConfig(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('name') name: string,
  ) {
    this.admin.checkCluster(clusterId);
    this.admin.topicConfigByName(topic, name);
    await this.controller.alterConfigs(topic, [{ name, value: null, operation: 'DELETE' }]);
  }

  @Get(':cluster_id/topics/:topic_name/partitions')
  partitions(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string) {
    this.admin.checkCluster(clusterId);
    return this.admin.partitions(topic);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id')
  partition(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
  ) {
    this.admin.checkCluster(clusterId);
    const partition = integerParam(partitionId, 'partition_id');
    return this.admin.partition(this.admin.partitionOrThrow(topic, partition), partition);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/replicas')
  replicasOf(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.admin.replicas(topic, integerParam(partitionId, 'partition_id'));
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/replicas/:broker_id')
  replica(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
    @Param('broker_id') brokerId: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.admin.replica(topic, integerParam(partitionId, 'partition_id'), integerParam(brokerId, 'broker_id'));
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/offset')
  async offset(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
    @Query('offset_type') offsetType?: string,
  ) {
    this.admin.checkCluster(clusterId);
    if (offsetType !== undefined && offsetType !== 'earliest_and_latest') {
      throw errors.badRequest(`offset_type must be earliest_and_latest, got '${offsetType}'.`);
    }
    const partition = integerParam(partitionId, 'partition_id');
    this.admin.partitionOrThrow(topic, partition);
    return this.admin.partitionOffsets(topic, partition, await this.replicas.offsets(topic, partition));
  }
}
