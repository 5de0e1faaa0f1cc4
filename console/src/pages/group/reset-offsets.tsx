// Reset a group's committed offsets to the earliest, the latest, an offset or a time: a dry run shows the plan,
// then the same request without dry_run applies it. The broker refuses while the group has members.
import { Button, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/error-alert';

type To = 'earliest' | 'latest' | 'offset' | 'timestamp';

export function ResetOffsets({ clusterId, group, empty }: { clusterId: string; group: string; empty: boolean }) {
  const queryClient = useQueryClient();
  const [to, setTo] = useState<To>('earliest');
  const [offset, setOffset] = useState<number | string>(0);
  const [time, setTime] = useState('');
  const reset = useMutation({
    mutationFn: async (dryRun: boolean) =>
      unwrap(
        await api.POST('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/offsets:reset', {
          params: { path: { cluster_id: clusterId, consumer_group_id: group } },
          body: {
            to,
            dry_run: dryRun,
            ...(to === 'offset' ? { offset: Number(offset) } : {}),
            ...(to === 'timestamp' ? { timestamp: new Date(time).toISOString() } : {}),
          },
        }),
      ),
    onSuccess: (_, dryRun) => {
      if (!dryRun) void queryClient.invalidateQueries({ queryKey: ['group-lags', clusterId, group] });
    },
  });
  const planned = reset.data !== undefined && reset.variables === true;
  return (
    <Stack>
      <Title order={3}>Reset offsets</Title>
      {!empty && <Text size="sm">The broker resets offsets only while the group has no members.</Text>}
      <Group align="flex-end">
        <Select
          label="Reset to"
          data={['earliest', 'latest', 'offset', 'timestamp']}
          value={to}
          onChange={(value) => {
            setTo((value ?? 'earliest') as To);
            reset.reset();
          }}
          allowDeselect={false}
          w={150}
        />
        {to === 'offset' && <NumberInput label="Offset" min={0} value={offset} onChange={setOffset} w={130} />}
        {to === 'timestamp' && (
          <TextInput label="Time" type="datetime-local" value={time} onChange={(e) => setTime(e.currentTarget.value)} />
        )}
        <Button
          variant="default"
          onClick={() => reset.mutate(true)}
          loading={reset.isPending && reset.variables === true}
        >
          Dry run
        </Button>
        <Button
          color="orange"
          disabled={!planned}
          onClick={() => reset.mutate(false)}
          loading={reset.isPending && reset.variables === false}
        >
          Apply
        </Button>
      </Group>
      {reset.isError && <ErrorAlert error={reset.error} />}
      {reset.data !== undefined && (
        <Table striped>
          <Table.Caption>{reset.variables ? 'Plan (dry run)' : 'Applied'}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Topic</Table.Th>
              <Table.Th>Partition</Table.Th>
              <Table.Th>Current</Table.Th>
              <Table.Th>New</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reset.data.data.map((row) => (
              <Table.Tr key={`${row.topic_name}:${row.partition_id}`}>
                <Table.Td>{row.topic_name}</Table.Td>
                <Table.Td>{row.partition_id}</Table.Td>
                <Table.Td>{row.current_offset}</Table.Td>
                <Table.Td>{row.new_offset}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
