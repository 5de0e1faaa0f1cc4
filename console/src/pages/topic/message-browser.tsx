// The message browser: pick partitions, start at the earliest or latest records, an offset or a time, show
// JSON, text or hex, and filter by a text or a key.
import {
  Button,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { browseRecords, type StartAt } from '../../api/records';
import { ErrorAlert } from '../../components/error-alert';
import { DECODE_FORMATS, recordMatches, type DecodeFormat, type ValueView } from '../../lib/records';
import { RecordView } from './record-view';

interface Props {
  clusterId: string;
  topic: string;
  partitionsCount: number;
  initialPartition?: string;
  initialOffset?: string;
  onShare(partition: number, offset: number): void;
}

export function MessageBrowser(props: Props) {
  const all = Array.from({ length: props.partitionsCount }, (_, i) => String(i));
  const shared = props.initialPartition !== undefined && props.initialOffset !== undefined;
  const [partitions, setPartitions] = useState<string[]>(shared ? [props.initialPartition!] : []);
  const [startKind, setStartKind] = useState<StartAt['kind']>(shared ? 'offset' : 'earliest');
  const [offset, setOffset] = useState<number | string>(shared ? Number(props.initialOffset) : 0);
  const [time, setTime] = useState('');
  const [max, setMax] = useState<number | string>(50);
  const [view, setView] = useState<ValueView>('json');
  const [format, setFormat] = useState<DecodeFormat>('binary');
  const [filter, setFilter] = useState('');
  const [filterField, setFilterField] = useState<'any' | 'key'>('any');

  const browse = useMutation({
    mutationFn: () => {
      const chosen = (partitions.length === 0 ? all : partitions).map(Number);
      const start: StartAt =
        startKind === 'offset'
          ? { kind: 'offset', offset: Number(offset) }
          : startKind === 'time'
            ? { kind: 'time', iso: new Date(time).toISOString() }
            : { kind: startKind };
      if (startKind === 'offset' && chosen.length === 1) props.onShare(chosen[0], Number(offset));
      return browseRecords(props.clusterId, props.topic, chosen, start, Number(max), format);
    },
  });
  const { mutate } = browse;
  useEffect(() => {
    if (props.partitionsCount > 0) mutate();
  }, [props.partitionsCount, mutate]);

  const records = (browse.data ?? []).filter((record) => recordMatches(record, filter, filterField));
  return (
    <Stack>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          browse.mutate();
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <MultiSelect
            label="Partitions"
            placeholder="all"
            data={all}
            value={partitions}
            onChange={setPartitions}
            w={200}
            clearable
          />
          <Select
            label="Start at"
            data={[
              { value: 'earliest', label: 'Earliest' },
              { value: 'latest', label: 'Latest' },
              { value: 'offset', label: 'Offset' },
              { value: 'time', label: 'Time' },
            ]}
            value={startKind}
            onChange={(value) => setStartKind((value ?? 'earliest') as StartAt['kind'])}
            allowDeselect={false}
            w={130}
          />
          {startKind === 'offset' && <NumberInput label="Offset" min={0} value={offset} onChange={setOffset} w={130} />}
          {startKind === 'time' && (
            <TextInput
              label="Time"
              type="datetime-local"
              value={time}
              onChange={(e) => setTime(e.currentTarget.value)}
            />
          )}
          <Select
            label="Decode as"
            data={DECODE_FORMATS}
            value={format}
            onChange={(value) => setFormat((value ?? 'binary') as DecodeFormat)}
            allowDeselect={false}
            w={150}
          />
          <NumberInput label="Max records" min={1} max={500} value={max} onChange={setMax} w={120} />
          <Button type="submit" loading={browse.isPending}>
            Load
          </Button>
        </Group>
      </form>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Filter"
          placeholder="text to find"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <SegmentedControl
          aria-label="Filter on"
          value={filterField}
          onChange={(value) => setFilterField(value as 'any' | 'key')}
          data={[
            { value: 'any', label: 'Anywhere' },
            { value: 'key', label: 'Key' },
          ]}
        />
        <SegmentedControl
          aria-label="Show values as"
          value={view}
          onChange={(value) => setView(value as ValueView)}
          data={[
            { value: 'json', label: 'JSON' },
            { value: 'text', label: 'Text' },
            { value: 'hex', label: 'Hex' },
          ]}
        />
      </Group>
      {browse.isError && <ErrorAlert error={browse.error} />}
      <Text size="sm" data-testid="record-count">
        {records.length} records
      </Text>
      <Stack gap="xs">
        {records.map((record) => (
          <RecordView key={`${record.partition}:${record.offset}`} record={record} view={view} />
        ))}
      </Stack>
    </Stack>
  );
}
