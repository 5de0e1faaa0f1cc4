// Reads of one consumer group: the group, its lag per partition (with the owning member) and its lag summary,
// polled while the page is open.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

export const GROUP_POLL_INTERVAL_MS = 2_000;

export function useGroup(c: string, group: string) {
  const path = { cluster_id: c, consumer_group_id: group };
  const detail = useQuery({
    queryKey: ['group', c, group],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}', { params: { path } })),
    refetchInterval: GROUP_POLL_INTERVAL_MS,
  });
  const lags = useQuery({
    queryKey: ['group-lags', c, group],
    queryFn: async () => {
      const [list, summary, consumers] = await Promise.all([
        api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lags', { params: { path } }),
        api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lag-summary', { params: { path } }),
        api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/consumers', { params: { path } }),
      ]);
      return { lags: unwrap(list).data, summary: unwrap(summary), consumers: unwrap(consumers).data, atMs: Date.now() };
    },
    refetchInterval: GROUP_POLL_INTERVAL_MS,
  });
  return { detail, lags };
}
