// Reads of one topic: its partitions with their replicas (ISR) and offsets, and its configs.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, relatedId, unwrap } from './client';

export function useTopic(c: string, topic: string) {
  return useQuery({
    queryKey: ['topic', c, topic],
    queryFn: async () =>
      unwrap(
        await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}', {
          params: { path: { cluster_id: c, topic_name: topic } },
        }),
      ),
  });
}

export interface PartitionRow {
  partition: number;
  leader: string | null;
  replicas: number[];
  isr: number[];
  earliest: number | null;
  latest: number | null;
}

export function usePartitions(c: string, topic: string): { rows: PartitionRow[]; error: unknown; pending: boolean } {
  const list = useQuery({
    queryKey: ['partitions', c, topic],
    queryFn: async () =>
      unwrap(
        await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions', {
          params: { path: { cluster_id: c, topic_name: topic } },
        }),
      ),
    refetchInterval: 5_000,
  });
  const partitions = list.data?.data ?? [];
  const details = useQueries({
    queries: partitions.map((partition) => ({
      queryKey: ['partition-detail', c, topic, partition.partition_id],
      refetchInterval: 5_000,
      queryFn: async () => {
        const path = { cluster_id: c, topic_name: topic, partition_id: partition.partition_id };
        const [replicas, offsets] = await Promise.all([
          api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/replicas', {
            params: { path },
          }),
          api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/offset', {
            params: { path },
          }),
        ]);
        return { replicas: unwrap(replicas).data, offsets: unwrap(offsets) };
      },
    })),
  });
  const rows = partitions.map((partition, index): PartitionRow => {
    const detail = details[index]?.data;
    const replicas = detail?.replicas ?? [];
    return {
      partition: partition.partition_id,
      leader: relatedId(partition.leader?.related),
      replicas: replicas.map((replica) => replica.broker_id),
      isr: replicas.filter((replica) => replica.is_in_sync).map((replica) => replica.broker_id),
      earliest: detail?.offsets.earliest_offset ?? null,
      latest: detail?.offsets.latest_offset ?? null,
    };
  });
  const error = list.error ?? details.find((detail) => detail.error !== null)?.error ?? null;
  return { rows, error, pending: list.isPending };
}
