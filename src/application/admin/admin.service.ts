// The read side of the admin API: builds Confluent's v3 resources (clusters, brokers, topics, configs,
// partitions, replicas) and the v2 views of the same metadata, from the metadata cache and the live brokers.
import { DynamicBrokerConfigs } from '../../topic/dynamic-broker-configs.service.js';
import { Inject, Injectable } from '@nestjs/common';
import { errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import type { BrokerRegistration, TopicMetadata } from '../../topic/cluster-metadata.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { describeTopicConfigs, resolveTopicConfig, type TopicConfigDescription } from '../../config/topic-config.js';
import { isInternalTopic } from '../../topic/topic-name.js';
import { listEnvelope, Urls } from '../urls.js';

@Injectable()
export class AdminService {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
    private readonly urls: Urls,
    private readonly brokerConfigs: DynamicBrokerConfigs,
  ) {}

  checkCluster(clusterId: string): void {
    if (clusterId !== this.election.clusterId) throw errors.clusterNotFound(clusterId);
  }

  topicOrThrow(topic: string): TopicMetadata {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    return metadata;
  }

  partitionOrThrow(topic: string, partition: number): TopicMetadata {
    const metadata = this.topicOrThrow(topic);
    if (!Number.isInteger(partition) || partition < 0 || partition >= metadata.assignment.replicas.length) {
      throw errors.partitionNotFound(partition);
    }
    return metadata;
  }

  async cluster() {
    const c = this.election.clusterId;
    // While the coordination store is unreachable the cluster is still described, without its controller.
    const controller = await this.election.controllerId().catch(() => null);
    return {
      kind: 'KafkaCluster',
      metadata: { self: this.urls.cluster(c), resource_name: `crn:///kafka=${c}` },
      cluster_id: c,
      controller: controller === null ? null : this.urls.related(this.urls.cluster(c, 'brokers', controller)),
      acls: this.urls.related(this.urls.cluster(c, 'acls')),
      brokers: this.urls.related(this.urls.cluster(c, 'brokers')),
      broker_configs: this.urls.related(this.urls.cluster(c, 'broker-configs')),
      consumer_groups: this.urls.related(this.urls.cluster(c, 'consumer-groups')),
      topics: this.urls.related(this.urls.cluster(c, 'topics')),
      partition_reassignments: this.urls.related(
        this.urls.cluster(c, 'topics', '-', 'partitions', '-', 'reassignment'),
      ),
    };
  }

  async clusters() {
    return listEnvelope('KafkaClusterList', `${this.config.advertisedUrl}/v3/clusters`, [await this.cluster()]);
  }

  broker(registration: BrokerRegistration) {
    const c = this.election.clusterId;
    const url = new URL(registration.url);
    return {
      kind: 'KafkaBroker',
      metadata: {
        self: this.urls.cluster(c, 'brokers', registration.brokerId),
        resource_name: `crn:///kafka=${c}/broker=${registration.brokerId}`,
      },
      cluster_id: c,
      broker_id: registration.brokerId,
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      rack: null,
      configs: this.urls.related(this.urls.cluster(c, 'brokers', registration.brokerId, 'configs')),
      partition_replicas: this.urls.related(
        this.urls.cluster(c, 'brokers', registration.brokerId, 'partition-replicas'),
      ),
    };
  }

  async brokers() {
    const brokers = await this.election.liveBrokers();
    return listEnvelope(
      'KafkaBrokerList',
      this.urls.cluster(this.election.clusterId, 'brokers'),
      brokers.map((b) => this.broker(b)),
    );
  }

  async brokerById(brokerId: number) {
    const found = (await this.election.liveBrokers()).find((broker) => broker.brokerId === brokerId);
    if (found === undefined) throw errors.brokerNotFound(brokerId);
    return this.broker(found);
  }

  topic(metadata: TopicMetadata) {
    const c = this.election.clusterId;
    const name = metadata.assignment.name;
    return {
      kind: 'KafkaTopic',
      metadata: { self: this.urls.cluster(c, 'topics', name), resource_name: `crn:///kafka=${c}/topic=${name}` },
      cluster_id: c,
      topic_name: name,
      is_internal: isInternalTopic(name),
      replication_factor: metadata.assignment.replicas[0]?.length ?? 0,
      partitions_count: metadata.assignment.replicas.length,
      partitions: this.urls.related(this.urls.cluster(c, 'topics', name, 'partitions')),
      configs: this.urls.related(this.urls.cluster(c, 'topics', name, 'configs')),
      partition_reassignments: this.urls.related(
        this.urls.cluster(c, 'topics', name, 'partitions', '-', 'reassignment'),
      ),
    };
  }

  private sortedTopics(): TopicMetadata[] {
    return [...this.metadata.allTopics().values()].sort((a, b) => a.assignment.name.localeCompare(b.assignment.name));
  }

  /** The topics, internal ones (`__consumer_offsets`) only when asked for, as Kafka's listTopics(listInternal). */
  topics(includeInternal: boolean) {
    const data = this.sortedTopics()
      .filter((metadata) => includeInternal || !isInternalTopic(metadata.assignment.name))
      .map((metadata) => this.topic(metadata));
    return listEnvelope('KafkaTopicList', this.urls.cluster(this.election.clusterId, 'topics'), data);
  }

  describeConfigs(metadata: TopicMetadata): TopicConfigDescription[] {
    const settings = this.brokerConfigs.settings();
    return describeTopicConfigs(metadata.configs, settings.topicConfigDefaults, settings.topicDefaultSources);
  }

  topicConfig(topic: string, description: TopicConfigDescription) {
    const c = this.election.clusterId;
    return {
      kind: 'KafkaTopicConfig',
      metadata: {
        self: this.urls.cluster(c, 'topics', topic, 'configs', description.name),
        resource_name: `crn:///kafka=${c}/topic=${topic}/config=${description.name}`,
      },
      cluster_id: c,
      topic_name: topic,
      name: description.name,
      value: description.value,
      is_default: description.isDefault,
      is_read_only: description.isReadOnly,
      is_sensitive: description.isSensitive,
      source: description.source,
      synonyms: description.synonyms.map((synonym) => ({
        name: synonym.name,
        value: synonym.value,
        source: synonym.source,
      })),
    };
  }

  topicConfigs(topic: string) {
    const metadata = this.topicOrThrow(topic);
    return listEnvelope(
      'KafkaTopicConfigList',
      this.urls.cluster(this.election.clusterId, 'topics', topic, 'configs'),
      this.describeConfigs(metadata).map((description) => this.topicConfig(topic, description)),
    );
  }

  /** Every topic's configs (GET .../topics/-/configs), of the topics `visible` lets through, by topic. */
  allTopicConfigs(visible: (topic: string) => boolean) {
    const data = this.sortedTopics()
      .filter((metadata) => visible(metadata.assignment.name))
      .flatMap((metadata) =>
        this.describeConfigs(metadata).map((description) => this.topicConfig(metadata.assignment.name, description)),
      );
    return listEnvelope(
      'KafkaTopicConfigList',
      this.urls.cluster(this.election.clusterId, 'topics', '-', 'configs'),
      data,
    );
  }

  topicConfigByName(topic: string, name: string) {
    const description = this.describeConfigs(this.topicOrThrow(topic)).find((entry) => entry.name === name);
    if (description === undefined) throw errors.configNotFound(name);
    return this.topicConfig(topic, description);
  }

  partition(metadata: TopicMetadata, partition: number) {
    const c = this.election.clusterId;
    const name = metadata.assignment.name;
    const leader = metadata.states[partition]?.leader ?? -1;
    return {
      kind: 'KafkaPartition',
      metadata: {
        self: this.urls.cluster(c, 'topics', name, 'partitions', partition),
        resource_name: `crn:///kafka=${c}/topic=${name}/partition=${partition}`,
      },
      cluster_id: c,
      topic_name: name,
      partition_id: partition,
      leader:
        leader < 0
          ? null
          : this.urls.related(this.urls.cluster(c, 'topics', name, 'partitions', partition, 'replicas', leader)),
      replicas: this.urls.related(this.urls.cluster(c, 'topics', name, 'partitions', partition, 'replicas')),
      reassignment: this.urls.related(this.urls.cluster(c, 'topics', name, 'partitions', partition, 'reassignment')),
    };
  }

  partitions(topic: string) {
    const metadata = this.topicOrThrow(topic);
    return listEnvelope(
      'KafkaPartitionList',
      this.urls.cluster(this.election.clusterId, 'topics', topic, 'partitions'),
      metadata.assignment.replicas.map((_, partition) => this.partition(metadata, partition)),
    );
  }

  private replicaData(metadata: TopicMetadata, partition: number, brokerId: number) {
    const c = this.election.clusterId;
    const topic = metadata.assignment.name;
    const state = metadata.states[partition];
    return {
      kind: 'KafkaReplica',
      metadata: {
        self: this.urls.cluster(c, 'topics', topic, 'partitions', partition, 'replicas', brokerId),
        resource_name: `crn:///kafka=${c}/topic=${topic}/partition=${partition}/replica=${brokerId}`,
      },
      cluster_id: c,
      topic_name: topic,
      partition_id: partition,
      broker_id: brokerId,
      is_leader: state?.leader === brokerId,
      is_in_sync: state?.isr.includes(brokerId) ?? false,
      broker: this.urls.related(this.urls.cluster(c, 'brokers', brokerId)),
    };
  }

  replicas(topic: string, partition: number) {
    const metadata = this.partitionOrThrow(topic, partition);
    return listEnvelope(
      'KafkaReplicaList',
      this.urls.cluster(this.election.clusterId, 'topics', topic, 'partitions', partition, 'replicas'),
      metadata.assignment.replicas[partition].map((brokerId) => this.replicaData(metadata, partition, brokerId)),
    );
  }

  /** One replica of a partition: 404 when the broker holds none of it. */
  replica(topic: string, partition: number, brokerId: number) {
    const metadata = this.partitionOrThrow(topic, partition);
    if (!metadata.assignment.replicas[partition].includes(brokerId)) {
      throw errors.notFound(`Broker ${brokerId} holds no replica of ${topic}-${partition}.`);
    }
    return this.replicaData(metadata, partition, brokerId);
  }

  /** The replicas a live broker holds (GET .../brokers/{id}/partition-replicas), of the topics `visible` passes. */
  async brokerReplicas(brokerId: number, visible: (topic: string) => boolean) {
    await this.brokerById(brokerId);
    const data = this.sortedTopics()
      .filter((metadata) => visible(metadata.assignment.name))
      .flatMap((metadata) =>
        metadata.assignment.replicas.flatMap((brokers, partition) =>
          brokers.includes(brokerId) ? [this.replicaData(metadata, partition, brokerId)] : [],
        ),
      );
    return listEnvelope(
      'KafkaReplicaList',
      this.urls.cluster(this.election.clusterId, 'brokers', brokerId, 'partition-replicas'),
      data,
    );
  }

  partitionOffsets(topic: string, partition: number, offsets: { earliest: number; latest: number }) {
    const c = this.election.clusterId;
    return {
      kind: 'KafkaPartitionWithOffsets',
      metadata: {
        self: this.urls.cluster(c, 'topics', topic, 'partitions', partition, 'offset'),
        resource_name: `crn:///kafka=${c}/topic=${topic}/partition=${partition}/offset_type=earliest_and_latest`,
      },
      cluster_id: c,
      topic_name: topic,
      partition_id: partition,
      earliest_offset: offsets.earliest,
      latest_offset: offsets.latest,
    };
  }

  // ---- v2 views ----

  v2Partition(metadata: TopicMetadata, partition: number) {
    const state = metadata.states[partition];
    return {
      partition,
      leader: state?.leader ?? -1,
      replicas: metadata.assignment.replicas[partition].map((broker) => ({
        broker,
        leader: state?.leader === broker,
        in_sync: state?.isr.includes(broker) ?? false,
      })),
    };
  }

  v2Topic(topic: string) {
    const metadata = this.topicOrThrow(topic);
    const configs = Object.fromEntries(resolveConfigEntries(this.describeConfigs(metadata)));
    return {
      name: topic,
      configs,
      partitions: metadata.assignment.replicas.map((_, partition) => this.v2Partition(metadata, partition)),
    };
  }

  resolvedConfig(topic: string) {
    return resolveTopicConfig(this.topicOrThrow(topic).configs, this.brokerConfigs.settings().topicConfigDefaults);
  }
}

function resolveConfigEntries(descriptions: TopicConfigDescription[]): Array<[string, string | null]> {
  return descriptions.map((description) => [description.name, description.value]);
}
