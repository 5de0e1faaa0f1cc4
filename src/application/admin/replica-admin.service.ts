// The replica admin resources: Confluent's v3 partition reassignments (ReassignmentData: the replicas being
// added and removed) read from the persisted commands, and the answers of Brook's write routes for starting or
// cancelling reassignments and electing leaders, which the controller carries out.
import { Injectable } from '@nestjs/common';
import { errors } from '../../common/brook-error.js';
import { REASSIGNMENTS_PREFIX, reassignmentKey } from '../../coordination/cluster-keys.js';
import { CoordinationStore } from '../../coordination/coordination-store.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { ControllerService } from '../../controller-election/controller.service.js';
import type { ElectionType } from '../../controller-election/leader-election.js';
import { reassignmentView, type ReassignmentCommand } from '../../controller-election/reassignment.js';
import { listReassignments, type ReassignmentRequest } from '../../controller-election/replica-admin.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { AdminService } from './admin.service.js';
import { listEnvelope, Urls } from '../urls.js';

/** Brook's body of POST .../partitions/-/reassignment: target replicas per partition, null to cancel. */
export interface AlterReassignmentsBody {
  partitions: Array<{ topic_name: string; partition_id: number; replicas: number[] | null }>;
}

/** Brook's body of POST .../partitions/-/leader-election: no partitions (or null) means every partition. */
export interface ElectLeadersBody {
  election_type: ElectionType;
  partitions?: Array<{ topic_name: string; partition_id: number }> | null;
}

@Injectable()
export class ReplicaAdminService {
  constructor(
    private readonly store: CoordinationStore,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
    private readonly admin: AdminService,
    private readonly controller: ControllerService,
    private readonly urls: Urls,
  ) {}

  /** Every reassignment in progress, or a topic's (404 for an unknown topic). */
  async list(topic?: string) {
    if (topic !== undefined) this.admin.topicOrThrow(topic);
    const prefix = topic === undefined ? REASSIGNMENTS_PREFIX : `${REASSIGNMENTS_PREFIX}${topic}/`;
    const self =
      topic === undefined
        ? this.urls.cluster(this.election.clusterId, 'topics', '-', 'partitions', '-', 'reassignment')
        : this.urls.cluster(this.election.clusterId, 'topics', topic, 'partitions', '-', 'reassignment');
    return this.envelope(self, await listReassignments(this.store, prefix));
  }

  /** One partition's reassignment; 404 when none is in progress. */
  async get(topic: string, partition: number) {
    this.admin.partitionOrThrow(topic, partition);
    const stored = await this.store.get(reassignmentKey(topic, partition));
    const command = stored === null ? null : (JSON.parse(stored.value) as ReassignmentCommand);
    if (command === null || command.topicId !== this.metadata.topic(topic)?.assignment.topicId) {
      throw errors.notFound(`No reassignment of ${topic}-${partition} is in progress.`);
    }
    return this.reassignment(command);
  }

  async alter(body: AlterReassignmentsBody) {
    const requests: ReassignmentRequest[] = body.partitions.map((entry) => ({
      topic: entry.topic_name,
      partition: entry.partition_id,
      replicas: entry.replicas,
    }));
    const commands = await this.controller.alterReassignments(requests);
    const self = this.urls.cluster(this.election.clusterId, 'topics', '-', 'partitions', '-', 'reassignment');
    return this.envelope(self, commands);
  }

  async elect(body: ElectLeadersBody) {
    const electionType = body.election_type;
    const partitions =
      body.partitions?.map((entry) => ({ topic: entry.topic_name, partition: entry.partition_id })) ?? null;
    const results = await this.controller.electLeaders({ electionType, partitions });
    const c = this.election.clusterId;
    return listEnvelope(
      'KafkaLeaderElectionResultList',
      this.urls.cluster(c, 'topics', '-', 'partitions', '-', 'leader-election'),
      results.map((result) => ({
        kind: 'KafkaLeaderElectionResult',
        cluster_id: c,
        topic_name: result.topic,
        partition_id: result.partition,
        election_type: electionType,
        leader_id: result.leader,
        error: result.error,
        message: result.message,
      })),
    );
  }

  private envelope(self: string, commands: ReassignmentCommand[]) {
    return listEnvelope(
      'KafkaReassignmentList',
      self,
      commands.map((command) => this.reassignment(command)),
    );
  }

  private reassignment(command: ReassignmentCommand) {
    const c = this.election.clusterId;
    const { topic, partition } = command;
    const current = this.metadata.topic(topic)?.assignment.replicas[partition] ?? command.original;
    const view = reassignmentView(command, current);
    return {
      kind: 'KafkaReassignment',
      metadata: {
        self: this.urls.cluster(c, 'topics', topic, 'partitions', partition, 'reassignment'),
        resource_name: `crn:///kafka=${c}/topic=${topic}/partition=${partition}`,
      },
      cluster_id: c,
      topic_name: topic,
      partition_id: partition,
      adding_replicas: view.adding,
      removing_replicas: view.removing,
      target_replicas: [...command.target],
      replicas: this.urls.related(this.urls.cluster(c, 'topics', topic, 'partitions', partition, 'replicas')),
    };
  }
}
