// Create a topic: name, partitions, replication factor and configs; the broker's refusal is shown as it said it.
import { Button, Group, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/error-alert';
import { parseConfigLines } from '../../lib/config-lines';

export function CreateTopicModal({
  clusterId,
  opened,
  onClose,
}: {
  clusterId: string;
  opened: boolean;
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [partitions, setPartitions] = useState<number | string>(1);
  const [replicationFactor, setReplicationFactor] = useState<number | string>(1);
  const [configText, setConfigText] = useState('');
  const parsed = parseConfigLines(configText);
  const create = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/v3/clusters/{cluster_id}/topics', {
          params: { path: { cluster_id: clusterId } },
          body: {
            topic_name: name,
            partitions_count: Number(partitions),
            replication_factor: Number(replicationFactor),
            configs: parsed.configs,
          },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['topics', clusterId] });
      setName('');
      setConfigText('');
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Create a topic" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Stack>
          <TextInput
            label="Topic name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <Group grow>
            <NumberInput label="Partitions" min={1} value={partitions} onChange={setPartitions} />
            <NumberInput label="Replication factor" min={1} value={replicationFactor} onChange={setReplicationFactor} />
          </Group>
          <Textarea
            label="Configs"
            description="One name=value a line, e.g. retention.ms=3600000"
            autosize
            minRows={2}
            value={configText}
            onChange={(e) => setConfigText(e.currentTarget.value)}
            error={parsed.error}
          />
          {create.isError && <ErrorAlert error={create.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={name === '' || parsed.error !== null}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
