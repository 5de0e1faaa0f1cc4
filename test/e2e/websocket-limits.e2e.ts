// GET /v3/ws end to end on a broker with small limits: the socket bound (1,000 idle sockets held, one more closed
// with 1008), ping/pong liveness (a socket or a group member that stops answering is dropped), and a client that
// stops reading paused and then closed with 4001 while the broker's RSS stays bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopic, rssBytes, sleep } from './support/broker-helpers.js';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import { WsClient } from './support/ws-client.js';

describe('WebSocket limits', () => {
  let limited: BrokerProcess;
  const SOCKETS_MAX = 1000;

  beforeAll(async () => {
    limited = await BrokerProcess.start({
      env: {
        BROOK_WS_SOCKETS_MAX: String(SOCKETS_MAX),
        // Long enough for a busy test process (1,000 clients in it) to answer pings in time.
        BROOK_WS_PING_INTERVAL_MS: '1000',
        BROOK_WS_BUFFERED_BYTES_PAUSE: String(256 * 1024),
        BROOK_WS_BUFFERED_BYTES_MAX: String(1024 * 1024),
        BROOK_WS_SLOW_CONSUMER_TIMEOUT_MS: '2000',
        BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '100',
      },
    });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('holds 1,000 idle sockets, answers on them, and closes one more with 1008', async () => {
    await createTopic(limited, 'ws-idle', 1);
    const rssBefore = rssBytes(limited.child!.pid!);
    const clients: WsClient[] = [];
    for (let i = 0; i < SOCKETS_MAX; i += 100) {
      clients.push(...(await Promise.all(Array.from({ length: 100 }, () => WsClient.connect(limited.url)))));
    }
    expect(clients.length).toBe(SOCKETS_MAX);
    const extra = await WsClient.connect(limited.url);
    expect(await extra.waitClosed(10_000)).toBe(1008);
    // Several ping rounds: idle but live sockets (the client answers pings) stay open.
    await sleep(3_500);
    expect(clients.filter((client) => client.closeCode !== null)).toEqual([]);
    const ack = await clients[SOCKETS_MAX - 1].request({
      op: 'produce',
      id: 1,
      topic: 'ws-idle',
      records: [{ value: 'x' }],
    });
    expect(ack.op).toBe('ack');
    const rssGrowth = rssBytes(limited.child!.pid!) - rssBefore;
    console.log(`1,000 idle sockets: broker RSS grew by ${(rssGrowth / 1024 / 1024).toFixed(1)} MiB`);
    expect(rssGrowth).toBeLessThan(200 * 1024 * 1024);
    await Promise.all(
      clients.map((client) => {
        client.close();
        return client.waitClosed();
      }),
    );
  });

  it('drops a socket that does not answer pings', async () => {
    const silent = await WsClient.connect(limited.url, { autoPong: false });
    const started = Date.now();
    const code = await silent.waitClosed();
    expect(code).toBe(1006);
    // Dropped at the second ping after it missed the first: within two intervals.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('drops a group member that stops answering pings, and its partitions move to the other member', async () => {
    await createTopic(limited, 'ws-silent', 2);
    const subscribe = { op: 'subscribe', id: 'g', topics: ['ws-silent'], group: 'silent', from: 'earliest' };
    const live = await WsClient.connect(limited.url);
    await live.request(subscribe);
    const silent = await WsClient.connect(limited.url, { autoPong: false });
    await silent.request(subscribe);
    await silent.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 10_000);
    expect(await silent.waitClosed()).toBe(1006);
    await live.next((frame) => frame.op === 'assigned' && frame.partitions.length === 2, 10_000);
    live.close();
  });

  it('pauses a subscriber that stops reading, then closes it with 4001, with broker memory bounded', async () => {
    await createTopic(limited, 'ws-slow', 1);
    const producer = await WsClient.connect(limited.url);
    const value = 'v'.repeat(8 * 1024);
    const frames = 100;
    const producedFrom = Date.now();
    for (let i = 0; i < frames; i++) {
      const ack = await producer.request({
        op: 'produce',
        id: i,
        topic: 'ws-slow',
        records: Array.from({ length: 100 }, () => ({ value })),
        acks: 1,
      });
      expect(ack.op).toBe('ack');
    }
    producer.close();
    console.log(`slow reader: produced 80 MB in ${Date.now() - producedFrom} ms`);
    // 10,000 records of 8 KiB are on disk and the subscriber grants credits for all of them (80 MB) but reads
    // nothing: the broker may queue only up to the pause mark.
    const pid = limited.child!.pid!;
    const rssBefore = rssBytes(pid);
    const slow = await WsClient.connect(limited.url);
    slow.send({
      op: 'subscribe',
      id: 's',
      assign: [{ topic: 'ws-slow', partition: 0 }],
      from: 'earliest',
      credits: 10_000,
    });
    slow.socket.pause();
    let rssMax = rssBefore;
    for (let waited = 0; waited < 4_000; waited += 100) {
      await sleep(100);
      rssMax = Math.max(rssMax, rssBytes(pid));
    }
    slow.socket.resume();
    const resumedAt = Date.now();
    expect(await slow.waitClosed()).toBe(4001);
    expect(Date.now() - resumedAt).toBeLessThan(5_000);
    const received = slow.records('s').length;
    console.log(
      `slow reader: received ${received} of 10000 credited records before 4001; broker RSS grew by at most ${((rssMax - rssBefore) / 1024 / 1024).toFixed(1)} MiB`,
    );
    expect(received).toBeLessThan(5_000);
    expect(rssMax - rssBefore).toBeLessThan(24 * 1024 * 1024);
    expect((await call(limited.url, 'GET', '/healthz')).status).toBe(200);
  });
});
