// The v3 consumer-group resources (Confluent's ConsumerGroupData, ConsumerData, ConsumerAssignmentData,
// ConsumerLagData, ConsumerGroupLagSummaryData) built from the group coordinator's state and the logs' end
// offsets, and Brook's operator actions: reset a group's offsets (with a dry-run plan) and delete a group.
import { Inject, Injectable } from '@nestjs/common';
import { CLIENT_HOST_HEADER, FORWARDED_HEADER, PeerClient, PRINCIPAL_HEADER } from '../../cluster/peer-client.js';
import { errors } from '../../common/brook-error.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import type { ConsumerGroup } from '../../group-coordinator/consumer-group.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { apiGroupState } from '../../group-coordinator/group-state.js';
import { topicPartitionKey } from '../../group-coordinator/group-records.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { listEnvelope, Urls } from '../urls.js';
import { resetTarget, resetTopics, type ResetOffsetsBody } from './reset-offsets-body.js';

/** May the caller describe this topic? Answers about a group leave out the topics it may not. */
export type TopicFilter = (topic: string) => boolean;

/** How long a broker waits for another's list of groups. */
const GROUP_LIST_TIMEOUT_MS = 5_000;

export interface PartitionLag extends TopicPartition {
  currentOffset: number;
  logEndOffset: number;
  lag: number;
  consumerId: string;
  instanceId: string | null;
  clientId: string;
}

