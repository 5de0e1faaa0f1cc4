// A consumer group: state, protocol, members and what each is assigned, committed offsets and lag per partition,
// total lag over time; offset resets (a dry run first) and delete, which the broker allows only when it is empty.
import { Anchor, Badge, Breadcrumbs, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useClusterId } from '../../api/cluster';
import { useGroup } from '../../api/group';
import { ConfirmByName } from '../../components/confirm-by-name';
import { ErrorAlert } from '../../components/error-alert';
import { TimeSeriesChart } from '../../components/time-series-chart';
import { ResetOffsets } from './reset-offsets';

/** Points of total lag kept for the chart. */
export const LAG_POINTS_MAX = 300;

export function GroupPage({ params }: { params: { group: string } }) {
  const c = useClusterId();
  const groupId = decodeURIComponent(params.group);
  const [, navigate] = useLocation();
  const { detail, lags } = useGroup(c, groupId);
  const [history, setHistory] = useState<[number, number][]>([]);
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.DELETE('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}', {
          params: { path: { cluster_id: c, consumer_group_id: groupId } },
        }),
      ),
    onSuccess: () => navigate('/groups'),
  });
  useEffect(() => {
    if (lags.data === undefined) return;
    const point: [number, number] = [lags.data.atMs / 1000, lags.data.summary.total_lag];
    setHistory((current) => [...current, point].slice(-LAG_POINTS_MAX));
  }, [lags.data]);

  const empty = detail.data?.state === 'EMPTY';
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} href="/groups">
          Consumer groups
        </Anchor>
        <span>{groupId}</span>
      </Breadcrumbs>
      <Group justify="space-between">
        <Title order={2}>{groupId}</Title>
        <Button color="red" variant="light" disabled={!empty} onClick={() => setDeleting(true)}>
          Delete group
        </Button>
      </Group>
      {detail.isError && <ErrorAlert error={detail.error} />}
      {lags.isError && <ErrorAlert error={lags.error} />}
      {detail.data !== undefined && (
        <Group>
          <Text>
            State <Badge data-testid="group-state">{detail.data.state}</Badge>
          </Text>
          <Text>
            Type <span data-testid="group-type">{detail.data.type}</span>
          </Text>
          <Text>
            Protocol (assignor) <span data-testid="group-assignor">{detail.data.partition_assignor || '—'}</span>
          </Text>
          <Text>
            Total lag <strong data-testid="total-lag">{lags.data?.summary.total_lag ?? '…'}</strong>
          </Text>
        </Group>
      )}
      <TimeSeriesChart title="Total lag" series={[{ label: 'lag', points: history, color: '#c92a2a' }]} />
      <Title order={3}>Members</Title>
      <Table.ScrollContainer minWidth={500}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Consumer</Table.Th>
              <Table.Th>Client</Table.Th>
              <Table.Th>Instance</Table.Th>
              <Table.Th>Assigned</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lags.data?.consumers.map((consumer) => (
              <Table.Tr key={consumer.consumer_id} data-testid="member">
                <Table.Td ff="monospace">{consumer.consumer_id}</Table.Td>
                <Table.Td>{consumer.client_id}</Table.Td>
                <Table.Td>{consumer.instance_id ?? '—'}</Table.Td>
                <Table.Td>
                  {lags.data.lags
                    .filter((lag) => lag.consumer_id === consumer.consumer_id)
                    .map((lag) => `${lag.topic_name}:${lag.partition_id}`)
                    .join(', ') || '—'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={3}>Lag per partition</Title>
      <Table.ScrollContainer minWidth={600}>
        <Table striped data-testid="lags">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Topic</Table.Th>
              <Table.Th>Partition</Table.Th>
              <Table.Th>Committed</Table.Th>
              <Table.Th>Log end</Table.Th>
              <Table.Th>Lag</Table.Th>
              <Table.Th>Consumer</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lags.data?.lags.map((lag) => (
              <Table.Tr
                key={`${lag.topic_name}:${lag.partition_id}`}
                data-testid={`lag-${lag.topic_name}-${lag.partition_id}`}
              >
                <Table.Td>{lag.topic_name}</Table.Td>
                <Table.Td>{lag.partition_id}</Table.Td>
                <Table.Td>{lag.current_offset}</Table.Td>
                <Table.Td>{lag.log_end_offset}</Table.Td>
                <Table.Td data-testid="lag">{lag.lag}</Table.Td>
                <Table.Td ff="monospace">{lag.consumer_id || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ResetOffsets clusterId={c} group={groupId} empty={empty} />
      {deleting && (
        <ConfirmByName
          opened
          title={`Delete group ${groupId}`}
          name={groupId}
          action="Delete"
          busy={remove.isPending}
          error={remove.error}
          onCancel={() => setDeleting(false)}
          onConfirm={() => remove.mutate()}
        />
      )}
    </Stack>
  );
}
