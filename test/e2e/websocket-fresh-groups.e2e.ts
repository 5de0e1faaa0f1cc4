// Group subscriptions on a broker that has never had a group (issue 16): the first subscriber makes the broker
// create __consumer_offsets and its coordinator load it, and a second subscriber arriving meanwhile must not be
// told "loading, retry" and dropped: the broker is the group client of its WebSocket members and retries the
// coordinator's retriable errors itself, bounded, as Kafka's clients do. Both end up sharing the partitions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import { type Frame, WsClient } from './support/ws-client.js';

let broker: BrokerProcess;
const clients: WsClient[] = [];

beforeEach(async () => {
  broker = await BrokerProcess.start({ env: { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '100' } });
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await broker?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keys = (frame: Frame) =>
  (frame.partitions as Array<{ topic: string; partition: number }>).map((tp) => `${tp.topic}-${tp.partition}`).sort();

describe('WebSocket group members on a fresh broker', () => {
  it('two subscribers of a new group, the second 0.3 s after the first, share the partitions', async () => {
    const clusterId = await broker.clusterId();
    const created = await call(broker.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: { topic_name: 'fresh', partitions_count: 2 },
    });
    expect(created.status, created.text).toBe(201);
    const subscribe = { op: 'subscribe', id: 's', topics: ['fresh'], group: 'newcomers', from: 'earliest' };
    const first = await WsClient.connect(broker.url);
    const second = await WsClient.connect(broker.url);
    clients.push(first, second);
    first.send(subscribe);
    await sleep(300);
    second.send(subscribe);

    const split = (client: WsClient) =>
      client.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 30_000);
    const [a, b] = await Promise.all([split(first), split(second)]);
    expect(a.generation).toBe(b.generation);
    expect([...keys(a), ...keys(b)].sort()).toEqual(['fresh-0', 'fresh-1']);
    for (const client of [first, second]) {
      expect(client.frames.filter((frame) => frame.op === 'error')).toEqual([]);
    }
  });
});
