// Brook's statistics routes (Brook additions in openapi.yaml): the cluster's status (brokers with incarnation and
// liveness, the controller and its epoch, partition health) and per-topic statistics (size on disk, record counts,
// produce and fetch rates summed over the cluster), polled while a page shows them. Rates are charted from the
// polled values; at most RATE_POINTS_MAX points are kept.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from './client';

export const STATS_POLL_INTERVAL_MS = 2_000;
export const RATE_POINTS_MAX = 150;

export function useClusterStatus(c: string) {
  return useQuery({
    queryKey: ['status', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/status', { params: { path: { cluster_id: c } } })),
    refetchInterval: STATS_POLL_INTERVAL_MS,
  });
}

export function useTopicStats(c: string) {
  return useQuery({
    queryKey: ['topic-stats', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/topic-stats', { params: { path: { cluster_id: c } } })),
    refetchInterval: STATS_POLL_INTERVAL_MS,
  });
}

export type TopicStats = NonNullable<ReturnType<typeof useTopicStats>['data']>['data'][number];

/** [epoch seconds, value] of `value` at each poll (`atMs`: when the polled answer arrived). */
export function useHistory(value: number | undefined, atMs: number): [number, number][] {
  const [points, setPoints] = useState<[number, number][]>([]);
  useEffect(() => {
    if (value === undefined || atMs === 0) return;
    setPoints((current) => [...current, [atMs / 1000, value] as [number, number]].slice(-RATE_POINTS_MAX));
  }, [value, atMs]);
  return points;
}
