// Partition reassignments (Confluent's v3 read routes, plus Brook's POST to start or cancel them, which Confluent
// lacks) and on-demand leader election (Brook's, like Kafka's kafka-leader-election.sh). Each route validates its
// input and delegates; the controller does the work (controller-election/replica-admin.ts).
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { errors } from '../../common/brook-error.js';
import type { ElectionType } from '../../controller-election/leader-election.js';
import type { ReassignmentRequest } from '../../controller-election/replica-admin.js';
import { AdminService } from '../../application/admin/admin.service.js';
import { asArray, asObject, requiredString, type Json } from '../body/json-shape.js';
import { integerParam } from '../../application/params.js';
import { ReplicaAdminService } from '../../application/admin/replica-admin.service.js';

const ELECTION_TYPES: readonly ElectionType[] = ['PREFERRED', 'UNCLEAN'];

@Controller('v3/clusters')
export class V3ReplicaAdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly replicaAdmin: ReplicaAdminService,
  ) {}

  @Get(':cluster_id/topics/-/partitions/-/reassignment')
  listReassignments(@Param('cluster_id') clusterId: string) {
    this.admin.checkCluster(clusterId);
    return this.replicaAdmin.list();
  }

  @Post(':cluster_id/topics/-/partitions/-/reassignment')
  @HttpCode(202)
  alterReassignments(@Param('cluster_id') clusterId: string, @Body() body: Json) {
    this.admin.checkCluster(clusterId);
    return this.replicaAdmin.alter(parseReassignments(body));
  }

  @Get(':cluster_id/topics/:topic_name/partitions/-/reassignment')
  topicReassignments(@Param('cluster_id') clusterId: string, @Param('topic_name') topic: string) {
    this.admin.checkCluster(clusterId);
    return this.replicaAdmin.list(topic);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/reassignment')
  reassignment(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Param('partition_id') partitionId: string,
  ) {
    this.admin.checkCluster(clusterId);
    return this.replicaAdmin.get(topic, integerParam(partitionId, 'partition_id'));
  }

  @Post(':cluster_id/topics/-/partitions/-/leader-election')
  @HttpCode(200)
  electLeaders(@Param('cluster_id') clusterId: string, @Body() body: Json) {
    this.admin.checkCluster(clusterId);
    const request = asObject(body, 'request body');
    const type = request.election_type;
    if (typeof type !== 'string' || !ELECTION_TYPES.includes(type as ElectionType)) {
      throw errors.invalidRequest('election_type must be PREFERRED or UNCLEAN.');
    }
    const partitions =
      request.partitions === undefined || request.partitions === null
        ? null
        : asArray(request.partitions, 'partitions').map((entry, i) => topicPartition(entry, `partitions[${i}]`));
    return this.replicaAdmin.elect(type as ElectionType, partitions);
  }
}

function parseReassignments(body: Json): ReassignmentRequest[] {
  const request = asObject(body, 'request body');
  return asArray(request.partitions, 'partitions').map((entry, i) => {
    const what = `partitions[${i}]`;
    const { topic, partition } = topicPartition(entry, what);
    const replicas = asObject(entry, what).replicas;
    if (replicas === null) return { topic, partition, replicas: null };
    const list = asArray(replicas, `${what}.replicas (null cancels)`).map((broker) => {
      if (typeof broker !== 'number' || !Number.isSafeInteger(broker) || broker < 0) {
        throw errors.invalidRequest(`${what}.replicas must be broker ids (non-negative integers).`);
      }
      return broker;
    });
    return { topic, partition, replicas: list };
  });
}

function topicPartition(entry: unknown, what: string): { topic: string; partition: number } {
  const object = asObject(entry, what);
  const partition = object.partition_id;
  if (typeof partition !== 'number' || !Number.isSafeInteger(partition) || partition < 0) {
    throw errors.invalidRequest(`${what}.partition_id must be a non-negative integer.`);
  }
  return { topic: requiredString(object, 'topic_name', `${what}.topic_name`), partition };
}
