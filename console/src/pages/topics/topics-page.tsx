// Topics: a searchable, sortable list (partitions, replication factor, internal, and from Brook's topic-stats route
// size on disk, record count and produce rate across the cluster); create and delete (the delete confirmation names
// the topic).
import {
  Anchor,
  Badge,
  Button,
  Group,
  Stack,
  Table,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useClusterId } from '../../api/cluster';
import { useTopicStats } from '../../api/stats';
import { formatBytes, formatRate } from '../../lib/format';
import { ConfirmByName } from '../../components/confirm-by-name';
import { ErrorAlert } from '../../components/error-alert';
import { CreateTopicModal } from './create-topic-modal';

type SortKey =
  | 'topic_name'
  | 'partitions_count'
  | 'replication_factor'
  | 'size_bytes'
  | 'record_count'
  | 'under_replicated'
  | 'produce_rate';

export function TopicsPage() {
  const c = useClusterId();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'topic_name', descending: false });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const topics = useQuery({
    queryKey: ['topics', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/topics', { params: { path: { cluster_id: c } } })),
    // Topics created or deleted elsewhere (REST, the CLI, Kafka clients) show without a reload, as groups do.
    refetchInterval: 5_000,
  });
  const stats = useTopicStats(c);
  const remove = useMutation({
    mutationFn: async (name: string) =>
      unwrap(
        await api.DELETE('/v3/clusters/{cluster_id}/topics/{topic_name}', {
          params: { path: { cluster_id: c, topic_name: name } },
        }),
      ),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['topics', c] });
    },
  });
  const rows = useMemo(() => {
    const byName = new Map((stats.data?.data ?? []).map((entry) => [entry.topic_name, entry]));
    const list = (topics.data?.data ?? [])
      .filter((topic) => topic.topic_name.toLowerCase().includes(search.toLowerCase()))
      .map((topic) => {
        const entry = byName.get(topic.topic_name);
        return {
          ...topic,
          size_bytes: entry?.size_bytes ?? -1,
          record_count: entry?.record_count ?? -1,
          under_replicated: entry?.under_replicated_partitions ?? -1,
          produce_rate: entry?.produce_records_per_second ?? -1,
        };
      });
    const direction = sort.descending ? -1 : 1;
    return list.sort((a, b) => {
      const left = a[sort.key];
      const right = b[sort.key];
      return (left < right ? -1 : left > right ? 1 : 0) * direction;
    });
  }, [topics.data, stats.data, search, sort]);

  const header = (key: SortKey, label: string) => (
    <Table.Th aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton
        fw={700}
        onClick={() => setSort({ key, descending: sort.key === key ? !sort.descending : false })}
      >
        {label} {sort.key === key ? (sort.descending ? '▼' : '▲') : ''}
      </UnstyledButton>
    </Table.Th>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Topics</Title>
        <Button onClick={() => setCreating(true)}>Create topic</Button>
      </Group>
      <TextInput label="Search topics" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      {topics.isError && <ErrorAlert error={topics.error} />}
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {header('topic_name', 'Name')}
              {header('partitions_count', 'Partitions')}
              {header('replication_factor', 'Replication factor')}
              {header('size_bytes', 'Size')}
              {header('record_count', 'Records')}
              {header('under_replicated', 'Under-replicated')}
              {header('produce_rate', 'Produced/s')}
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((topic) => (
              <Table.Tr key={topic.topic_name} data-testid={`topic-row-${topic.topic_name}`}>
                <Table.Td>
                  <Anchor component={Link} href={`/topics/${encodeURIComponent(topic.topic_name)}`}>
                    {topic.topic_name}
                  </Anchor>{' '}
                  {topic.is_internal && <Badge variant="light">internal</Badge>}
                </Table.Td>
                <Table.Td>{topic.partitions_count}</Table.Td>
                <Table.Td>{topic.replication_factor}</Table.Td>
                <Table.Td data-testid="topic-size">
                  {topic.size_bytes < 0 ? '—' : formatBytes(topic.size_bytes)}
                </Table.Td>
                <Table.Td data-testid="topic-records">{topic.record_count < 0 ? '—' : topic.record_count}</Table.Td>
                <Table.Td data-testid="topic-under-replicated">
                  {topic.under_replicated < 0 ? '—' : topic.under_replicated}
                </Table.Td>
                <Table.Td data-testid="topic-produce-rate">
                  {topic.produce_rate < 0 ? '—' : formatRate(topic.produce_rate)}
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="light" color="red" onClick={() => setDeleting(topic.topic_name)}>
                    Delete<VisuallyHidden> {topic.topic_name}</VisuallyHidden>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CreateTopicModal clusterId={c} opened={creating} onClose={() => setCreating(false)} />
      {deleting !== null && (
        <ConfirmByName
          opened
          title={`Delete topic ${deleting}`}
          name={deleting}
          action="Delete"
          busy={remove.isPending}
          error={remove.error}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
        />
      )}
    </Stack>
  );
}
