// A topic: its partitions, the message browser, producing a record, the live tail and its configs, one tab each;
// the tab (and the browser's partition and offset) are part of the URL.
import { Anchor, Breadcrumbs, Stack, Tabs, Title } from '@mantine/core';
import { Link, useLocation } from 'wouter';
import { useClusterId } from '../../api/cluster';
import { useTopic } from '../../api/topic';
import { ErrorAlert } from '../../components/error-alert';
import { LiveTail } from './live-tail';
import { MessageBrowser } from './message-browser';
import { PartitionsPanel } from './partitions-panel';
import { ProduceForm } from './produce-form';
import { TopicConfigs } from './topic-configs';

const TABS = ['partitions', 'messages', 'produce', 'tail', 'configs'] as const;
type Tab = (typeof TABS)[number];

export function TopicPage({ params }: { params: { name: string; tab?: string; partition?: string; offset?: string } }) {
  const c = useClusterId();
  const topicName = decodeURIComponent(params.name);
  const tab: Tab = TABS.includes(params.tab as Tab) ? (params.tab as Tab) : 'partitions';
  const [, navigate] = useLocation();
  const topic = useTopic(c, topicName);
  const base = `/topics/${encodeURIComponent(topicName)}`;
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} href="/topics">
          Topics
        </Anchor>
        <span>{topicName}</span>
      </Breadcrumbs>
      <Title order={2}>{topicName}</Title>
      {topic.isError ? (
        <ErrorAlert error={topic.error} />
      ) : (
        <Tabs value={tab} onChange={(value) => navigate(`${base}/${value ?? 'partitions'}`)} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="partitions">Partitions</Tabs.Tab>
            <Tabs.Tab value="messages">Messages</Tabs.Tab>
            <Tabs.Tab value="produce">Produce</Tabs.Tab>
            <Tabs.Tab value="tail">Live tail</Tabs.Tab>
            <Tabs.Tab value="configs">Configs</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="partitions" pt="md">
            <PartitionsPanel clusterId={c} topic={topicName} partitionsCount={topic.data?.partitions_count ?? 0} />
          </Tabs.Panel>
          <Tabs.Panel value="messages" pt="md">
            <MessageBrowser
              clusterId={c}
              topic={topicName}
              partitionsCount={topic.data?.partitions_count ?? 0}
              initialPartition={params.partition}
              initialOffset={params.offset}
              onShare={(partition, offset) => navigate(`${base}/messages/${partition}/${offset}`, { replace: true })}
            />
          </Tabs.Panel>
          <Tabs.Panel value="produce" pt="md">
            <ProduceForm clusterId={c} topic={topicName} />
          </Tabs.Panel>
          <Tabs.Panel value="tail" pt="md">
            <LiveTail clusterId={c} topic={topicName} />
          </Tabs.Panel>
          <Tabs.Panel value="configs" pt="md">
            <TopicConfigs clusterId={c} topic={topicName} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
