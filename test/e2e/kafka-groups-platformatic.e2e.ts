// @platformatic/kafka 1.35.0, which speaks the newest group versions Brook advertises (FindCoordinator v4 batched,
// JoinGroup v9, SyncGroup v5, Heartbeat v4, LeaveGroup v4, OffsetCommit v9, OffsetFetch v9 batched,
// DescribeGroups v5, ListGroups v4, DeleteGroups v2, all flexible): a consumer in a group reads and commits, its
// admin client lists and describes the group and its committed offsets, and deletes it once it is empty.
import { afterAll, describe, expect, it } from 'vitest';
import { Admin, Consumer, Producer, stringDeserializers, stringSerializers } from '@platformatic/kafka';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { G, GROUP_ENV, committedToEnd, createTopic, eventually } from './support/kafka-groups.js';

const TOPIC = 'modern-topic';
const GROUP = 'modern-group';

/** The Kafka error names in an error of @platformatic/kafka (its errors nest, one per failed request). */
function protocolErrors(error: unknown): string[] {
  const { apiId, errors } = (error ?? {}) as { apiId?: string; errors?: unknown[] };
  return [...(apiId === undefined ? [] : [apiId]), ...(errors ?? []).flatMap(protocolErrors)];
}

describe('@platformatic/kafka in a consumer group', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  });
  const bootstrapBrokers = () => [suite.broker.kafkaBootstrap];

  it('reads and commits in a group, which its admin client lists, describes and deletes once empty', async () => {
    await createTopic(suite.url, suite.clusterId, TOPIC, 2);
    const producer = new Producer({
      clientId: 'modern-producer',
      bootstrapBrokers: bootstrapBrokers(),
      serializers: stringSerializers,
    });
    closers.push(() => producer.close());
    const sent = Array.from({ length: 10 }, (_, i) => `modern-${i}`);
    await producer.send({ messages: sent.map((value) => ({ topic: TOPIC, key: value, value })) });

    const consumer = new Consumer({
      clientId: 'modern-consumer',
      groupId: GROUP,
      bootstrapBrokers: bootstrapBrokers(),
      deserializers: stringDeserializers,
      sessionTimeout: 6_000,
      heartbeatInterval: 500,
    });
    closers.push(async () => consumer.close(true));
    const stream = await consumer.consume({
      topics: [TOPIC],
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      maxWaitTime: 300,
    });
    const received: string[] = [];
    stream.on('data', (message) => {
      received.push(message.value);
      void message.commit();
    });
    await eventually('every record received', async () => (received.length >= sent.length ? true : undefined));
    expect([...received].sort()).toEqual([...sent].sort());
    await committedToEnd(suite.url, suite.clusterId, GROUP, 2);

    const admin = new Admin({ clientId: 'modern-admin', bootstrapBrokers: bootstrapBrokers() });
    closers.push(() => admin.close());
    const listed = await admin.listGroups();
    expect(listed.get(GROUP)).toMatchObject({ id: GROUP, protocolType: 'consumer' });
    const described = (await admin.describeGroups({ groups: [GROUP] })).get(GROUP)!;
    expect(described.state).toBe('STABLE');
    const members = [...described.members.values()];
    expect(members.map((member) => member.clientId)).toEqual(['modern-consumer']);
    expect([...(members[0].assignments?.get(TOPIC)?.partitions ?? [])].sort()).toEqual([0, 1]);
    const [offsets] = await admin.listConsumerGroupOffsets({ groups: [GROUP] });
    const committed = offsets.topics.find((topic) => topic.name === TOPIC)!;
    expect(committed.partitions.reduce((sum, partition) => sum + Number(partition.committedOffset), 0)).toBe(10);

    const refused = await admin.deleteGroups({ groups: [GROUP] }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(protocolErrors(refused)).toContain('NON_EMPTY_GROUP');
    await consumer.close(true);
    await eventually('the group is empty', async () => {
      const state = (await admin.describeGroups({ groups: [GROUP] })).get(GROUP)?.state;
      return state === 'EMPTY' ? true : undefined;
    });
    await admin.deleteGroups({ groups: [GROUP] });
    const gone = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/${GROUP}`, { spec: G });
    expect(gone.status).toBe(404);
  });
});
