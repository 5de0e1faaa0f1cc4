// Overview: the cluster, its brokers and controller, counts of topics and partitions, this broker's health
// gauges, and produce and fetch rates charted from this broker's metrics.
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, relatedId, unwrap } from '../../api/client';
import { useCluster } from '../../api/cluster';
import { useCounterRates, useMetricsText } from '../../api/metrics';
import { ErrorAlert } from '../../components/error-alert';
import { TimeSeriesChart } from '../../components/time-series-chart';
import { sumOfMetric } from '../../lib/prometheus-text';

const IN = 'brook_topic_messages_in_total';
const OUT = 'brook_topic_messages_out_total';

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
  const brokers = useQuery({
    queryKey: ['brokers', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/brokers', { params: { path: { cluster_id: c } } })),
    refetchInterval: 5_000,
  });
  const topics = useQuery({
    queryKey: ['topics', c],
    queryFn: async () =>
      unwrap(await api.GET('/v3/clusters/{cluster_id}/topics', { params: { path: { cluster_id: c } } })),
  });
  const metrics = useMetricsText();
  const rates = useCounterRates(metrics.data, [IN, OUT]);
  const controller = relatedId(cluster.controller?.related);
  const partitions = topics.data?.data.reduce((sum, topic) => sum + topic.partitions_count, 0);
  const gauge = (name: string) => {
    const value = metrics.data === undefined ? null : sumOfMetric(metrics.data.text, name);
    return value === null ? '—' : value;
  };

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
        <Stat label="Brokers" value={brokers.data?.data.length ?? '…'} />
        <Stat label="Controller" value={controller === null ? 'none' : `broker ${controller}`} />
        <Stat label="Topics" value={topics.data?.data.length ?? '…'} testId="topic-count" />
        <Stat label="Partitions" value={partitions ?? '…'} />
        <Stat label="Under-replicated (led here)" value={gauge('brook_replication_under_replicated_partitions')} />
        <Stat label="Offline (controller)" value={gauge('brook_controller_offline_partitions')} />
      </SimpleGrid>
      {brokers.isError && <ErrorAlert error={brokers.error} />}
      <Title order={3}>Brokers</Title>
      <Table.ScrollContainer minWidth={400}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Id</Table.Th>
              <Table.Th>Host</Table.Th>
              <Table.Th>Port</Table.Th>
              <Table.Th>Rack</Table.Th>
              <Table.Th>Role</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {brokers.data?.data.map((broker) => (
              <Table.Tr key={broker.broker_id}>
                <Table.Td>{broker.broker_id}</Table.Td>
                <Table.Td>{broker.host ?? '—'}</Table.Td>
                <Table.Td>{broker.port ?? '—'}</Table.Td>
                <Table.Td>{broker.rack ?? '—'}</Table.Td>
                <Table.Td>{String(broker.broker_id) === controller && <Badge>controller</Badge>}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={3}>Traffic on this broker</Title>
      {metrics.isError ? (
        <ErrorAlert error={metrics.error} title="Metrics unavailable" />
      ) : (
        <Group grow align="flex-start" wrap="wrap">
          <TimeSeriesChart
            title="Records produced per second"
            series={[{ label: 'produced/s', points: rates[IN] ?? [], color: '#0c8599' }]}
          />
          <TimeSeriesChart
            title="Records fetched per second"
            series={[{ label: 'fetched/s', points: rates[OUT] ?? [], color: '#e8590c' }]}
          />
        </Group>
      )}
    </Stack>
  );
}
