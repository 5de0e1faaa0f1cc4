// ACLs: every ACL of the cluster (DESCRIBE on the cluster needed; a refusal shows the broker's message), filtered
// by principal or resource; added and deleted by a user the broker allows to (ALTER on the cluster), a refusal
// shown with the broker's message.
import { Badge, Button, Stack, Table, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useClusterId } from '../../api/cluster';
import { ErrorAlert } from '../../components/error-alert';
import { AddAclForm } from './add-acl-form';

type Acl = NonNullable<ReturnType<typeof useAcls>['data']>['data'][number];

function useAcls(c: string) {
  return useQuery({
    queryKey: ['acls', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/acls', { params: { path: { cluster_id: c } } })),
  });
}

const describeAcl = (acl: Acl) =>
  `${acl.permission} ${acl.principal} ${acl.operation} on ${acl.resource_type} ${acl.resource_name} (${acl.pattern_type})`;

export function AclsPage() {
  const c = useClusterId();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const acls = useAcls(c);
  const remove = useMutation({
    mutationFn: async (acl: Acl) => {
      const { resource_type, resource_name, pattern_type, principal, host, operation, permission } = acl;
      return unwrap(
        await api.DELETE('/v3/clusters/{cluster_id}/acls', {
          params: {
            path: { cluster_id: c },
            query: { resource_type, resource_name, pattern_type, principal, host, operation, permission },
          },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['acls', c] }),
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
      {acls.isError && <ErrorAlert error={acls.error} title="The broker refused to list the ACLs" />}
      {remove.isError && <ErrorAlert error={remove.error} title="The broker refused to delete the ACL" />}
      <Table.ScrollContainer minWidth={800}>
        <Table striped data-testid="acls">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Principal</Table.Th>
              <Table.Th>Resource</Table.Th>
              <Table.Th>Pattern</Table.Th>
              <Table.Th>Operation</Table.Th>
              <Table.Th>Permission</Table.Th>
              <Table.Th>Host</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((acl) => (
              <Table.Tr
                key={`${acl.principal}|${acl.resource_type}|${acl.resource_name}|${acl.pattern_type}|${acl.operation}|${acl.permission}|${acl.host}`}
                data-testid="acl"
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
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    loading={remove.isPending && remove.variables === acl}
                    onClick={() => remove.mutate(acl)}
                  >
                    Delete<VisuallyHidden> {describeAcl(acl)}</VisuallyHidden>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <AddAclForm clusterId={c} />
    </Stack>
  );
}