@Injectable()
export class ConsumerGroupsService {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly coordinator: GroupCoordinator,
    private readonly router: PartitionRouter,
    private readonly urls: Urls,
    private readonly election: ControllerElection,
    private readonly peers: PeerClient,
  ) {}

  groupOrThrow(groupId: string): ConsumerGroup {
    this.coordinator.assertCoordinator(groupId);
    const group = this.coordinator.group(groupId);
    if (group === undefined || group.state === 'Dead') throw errors.groupNotFound(groupId);
    return group;
  }

  /**
   * The groups this broker coordinates and, unless `localOnly` (a request forwarded by another broker), those of
   * every other live broker, asked in parallel; a broker that does not answer in time is left out.
   */
  async list(clusterId: string, localOnly: boolean, caller: { principal: string; host: string }) {
    const local = this.coordinator
      .allGroups()
      .filter((group) => group.state !== 'Dead')
      .map((group) => this.groupData(clusterId, group));
    const remote: Array<{ consumer_group_id: string }> = [];
    if (this.config.redisUrl !== null && !localOnly) {
      const others = (await this.election.liveBrokerIds()).filter((id) => id !== this.config.brokerId);
      const answers = await Promise.all(others.map((id) => this.remoteGroups(id, clusterId, caller)));
      for (const answer of answers) remote.push(...answer);
    }
    const all = [...local, ...remote].sort((a, b) => a.consumer_group_id.localeCompare(b.consumer_group_id));
    return listEnvelope('KafkaConsumerGroupList', this.urls.cluster(clusterId, 'consumer-groups'), all);
  }

  /** The groups another broker coordinates, asked for the caller (its principal travels with the request). */
  private async remoteGroups(
    brokerId: number,
    clusterId: string,
    caller: { principal: string; host: string },
  ): Promise<Array<{ consumer_group_id: string }>> {
    const url = await this.peers.brokerUrl(brokerId);
    if (url === null) return [];
    try {
      const response = await this.peers.peerFetch(new URL(`/v3/clusters/${clusterId}/consumer-groups`, url), {
        method: 'GET',
        headers: {
          [FORWARDED_HEADER]: String(this.config.brokerId),
          [PRINCIPAL_HEADER]: caller.principal,
          [CLIENT_HOST_HEADER]: caller.host,
        },
        signal: AbortSignal.timeout(GROUP_LIST_TIMEOUT_MS),
      });
      if (!response.ok) return [];
      return ((await response.json()) as { data: Array<{ consumer_group_id: string }> }).data;
    } catch {
      return [];
    }
  }

  describe(clusterId: string, groupId: string) {
    return this.groupData(clusterId, this.groupOrThrow(groupId));
  }

  private groupData(clusterId: string, group: ConsumerGroup) {
    const self = this.urls.cluster(clusterId, 'consumer-groups', group.groupId);
    return {
      kind: 'KafkaConsumerGroup',
      metadata: { self, resource_name: `crn:///kafka=${clusterId}/consumer-group=${group.groupId}` },
      cluster_id: clusterId,
      consumer_group_id: group.groupId,
      is_simple: group.generation === 0 && group.members.size === 0,
      partition_assignor: group.partitionAssignor,
      state: apiGroupState(group.state),
      type: 'CLASSIC',
      is_mixed_consumer_group: false,
      coordinator: this.urls.related(this.urls.cluster(clusterId, 'brokers', this.config.brokerId)),
      consumers: this.urls.related(`${self}/consumers`),
      lag_summary: this.urls.related(`${self}/lag-summary`),
    };
  }

  consumers(clusterId: string, groupId: string) {
    const group = this.groupOrThrow(groupId);
    return listEnvelope(
      'KafkaConsumerList',
      this.urls.cluster(clusterId, 'consumer-groups', groupId, 'consumers'),
      [...group.members.keys()].sort().map((memberId) => this.consumerData(clusterId, group, memberId)),
    );
  }

  consumer(clusterId: string, groupId: string, consumerId: string) {
    const group = this.groupOrThrow(groupId);
    if (!group.members.has(consumerId))
      throw errors.notFound(`Consumer ${consumerId} of group ${groupId} cannot be found.`);
    return this.consumerData(clusterId, group, consumerId);
  }

  private consumerData(clusterId: string, group: ConsumerGroup, memberId: string) {
    const member = group.members.get(memberId)!;
    const self = this.urls.cluster(clusterId, 'consumer-groups', group.groupId, 'consumers', memberId);
    return {
      kind: 'KafkaConsumer',
      metadata: {
        self,
        resource_name: `crn:///kafka=${clusterId}/consumer-group=${group.groupId}/consumer=${memberId}`,
      },
      cluster_id: clusterId,
      consumer_group_id: group.groupId,
      consumer_id: memberId,
      instance_id: member.groupInstanceId,
      client_id: member.clientId,
      assignments: this.urls.related(`${self}/assignments`),
    };
  }

  assignments(clusterId: string, groupId: string, consumerId: string, visible: TopicFilter) {
    const group = this.groupOrThrow(groupId);
    const member = group.members.get(consumerId);
    if (member === undefined) throw errors.notFound(`Consumer ${consumerId} of group ${groupId} cannot be found.`);
    const self = this.urls.cluster(clusterId, 'consumer-groups', groupId, 'consumers', consumerId, 'assignments');
    return listEnvelope(
      'KafkaConsumerAssignmentList',
      self,
      [...member.assignment]
        .filter(({ topic }) => visible(topic))
        .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
        .map(({ topic, partition }) => ({
          kind: 'KafkaConsumerAssignment',
          metadata: {
            self: `${self}/${encodeURIComponent(topic)}/partitions/${partition}`,
            resource_name: `crn:///kafka=${clusterId}/consumer-group=${groupId}/consumer=${consumerId}/assignment=${topic}/partition=${partition}`,
          },
          cluster_id: clusterId,
          consumer_group_id: groupId,
          consumer_id: consumerId,
          topic_name: topic,
          partition_id: partition,
          partition: this.urls.related(this.urls.cluster(clusterId, 'topics', topic, 'partitions', partition)),
          lag: this.urls.related(
            this.urls.cluster(clusterId, 'consumer-groups', groupId, 'lags', topic, 'partitions', partition),
          ),
        })),
    );
  }

  /** One partition assigned to the consumer: 404 when it is not assigned that partition. */
  assignment(clusterId: string, groupId: string, consumerId: string, topic: string, partition: number) {
    const found = this.assignments(clusterId, groupId, consumerId, (name) => name === topic).data.find(
      (assigned) => assigned.partition_id === partition,
    );
    if (found === undefined) {
      throw errors.notFound(`Consumer ${consumerId} of group ${groupId} is not assigned ${topic}-${partition}.`);
    }
    return found;
  }

  /**
   * Per partition that the group has committed or that a member owns: the committed offset (-1 when none yet),
   * the log end offset (high watermark), and the lag (end minus committed; with no commit, the records there).
   * Only topics `visible` lets the caller describe are reported.
   */
  async partitionLags(groupId: string, visible: TopicFilter): Promise<PartitionLag[]> {
    const group = this.groupOrThrow(groupId);
    const owners = new Map<string, { memberId: string; instanceId: string | null; clientId: string }>();
    const partitions = new Map<string, TopicPartition>();
    for (const member of group.members.values()) {
      for (const tp of member.assignment) {
        const key = topicPartitionKey(tp.topic, tp.partition);
        owners.set(key, { memberId: member.memberId, instanceId: member.groupInstanceId, clientId: member.clientId });
        partitions.set(key, tp);
      }
    }
    for (const stored of group.offsets.values()) {
      partitions.set(topicPartitionKey(stored.topic, stored.partition), {
        topic: stored.topic,
        partition: stored.partition,
      });
    }
    const lags: PartitionLag[] = [];
    for (const [key, { topic, partition }] of partitions) {
      if (!visible(topic)) continue;
      let edges: { earliest: number; latest: number };
      try {
        edges = await this.router.offsets(topic, partition);
      } catch {
        continue; // topic deleted or partition not led here: no lag to report
      }
      const committed = group.committed(topic, partition)?.offset ?? -1;
      const owner = owners.get(key);
      lags.push({
        topic,
        partition,
        currentOffset: committed,
        logEndOffset: edges.latest,
        lag: Math.max(0, edges.latest - (committed >= 0 ? committed : edges.earliest)),
        consumerId: owner?.memberId ?? '',
        instanceId: owner?.instanceId ?? null,
        clientId: owner?.clientId ?? '',
      });
    }
    return lags.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }

  async lags(clusterId: string, groupId: string, visible: TopicFilter) {
    return listEnvelope(
      'KafkaConsumerLagList',
      this.urls.cluster(clusterId, 'consumer-groups', groupId, 'lags'),
      (await this.partitionLags(groupId, visible)).map((lag) => this.lagData(clusterId, groupId, lag)),
    );
  }

  async lag(clusterId: string, groupId: string, topic: string, partition: number) {
    const lag = (await this.partitionLags(groupId, (name) => name === topic)).find(
      (l) => l.topic === topic && l.partition === partition,
    );
    if (lag === undefined) throw errors.notFound(`Group ${groupId} has no lag for ${topic}-${partition}.`);
    return this.lagData(clusterId, groupId, lag);
  }

  private lagData(clusterId: string, groupId: string, lag: PartitionLag) {
    return {
      kind: 'KafkaConsumerLag',
      metadata: {
        self: this.urls.cluster(clusterId, 'consumer-groups', groupId, 'lags', lag.topic, 'partitions', lag.partition),
        resource_name: `crn:///kafka=${clusterId}/consumer-group=${groupId}/lag=${lag.topic}/partition=${lag.partition}`,
      },
      cluster_id: clusterId,
      consumer_group_id: groupId,
      topic_name: lag.topic,
      partition_id: lag.partition,
      current_offset: lag.currentOffset,
      log_end_offset: lag.logEndOffset,
      lag: lag.lag,
      consumer_id: lag.consumerId,
      instance_id: lag.instanceId,
      client_id: lag.clientId,
    };
  }

  async lagSummary(clusterId: string, groupId: string, visible: TopicFilter) {
    const lags = await this.partitionLags(groupId, visible);
    const max = lags.reduce<PartitionLag | null>(
      (best, lag) => (best === null || lag.lag > best.lag ? lag : best),
      null,
    );
    const base = this.urls.cluster(clusterId, 'consumer-groups', groupId);
    return {
      kind: 'KafkaConsumerGroupLagSummary',
      metadata: {
        self: `${base}/lag-summary`,
        resource_name: `crn:///kafka=${clusterId}/consumer-group=${groupId}/lag-summary`,
      },
      cluster_id: clusterId,
      consumer_group_id: groupId,
      max_lag_consumer_id: max?.consumerId ?? '',
      max_lag_instance_id: max?.instanceId ?? null,
      max_lag_client_id: max?.clientId ?? '',
      max_lag_topic_name: max?.topic ?? '',
      max_lag_partition_id: max?.partition ?? -1,
      max_lag: max?.lag ?? 0,
      total_lag: lags.reduce((sum, lag) => sum + lag.lag, 0),
      max_lag_consumer: this.urls.related(
        max && max.consumerId !== '' ? `${base}/consumers/${encodeURIComponent(max.consumerId)}` : `${base}/consumers`,
      ),
      max_lag_partition: this.urls.related(
        max
          ? this.urls.cluster(clusterId, 'topics', max.topic, 'partitions', max.partition)
          : this.urls.cluster(clusterId, 'topics'),
      ),
    };
  }

  /**
   * The new committed offset of each chosen partition (all partitions of the named topics, or every partition the
   * group has committed), clamped to the log as kafka-consumer-groups does; written unless `dryRun`.
   */
  async resetOffsets(clusterId: string, groupId: string, body: ResetOffsetsBody) {
    const target = resetTarget(body);
    const topics = resetTopics(body);
    const dryRun = body.dry_run ?? true;
    const group = this.coordinator.group(groupId);
    if (group !== undefined && group.members.size > 0) throw errors.groupNotEmpty(groupId);
    const chosen: TopicPartition[] = [];
    if (topics === null) {
      if (group === undefined) throw errors.groupNotFound(groupId);
      for (const stored of group.offsets.values()) chosen.push({ topic: stored.topic, partition: stored.partition });
    } else {
      const counts = this.coordinator.topicCounts();
      for (const { topic, partitions } of topics) {
        const count = counts.get(topic);
        if (count === undefined) throw errors.topicNotFound(topic);
        for (const partition of partitions ?? Array.from({ length: count }, (_, i) => i)) {
          if (partition >= count) throw errors.partitionNotFound(partition);
          chosen.push({ topic, partition });
        }
      }
    }
    const plan = [];
    for (const { topic, partition } of chosen.sort(
      (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition,
    )) {
      const { earliest, latest } = await this.router.offsets(topic, partition);
      let next: number;
      switch (target.to) {
        case 'earliest':
          next = earliest;
          break;
        case 'latest':
          next = latest;
          break;
        case 'offset':
          next = Math.min(Math.max(target.offset, earliest), latest);
          break;
        case 'timestamp':
          next = await this.router.offsetForTimestamp(topic, partition, target.timestampMs);
          break;
      }
      plan.push({
        topic_name: topic,
        partition_id: partition,
        current_offset: group?.committed(topic, partition)?.offset ?? -1,
        new_offset: next,
      });
    }
    if (!dryRun) {
      await this.coordinator.resetOffsets(
        groupId,
        plan.map((p) => ({ topic: p.topic_name, partition: p.partition_id, offset: p.new_offset })),
      );
    }
    return {
      kind: 'BrookConsumerGroupOffsetReset',
      metadata: { self: `${this.urls.cluster(clusterId, 'consumer-groups', groupId)}/offsets:reset` },
      consumer_group_id: groupId,
      dry_run: dryRun,
      data: plan,
    };
  }

  async deleteGroup(groupId: string): Promise<void> {
    this.groupOrThrow(groupId);
    await this.coordinator.deleteGroup(groupId);
  }
}
