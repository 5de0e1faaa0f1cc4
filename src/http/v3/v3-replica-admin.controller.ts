// Partition reassignments (Confluent's v3 read routes, plus Brook's POST to start or cancel them, which Confluent
// lacks) and on-demand leader election (Brook's, like Kafka's kafka-leader-election.sh). Each route: the cluster
// guard, the DTO pipe, one call; the controller does the work (controller-election/replica-admin.ts).
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards, UsePipes } from '@nestjs/common';
import { ReplicaAdminService } from '../../application/admin/replica-admin.service.js';
import { PARTITION_ID } from '../validation/path-params.js';
import { RestValidationPipe } from '../validation/rest-validation.pipe.js';
import { KnownClusterGuard } from './known-cluster.guard.js';
import { ElectLeadersDto } from './leader-elections.dto.js';
import { AlterReassignmentsDto } from './reassignments.dto.js';

@Controller('v3/clusters')
@UseGuards(KnownClusterGuard)
@UsePipes(RestValidationPipe)
export class V3ReplicaAdminController {
  constructor(private readonly replicaAdmin: ReplicaAdminService) {}

  @Get(':cluster_id/topics/-/partitions/-/reassignment')
  listReassignments() {
    return this.replicaAdmin.list();
  }

  @Post(':cluster_id/topics/-/partitions/-/reassignment')
  @HttpCode(202)
  alterReassignments(@Body() body: AlterReassignmentsDto) {
    return this.replicaAdmin.alter(body);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/-/reassignment')
  topicReassignments(@Param('topic_name') topic: string) {
    return this.replicaAdmin.list(topic);
  }

  @Get(':cluster_id/topics/:topic_name/partitions/:partition_id/reassignment')
  reassignment(@Param('topic_name') topic: string, @Param('partition_id', PARTITION_ID) partition: number) {
    return this.replicaAdmin.get(topic, partition);
  }

  @Post(':cluster_id/topics/-/partitions/-/leader-election')
  @HttpCode(200)
  electLeaders(@Body() body: ElectLeadersDto) {
    return this.replicaAdmin.elect(body);
  }
}
