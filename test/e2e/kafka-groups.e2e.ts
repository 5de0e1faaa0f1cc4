// A kafkajs consumer group against a real broker (Kafka's classic group protocol over Brook's group coordinator):
// two members share a topic's partitions and commit; when one leaves the other takes its partitions and goes on
// from the committed offsets; after the broker is killed with kill -9 and restarted the member resumes from what
// was committed, nothing read twice. REST v3 and `brook consumer-groups` show the same committed offsets and lag.
import { afterAll, describe, expect, it } from 'vitest';
import type { Producer } from 'kafkajs';
import { brokerForSuite } from './support/broker-process.js';
import { brook } from './support/brook-cli.js';
import { call } from './support/http.js';
import {
  G,
  GROUP_ENV,
  RecordingMember,
  committedToEnd,
  createTopic,
  eventually,
  kafkaClient,
  restLags,
} from './support/kafka-groups.js';

const TOPIC = 'shared';
const PARTITIONS = 4;
const GROUP = 'kafkajs-workers';

const values = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

describe('a kafkajs consumer group', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });
  const members: RecordingMember[] = [];
  let producer: Producer;
  let first: RecordingMember;
  let second: RecordingMember;

  const produce = async (batch: string[]) => {
    await producer.send({ topic: TOPIC, messages: batch.map((value) => ({ key: value, value })) });
  };
  const start = async (clientId: string) => {
    const member = await RecordingMember.start(kafkaClient(suite.broker.kafkaBootstrap, clientId), GROUP, TOPIC);
    members.push(member);
    return member;
  };

  afterAll(async () => {
    await Promise.all(members.map((member) => member.stop().catch(() => undefined)));
    await producer?.disconnect().catch(() => undefined);
  });

  it('shares the partitions between two members, each record read once, and commits', async () => {
    await createTopic(suite.url, suite.clusterId, TOPIC, PARTITIONS);
    producer = kafkaClient(suite.broker.kafkaBootstrap, 'e2e-producer').producer();
    await producer.connect();
    first = await start('worker-a');
    second = await start('worker-b');
    await eventually('both members assigned, the partitions split between them', async () =>
      first.partitions.length > 0 &&
      second.partitions.length > 0 &&
      [...first.partitions, ...second.partitions].sort().join() === '0,1,2,3'
        ? true
        : undefined,
    );

    const batch = values('one', 40);
    await produce(batch);
    await eventually('every record received', async () =>
      first.values.length + second.values.length >= batch.length ? true : undefined,
    );
    expect([...first.values, ...second.values].sort()).toEqual([...batch].sort());
    expect(first.values.length).toBeGreaterThan(0);
    expect(second.values.length).toBeGreaterThan(0);

    const lags = await committedToEnd(suite.url, suite.clusterId, GROUP, PARTITIONS);
    expect(lags.reduce((sum, lag) => sum + lag.current_offset, 0)).toBe(batch.length);

    const consumers = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/${GROUP}`, {
      spec: G,
    });
    expect(consumers.status, consumers.text).toBe(200);
    expect(consumers.body.state).toBe('STABLE');
    const described = await brook(['consumer-groups', '--describe', '--group', GROUP, '--output', 'json'], {
      env: { BROOK_URL: suite.url },
    });
    expect(described.code, described.stderr).toBe(0);
    const rows = JSON.parse(described.stdout).lags as Array<{ current_offset: number; lag: number; client_id: string }>;
    expect(rows.map((row) => row.current_offset)).toEqual(lags.map((lag) => lag.current_offset));
    expect(rows.every((row) => row.lag === 0)).toBe(true);
    expect(new Set(rows.map((row) => row.client_id))).toEqual(new Set(['worker-a', 'worker-b']));

    // kafkajs's admin client (DescribeGroups v2, ListGroups v2, OffsetFetch v4) sees the same group
    const admin = kafkaClient(suite.broker.kafkaBootstrap, 'e2e-admin').admin();
    await admin.connect();
    try {
      const [described] = (await admin.describeGroups([GROUP])).groups;
      expect(described).toMatchObject({ groupId: GROUP, state: 'Stable', protocolType: 'consumer' });
      expect(described.members.map((member) => member.clientId).sort()).toEqual(['worker-a', 'worker-b']);
      expect((await admin.listGroups()).groups).toContainEqual({ groupId: GROUP, protocolType: 'consumer' });
      const [fetched] = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      expect(fetched.partitions.reduce((sum, partition) => sum + Number(partition.offset), 0)).toBe(batch.length);
    } finally {
      await admin.disconnect();
    }
  });

  it('gives a leaving member’s partitions to the other, which goes on from the committed offsets', async () => {
    const before = first.values.length;
    await second.stop();
    await eventually('the remaining member owns every partition', async () =>
      first.partitions.join() === '0,1,2,3' ? true : undefined,
    );
    const batch = values('two', 40);
    await produce(batch);
    await eventually('the remaining member received the new records', async () =>
      first.values.length - before >= batch.length ? true : undefined,
    );
    expect(first.values.slice(before).sort()).toEqual([...batch].sort());
    const lags = await committedToEnd(suite.url, suite.clusterId, GROUP, PARTITIONS);
    expect(lags.reduce((sum, lag) => sum + lag.current_offset, 0)).toBe(80);
  });

  it('resumes from the committed offsets after the broker is killed with kill -9', async () => {
    const before = first.values.length;
    await suite.broker.restart('SIGKILL');
    expect((await restLags(suite.url, suite.clusterId, GROUP)).reduce((sum, lag) => sum + lag.current_offset, 0)).toBe(
      80,
    );
    const batch = values('three', 20);
    await produce(batch); // kafkajs reconnects, within its retries
    await eventually('the member received the records produced after the restart', async () =>
      first.values.length - before >= batch.length ? true : undefined,
    );
    expect(first.crash).toBeNull();
    expect(first.values.slice(before).sort()).toEqual([...batch].sort());
    await committedToEnd(suite.url, suite.clusterId, GROUP, PARTITIONS);
  });

  it('deletes the group with kafkajs’s admin client once its last member has left (DeleteGroups v1)', async () => {
    const admin = kafkaClient(suite.broker.kafkaBootstrap, 'e2e-admin').admin();
    await admin.connect();
    try {
      const refused = (await admin.deleteGroups([GROUP]).then(
        () => null,
        (error: unknown) => error,
      )) as { groups?: Array<{ groupId: string; error?: { type: string } }> } | null;
      expect(refused?.groups?.map((group) => [group.groupId, group.error?.type])).toEqual([[GROUP, 'NON_EMPTY_GROUP']]);
      await first.stop();
      await admin.deleteGroups([GROUP]);
      const gone = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/${GROUP}`, {
        spec: G,
      });
      expect(gone.status).toBe(404);
    } finally {
      await admin.disconnect();
    }
  });
});
