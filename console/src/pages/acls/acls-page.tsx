// ACLs: every ACL of the cluster (DESCRIBE on the cluster needed; a refusal shows the broker's message),
// filtered by principal or resource.
import { Badge, Stack, Table, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useClusterId } from '../../api/cluster';
import { ErrorAlert } from '../../components/error-alert';

export function AclsPage() {
  const c = useClusterId();
  const [filter, setFilter] = useState('');
  const acls = useQuery({
    queryKey: ['acls', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/acls', { params: { path: { cluster_id: c } } })),
  });
  const needle = filter.toLowerCase();
  const rows = (acls.data?.data ?? []).filter((acl) =>
    `${acl.principal} ${acl.resource_type} ${acl.resource_name}`.toLowerCase().includes(needle),
  );
  return (
    <Stack>
      <Title order={2}>ACLs</Title>
      <TextInput
        label="Filter by principal or resource"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
      />
      {acls.isError && <ErrorAlert error={acls.error} />}
      <Table.ScrollContainer minWidth={700}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Principal</Table.Th>
              <Table.Th>Resource</Table.Th>
              <Table.Th>Pattern</Table.Th>
              <Table.Th>Operation</Table.Th>
              <Table.Th>Permission</Table.Th>
              <Table.Th>Host</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((acl) => (
              <Table.Tr
                key={`${acl.principal}|${acl.resource_type}|${acl.resource_name}|${acl.pattern_type}|${acl.operation}|${acl.permission}|${acl.host}`}
              >
                <Table.Td>{acl.principal}</Table.Td>
                <Table.Td>
                  {acl.resource_type} {acl.resource_name}
                </Table.Td>
                <Table.Td>{acl.pattern_type}</Table.Td>
                <Table.Td>{acl.operation}</Table.Td>
                <Table.Td>
                  <Badge color={acl.permission === 'ALLOW' ? 'teal' : 'red'}>{acl.permission}</Badge>
                </Table.Td>
                <Table.Td>{acl.host}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
