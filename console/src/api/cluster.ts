// The cluster this broker belongs to (GET /v3/clusters): every other call is under /v3/clusters/{cluster_id}.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

export function useCluster() {
  return useQuery({
    queryKey: ['clusters'],
    queryFn: async () => {
      const list = unwrap(await api.GET('/v3/clusters'));
      const cluster = list.data[0];
      if (cluster === undefined) throw new Error('the broker lists no cluster');
      return cluster;
    },
    staleTime: 30_000,
  });
}

/** The cluster id; only called below App, which renders pages once the cluster is known. */
export function useClusterId(): string {
  const cluster = useCluster();
  if (cluster.data === undefined) throw new Error('useClusterId before the cluster is known');
  return cluster.data.cluster_id;
}
