// The topic reads shared by `topics` and `configs`: a topic with its partitions (leader, replicas, ISR) and
// its configs, gathered from the v3 routes.
import { unwrap, type Connection } from './client.js';
import type { components } from './generated/brook-api.js';

export type TopicConfig = components['schemas']['TopicConfigData'];

export interface PartitionDescription {
  partition_id: number;
  leader: number | null;
  replicas: number[];
  isr: number[];
  /** The reassignment in progress, if any (Kafka's describe shows its adding and removing replicas). */
  reassignment: { adding: number[]; removing: number[] } | null;
}

export interface TopicDescription {
  topic_name: string;
  is_internal: boolean;
  partitions_count: number;
  replication_factor: number;
  /** The configs whose value is not the default (as Kafka's describe shows them). */
  configs: Record<string, string | null>;
  partitions: PartitionDescription[];
}

/** Every topic, internal ones included (kafka-topics.sh shows them unless --exclude-internal). */
export async function listTopics({ api, clusterId }: Connection) {
  const topics = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics', {
      params: { path: { cluster_id: clusterId }, query: { include_internal: 'true' } },
    }),
  );
  return topics.data;
}

export async function listTopicNames(connection: Connection, { excludeInternal = false } = {}): Promise<string[]> {
  return (await listTopics(connection))
    .filter((topic) => !excludeInternal || !topic.is_internal)
    .map((topic) => topic.topic_name)
    .sort();
}

export async function topicExists({ api, clusterId }: Connection, topic: string): Promise<boolean> {
  const result = await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}', {
    params: { path: { cluster_id: clusterId, topic_name: topic } },
  });
  if (result.response.status === 404) return false;
  unwrap(result);
  return true;
}

/** Throws the broker's own error (40401 topic not found) when the topic does not exist. */
export async function requireTopic({ api, clusterId }: Connection, topic: string): Promise<void> {
  unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}', {
      params: { path: { cluster_id: clusterId, topic_name: topic } },
    }),
  );
}

export async function listTopicConfigs({ api, clusterId }: Connection, topic: string): Promise<TopicConfig[]> {
  const configs = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/configs', {
      params: { path: { cluster_id: clusterId, topic_name: topic } },
    }),
  );
  return [...configs.data].sort((a, b) => a.name.localeCompare(b.name));
}

function reassignmentOf(
  moving: ReadonlyArray<{ partition_id: number; adding_replicas: number[]; removing_replicas: number[] }>,
  partition: number,
): PartitionDescription['reassignment'] {
  const found = moving.find((entry) => entry.partition_id === partition);
  return found === undefined ? null : { adding: found.adding_replicas, removing: found.removing_replicas };
}

export function isOverride(config: TopicConfig): boolean {
  return config.source === 'DYNAMIC_TOPIC_CONFIG';
}

export async function describeTopic(connection: Connection, topic: string): Promise<TopicDescription> {
  const { api, clusterId } = connection;
  const path = { cluster_id: clusterId, topic_name: topic };
  const data = unwrap(await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}', { params: { path } }));
  const partitions = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions', { params: { path } }),
  );
  const moving = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/-/reassignment', { params: { path } }),
  ).data;
  const described: PartitionDescription[] = [];
  for (const partition of [...partitions.data].sort((a, b) => a.partition_id - b.partition_id)) {
    const replicas = unwrap(
      await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/replicas', {
        params: { path: { ...path, partition_id: partition.partition_id } },
      }),
    );
    described.push({
      partition_id: partition.partition_id,
      leader: replicas.data.find((replica) => replica.is_leader)?.broker_id ?? null,
      replicas: replicas.data.map((replica) => replica.broker_id),
      isr: replicas.data.filter((replica) => replica.is_in_sync).map((replica) => replica.broker_id),
      reassignment: reassignmentOf(moving, partition.partition_id),
    });
  }
  const configs = (await listTopicConfigs(connection, topic)).filter((config) => !config.is_default);
  return {
    topic_name: data.topic_name,
    is_internal: data.is_internal,
    partitions_count: data.partitions_count,
    replication_factor: data.replication_factor,
    configs: Object.fromEntries(configs.map((config) => [config.name, config.value ?? null])),
    partitions: described,
  };
}
