// Overview: the cluster, its brokers (incarnation, liveness) and controller with its epoch, counts of topics and
// partitions, under-replicated and offline partitions in the whole cluster, and the cluster's produce and fetch
// rates (Brook's status and topic-stats routes, polled; never another broker's /metrics).
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useCluster } from '../../api/cluster';
import { useClusterStatus, useHistory, useTopicStats } from '../../api/stats';
import { ErrorAlert } from '../../components/error-alert';
import { TimeSeriesChart } from '../../components/time-series-chart';

function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

export function OverviewPage() {
  const cluster = useCluster().data!;
  const c = cluster.cluster_id;
  const status = useClusterStatus(c);
  const stats = useTopicStats(c);
  const topics = stats.data?.data.filter((topic) => !topic.is_internal);
  const sum = (pick: (topic: NonNullable<typeof topics>[number]) => number) =>
    stats.data === undefined ? undefined : stats.data.data.reduce((total, topic) => total + pick(topic), 0);
  const produced = useHistory(
    sum((topic) => topic.produce_records_per_second),
    stats.dataUpdatedAt,
  );
  const fetched = useHistory(
    sum((topic) => topic.fetch_records_per_second),
    stats.dataUpdatedAt,
  );
  const s = status.data;
  const alive = s?.brokers.filter((broker) => broker.alive).length;
  const controller = s === undefined ? '…' : s.controller === null ? 'none' : `broker ${s.controller.broker_id}`;

  return (
    <Stack>
      <Title order={2}>Overview</Title>
      <Text>
        Cluster{' '}
        <Text span ff="monospace" data-testid="cluster-id">
          {c}
        </Text>
      </Text>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Stat
          label="Brokers alive"
          value={s === undefined ? '…' : `${alive} of ${s.brokers.length}`}
          testId="brokers-alive"
        />
        <Stat label="Controller" value={controller} testId="controller" />
        <Stat
          label="Controller epoch"
          value={s === undefined ? '…' : (s.controller?.epoch ?? '—')}
          testId="controller-epoch"
        />
        <Stat label="Topics" value={topics?.length ?? '…'} testId="topic-count" />
        <Stat label="Partitions" value={s?.partitions_count ?? '…'} />
        <Stat label="Under-replicated" value={s?.under_replicated_partitions ?? '…'} testId="under-replicated" />
        <Stat label="Offline" value={s?.offline_partitions ?? '…'} testId="offline" />
      </SimpleGrid>
      {status.isError && <ErrorAlert error={status.error} />}
      <Title order={3}>Brokers</Title>
      <Table.ScrollContainer minWidth={600}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Id</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>Kafka listener</Table.Th>
              <Table.Th>Incarnation</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Role</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {s?.brokers.map((broker) => (
              <Table.Tr key={broker.broker_id} data-testid={`broker-${broker.broker_id}`}>
                <Table.Td>{broker.broker_id}</Table.Td>
                <Table.Td>{broker.url ?? '—'}</Table.Td>
                <Table.Td>{broker.kafka_listener ?? '—'}</Table.Td>
                <Table.Td data-testid={`broker-epoch-${broker.broker_id}`}>{broker.broker_epoch ?? '—'}</Table.Td>
                <Table.Td>
                  {broker.alive ? <Badge color="teal">alive</Badge> : <Badge color="red">down</Badge>}
                </Table.Td>
                <Table.Td>{broker.is_controller && <Badge>controller</Badge>}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={3}>Traffic in the cluster</Title>
      {stats.isError ? (
        <ErrorAlert error={stats.error} title="Statistics unavailable" />
      ) : (
        <Group grow align="flex-start" wrap="wrap">
          <TimeSeriesChart
            title="Records produced per second"
            series={[{ label: 'produced/s', points: produced, color: '#0c8599' }]}
          />
          <TimeSeriesChart
            title="Records fetched per second"
            series={[{ label: 'fetched/s', points: fetched, color: '#e8590c' }]}
          />
        </Group>
      )}
    </Stack>
  );
}
