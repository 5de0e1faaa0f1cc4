// Consumer groups: every group the user may DESCRIBE, with its state, type and assignor.
import { Anchor, Badge, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useClusterId } from '../../api/cluster';
import { ErrorAlert } from '../../components/error-alert';

export function GroupsPage() {
  const c = useClusterId();
  const groups = useQuery({
    queryKey: ['groups', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/consumer-groups', { params: { path: { cluster_id: c } } })),
    refetchInterval: 5_000,
  });
  return (
    <Stack>
      <Title order={2}>Consumer groups</Title>
      {groups.isError && <ErrorAlert error={groups.error} />}
      <Table.ScrollContainer minWidth={500}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Group</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Assignor</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.data?.data.map((group) => (
              <Table.Tr key={group.consumer_group_id}>
                <Table.Td>
                  <Anchor component={Link} href={`/groups/${encodeURIComponent(group.consumer_group_id)}`}>
                    {group.consumer_group_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{group.state}</Badge>
                </Table.Td>
                <Table.Td>{group.type}</Table.Td>
                <Table.Td>{group.partition_assignor || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
