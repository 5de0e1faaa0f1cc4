// Produce a record: key, value (JSON or text), headers (name=value lines) and an optional partition; the
// delivery report or the broker's refusal is shown.
import { Alert, Button, Group, NumberInput, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/error-alert';
import { parseConfigLines } from '../../lib/config-lines';
import { textToBase64 } from '../../lib/records';

export function ProduceForm({ clusterId, topic }: { clusterId: string; topic: string }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [valueType, setValueType] = useState<'JSON' | 'STRING'>('JSON');
  const [headerText, setHeaderText] = useState('');
  const [partition, setPartition] = useState<number | string>('');
  const headers = parseConfigLines(headerText);
  let jsonError: string | null = null;
  let jsonValue: unknown = null;
  if (valueType === 'JSON' && value !== '') {
    try {
      jsonValue = JSON.parse(value);
    } catch (error) {
      jsonError = `not JSON: ${(error as Error).message}`;
    }
  }
  const produce = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/v3/clusters/{cluster_id}/topics/{topic_name}/records', {
          params: { path: { cluster_id: clusterId, topic_name: topic } },
          body: {
            ...(partition === '' ? {} : { partition_id: Number(partition) }),
            ...(key === '' ? {} : { key: { type: 'STRING', data: key } }),
            value: valueType === 'JSON' ? { type: 'JSON', data: jsonValue } : { type: 'STRING', data: value },
            headers: headers.configs.map((header) => ({ name: header.name, value: textToBase64(header.value) })),
          },
        }),
      ),
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        produce.mutate();
      }}
    >
      <Stack maw={640}>
        <TextInput
          label="Key"
          description="Empty: no key"
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
        <SegmentedControl
          aria-label="Value type"
          value={valueType}
          onChange={(v) => setValueType(v as 'JSON' | 'STRING')}
          data={[
            { value: 'JSON', label: 'JSON' },
            { value: 'STRING', label: 'Text' },
          ]}
        />
        <Textarea
          label="Value"
          autosize
          minRows={3}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={jsonError}
        />
        <Textarea
          label="Headers"
          description="One name=value a line"
          autosize
          minRows={1}
          value={headerText}
          onChange={(e) => setHeaderText(e.currentTarget.value)}
          error={headers.error}
        />
        <NumberInput
          label="Partition"
          description="Empty: chosen by the key"
          min={0}
          value={partition}
          onChange={setPartition}
          w={200}
        />
        <Group>
          <Button type="submit" loading={produce.isPending} disabled={jsonError !== null || headers.error !== null}>
            Produce
          </Button>
        </Group>
        {produce.isError && <ErrorAlert error={produce.error} />}
        {produce.isSuccess && (
          <Alert color="teal" title="Delivered" data-testid="delivery-report">
            partition {produce.data.partition_id}, offset {produce.data.offset}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
