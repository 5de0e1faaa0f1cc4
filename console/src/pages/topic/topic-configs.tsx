// A topic's configs with their source (default or set on the topic), edited in place; an invalid value is
// refused by the broker and its message shown beside the field.
import { Badge, Button, Group, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/error-alert';

function ConfigRow({
  clusterId,
  topic,
  name,
  value,
  source,
  readOnly,
}: {
  clusterId: string;
  topic: string;
  name: string;
  value: string | null;
  source: string;
  readOnly: boolean;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value ?? '');
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PUT('/v3/clusters/{cluster_id}/topics/{topic_name}/configs/{name}', {
          params: { path: { cluster_id: clusterId, topic_name: topic, name } },
          body: { value: draft },
        }),
      ),
    onSuccess: async () => {
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: ['configs', clusterId, topic] });
    },
  });
  return (
    <Table.Tr data-testid={`config-${name}`}>
      <Table.Td ff="monospace">{name}</Table.Td>
      <Table.Td>
        {editing ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate();
            }}
          >
            <Group gap="xs" wrap="nowrap">
              <TextInput
                aria-label={`Value of ${name}`}
                value={draft}
                onChange={(e) => setDraft(e.currentTarget.value)}
                size="xs"
                data-autofocus
              />
              <Button type="submit" size="xs" loading={save.isPending}>
                Save
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </Group>
            {save.isError && <ErrorAlert error={save.error} />}
          </form>
        ) : (
          <span data-testid="config-value">{value ?? '—'}</span>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant={source === 'DEFAULT_CONFIG' ? 'outline' : 'filled'}>
          {source === 'DEFAULT_CONFIG' ? 'default' : 'dynamic'}
        </Badge>
      </Table.Td>
      <Table.Td>
        {!readOnly && !editing && (
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              setDraft(value ?? '');
              setEditing(true);
            }}
            aria-label={`Edit ${name}`}
          >
            Edit
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function TopicConfigs({ clusterId, topic }: { clusterId: string; topic: string }) {
  const configs = useQuery({
    queryKey: ['configs', clusterId, topic],
    queryFn: async () =>
      unwrap(
        await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/configs', {
          params: { path: { cluster_id: clusterId, topic_name: topic } },
        }),
      ),
  });
  if (configs.isError) return <ErrorAlert error={configs.error} />;
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {configs.data?.data.map((config) => (
            <ConfigRow
              key={config.name}
              clusterId={clusterId}
              topic={topic}
              name={config.name}
              value={config.value ?? null}
              source={config.source}
              readOnly={config.is_read_only}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
