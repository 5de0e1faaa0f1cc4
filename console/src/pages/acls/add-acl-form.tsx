// Adding an ACL (POST /v3/clusters/{c}/acls; the broker needs ALTER on the cluster and answers a refusal with its
// message, shown as is).
import { Button, Card, Group, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../src/cli/generated/brook-api';
// The broker's own lists (a pure module with no imports, so nothing else of the server enters the bundle).
import { OPERATIONS, PATTERN_TYPES, PERMISSIONS, RESOURCE_TYPES } from '../../../../src/security/acl';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/error-alert';

type NewAcl = components['schemas']['CreateAclRequestData'];

// Typed by the API's schema: a value of the broker's lists that the contract does not take fails the type check.
const RESOURCE_TYPE_CHOICES: readonly NewAcl['resource_type'][] = RESOURCE_TYPES;
const PATTERN_TYPE_CHOICES: readonly NonNullable<NewAcl['pattern_type']>[] = PATTERN_TYPES;
const OPERATION_CHOICES: readonly NewAcl['operation'][] = OPERATIONS;
const PERMISSION_CHOICES: readonly NewAcl['permission'][] = PERMISSIONS;

const EMPTY: NewAcl = {
  principal: 'User:',
  resource_type: 'TOPIC',
  resource_name: '',
  pattern_type: 'LITERAL',
  operation: 'READ',
  permission: 'ALLOW',
  host: '*',
};

export function AddAclForm({ clusterId }: { clusterId: string }) {
  const queryClient = useQueryClient();
  const [acl, setAcl] = useState<NewAcl>(EMPTY);
  const add = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/v3/clusters/{cluster_id}/acls', { params: { path: { cluster_id: clusterId } }, body: acl }),
      ),
    onSuccess: async () => {
      setAcl(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ['acls', clusterId] });
    },
  });
  const set = <K extends keyof NewAcl>(field: K, value: NewAcl[K] | null) => {
    if (value !== null) setAcl((current) => ({ ...current, [field]: value }));
  };
  return (
    <Card withBorder component="form" onSubmit={(event) => (event.preventDefault(), add.mutate())}>
      <Title order={3} size="h4" mb="sm">
        Add an ACL
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <TextInput
          label="Principal"
          value={acl.principal}
          onChange={(e) => set('principal', e.currentTarget.value)}
          required
        />
        <Select
          label="Resource type"
          data={RESOURCE_TYPE_CHOICES}
          value={acl.resource_type}
          onChange={(value) => set('resource_type', value as NewAcl['resource_type'] | null)}
          allowDeselect={false}
        />
        <TextInput
          label="Resource name"
          value={acl.resource_name}
          onChange={(e) => set('resource_name', e.currentTarget.value)}
          required
        />
        <Select
          label="Pattern"
          data={PATTERN_TYPE_CHOICES}
          value={acl.pattern_type}
          onChange={(value) => set('pattern_type', value as NewAcl['pattern_type'] | null)}
          allowDeselect={false}
        />
        <Select
          label="Operation"
          data={OPERATION_CHOICES}
          value={acl.operation}
          onChange={(value) => set('operation', value as NewAcl['operation'] | null)}
          allowDeselect={false}
        />
        <Select
          label="Permission"
          data={PERMISSION_CHOICES}
          value={acl.permission}
          onChange={(value) => set('permission', value as NewAcl['permission'] | null)}
          allowDeselect={false}
        />
        <TextInput label="Host" value={acl.host} onChange={(e) => set('host', e.currentTarget.value)} />
      </SimpleGrid>
      <Group mt="sm">
        <Button type="submit" loading={add.isPending}>
          Add ACL
        </Button>
      </Group>
      {add.isError && <ErrorAlert error={add.error} />}
    </Card>
  );
}
