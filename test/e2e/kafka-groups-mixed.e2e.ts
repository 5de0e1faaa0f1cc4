// One kind of client per group (a deliberate difference from Confluent, README "Kafka clients and REST groups"):
// while Kafka clients use a group, REST v2 instances get 409 40907 and WebSocket group members an error frame
// 40907; while a REST v2 instance exists in a group, a kafkajs consumer's JoinGroup is refused with
// INCONSISTENT_GROUP_PROTOCOL. The two kinds still share the group's committed offsets, one after the other.
import { afterAll, describe, expect, it } from 'vitest';
import type { Consumer } from 'kafkajs';
import { brokerForSuite } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import {
  GROUP_ENV,
  RecordingMember,
  committedToEnd,
  createTopic,
  eventually,
  kafkaClient,
} from './support/kafka-groups.js';
import { V2, V2Consumer } from './support/v2-consumer.js';
import { WsClient } from './support/ws-client.js';

const TOPIC = 'mixed-topic';
const GROUP = 'mixed';

describe('a group used by Kafka clients and by REST or WebSocket clients', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  const produce = async (values: string[]) => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const response = await call(suite.url, 'POST', `/topics/${TOPIC}`, {
      body: { records: values.map((value) => ({ key: b64(value), value: b64(value) })) },
      contentType: 'application/vnd.kafka.binary.v2+json',
    });
    expect(response.status, response.text).toBe(200);
  };

  it('refuses REST v2 instances (409 40907) and WebSocket members while a kafkajs consumer uses the group', async () => {
    await createTopic(suite.url, suite.clusterId, TOPIC, 2);
    await produce(['a', 'b', 'c', 'd']);
    const member = await RecordingMember.start(kafkaClient(suite.broker.kafkaBootstrap, 'kafka-member'), GROUP, TOPIC);
    cleanups.push(() => member.stop());
    await eventually('the kafkajs member read the records', async () => (member.values.length >= 4 ? true : undefined));
    await committedToEnd(suite.url, suite.clusterId, GROUP, 2);

    const refused = await call(suite.url, 'POST', `/consumers/${GROUP}`, {
      body: { name: 'rest-member', format: 'binary' },
      contentType: V2,
      spec: '/consumers/{group_name}',
    });
    expectError(refused, 409, 40907);
    expect(refused.body.message).toMatch(/in use by Kafka clients/);

    const ws = await WsClient.connect(suite.url);
    cleanups.push(async () => ws.close());
    const from = ws.frames.length;
    ws.send({ op: 'subscribe', id: 'w', topics: [TOPIC], group: GROUP });
    const reply = await ws.next((frame) => frame.op === 'error' && frame.id === 'w', 10_000, from);
    expect(reply).toMatchObject({ error_code: 40907, message: expect.stringMatching(/in use by Kafka clients/) });

    await member.stop();
  });

  it('lets a REST v2 instance in once the Kafka client left, from the offsets it committed', async () => {
    const instance = await V2Consumer.create(suite.url, GROUP, 'rest-member', { 'auto.offset.reset': 'earliest' });
    cleanups.push(() => instance.delete());
    await instance.subscribe([TOPIC]);
    await produce(['e', 'f']);
    const read: string[] = [];
    await eventually('the REST instance read the records produced after the commits', async () => {
      for (const record of await instance.poll(500))
        read.push(Buffer.from(record.value as string, 'base64').toString());
      return read.length >= 2 ? true : undefined;
    });
    expect(read.sort()).toEqual(['e', 'f']);
  });

  it('refuses a kafkajs consumer with INCONSISTENT_GROUP_PROTOCOL while a REST v2 instance is in the group', async () => {
    const consumer: Consumer = kafkaClient(suite.broker.kafkaBootstrap, 'late-kafka-member').consumer({
      groupId: GROUP,
      retry: { retries: 0, restartOnFailure: async () => false },
    });
    cleanups.push(() => consumer.disconnect());
    let crash: Error | null = null;
    consumer.on(consumer.events.CRASH, (event) => {
      crash = event.payload.error;
    });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC });
    const started = await consumer.run({ eachMessage: async () => undefined }).then(
      () => null,
      (error: Error) => error,
    );
    const error = started ?? (await eventually('the consumer crashed', async () => crash ?? undefined));
    expect((error as Error & { type?: string }).type).toBe('INCONSISTENT_GROUP_PROTOCOL');
  });
});
