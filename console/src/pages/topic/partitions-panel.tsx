// A topic's partitions: leader, replicas, ISR (a replica out of sync is marked), log start, high watermark, and
// the leader's size on disk and record count (Brook's topic-stats route); and adding partitions.
import { Badge, Button, Group, NumberInput, Stack, Table } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useTopicStats } from '../../api/stats';
import { usePartitions } from '../../api/topic';
import { formatBytes } from '../../lib/format';
import { ErrorAlert } from '../../components/error-alert';

export function PartitionsPanel({
  clusterId,
  topic,
  partitionsCount,
}: {
  clusterId: string;
  topic: string;
  partitionsCount: number;
}) {
  const queryClient = useQueryClient();
  const { rows, error } = usePartitions(clusterId, topic);
  const stats = useTopicStats(clusterId);
  const sizes = stats.data?.data.find((entry) => entry.topic_name === topic)?.partitions ?? [];
  const [count, setCount] = useState<number | string>(partitionsCount + 1);
  const grow = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PATCH('/v3/clusters/{cluster_id}/topics/{topic_name}', {
          params: { path: { cluster_id: clusterId, topic_name: topic } },
          body: { partitions_count: Number(count) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['partitions', clusterId, topic] }),
  });
  return (
    <Stack>
      {error !== null && <ErrorAlert error={error} />}
      <Table.ScrollContainer minWidth={700}>
        <Table striped data-testid="partitions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Partition</Table.Th>
              <Table.Th>Leader</Table.Th>
              <Table.Th>Replicas</Table.Th>
              <Table.Th>ISR</Table.Th>
              <Table.Th>Log start</Table.Th>
              <Table.Th>High watermark</Table.Th>
              <Table.Th>Records</Table.Th>
              <Table.Th>Size</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.partition} data-testid={`partition-${row.partition}`}>
                <Table.Td>{row.partition}</Table.Td>
                <Table.Td>{row.leader ?? <Badge color="red">offline</Badge>}</Table.Td>
                <Table.Td>{row.replicas.join(', ')}</Table.Td>
                <Table.Td data-testid={`isr-${row.partition}`}>
                  {row.isr.join(', ')}{' '}
                  {row.isr.length < row.replicas.length && <Badge color="orange">under-replicated</Badge>}
                </Table.Td>
                <Table.Td>{row.earliest ?? '…'}</Table.Td>
                <Table.Td data-testid={`hw-${row.partition}`}>{row.latest ?? '…'}</Table.Td>
                <Table.Td data-testid={`records-${row.partition}`}>
                  {sizes[row.partition]?.record_count ?? '—'}
                </Table.Td>
                <Table.Td data-testid={`size-${row.partition}`}>
                  {formatBytes(sizes[row.partition]?.size_bytes)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="flex-end">
        <NumberInput label="New partition count" min={partitionsCount + 1} value={count} onChange={setCount} w={200} />
        <Button onClick={() => grow.mutate()} loading={grow.isPending} variant="light">
          Add partitions
        </Button>
      </Group>
      {grow.isError && <ErrorAlert error={grow.error} />}
    </Stack>
  );
}
