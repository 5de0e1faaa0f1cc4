// GET /v3/ws end to end with a plain `ws` client against a broker process: produce and subscribe, per-partition
// order, credit-based flow control, bad frames, and consumer groups over the socket. The limits (the socket bound,
// ping/pong liveness, a client that stops reading) are in websocket-limits.e2e.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopic, sleep } from './support/broker-helpers.js';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import { WsClient } from './support/ws-client.js';

let broker: BrokerProcess;

beforeAll(async () => {
  broker = await BrokerProcess.start({ env: { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '100' } });
});
afterAll(async () => {
  await broker?.stop();
});

describe('WebSocket produce and subscribe', () => {
  it('acks produced records in order and pushes them to a subscriber', async () => {
    await createTopic(broker, 'ws-round', 2);
    const client = await WsClient.connect(broker.url);
    const subscribed = await client.request({
      op: 'subscribe',
      id: 's',
      assign: [
        { topic: 'ws-round', partition: 0 },
        { topic: 'ws-round', partition: 1 },
      ],
      from: 'latest',
    });
    expect(subscribed).toEqual({
      op: 'subscribed',
      id: 's',
      partitions: [
        { topic: 'ws-round', partition: 0, offset: 0 },
        { topic: 'ws-round', partition: 1, offset: 0 },
      ],
    });
    const ack = await client.request({
      op: 'produce',
      id: 'p1',
      topic: 'ws-round',
      records: [
        { value: 'a', partition: 0 },
        { key: 'k', value: 'b', partition: 1, headers: [{ name: 'h', value: Buffer.from('x').toString('base64') }] },
        { value: 'c', partition: 0 },
      ],
    });
    expect(ack).toEqual({
      op: 'ack',
      id: 'p1',
      offsets: [
        { partition: 0, offset: 0 },
        { partition: 1, offset: 0 },
        { partition: 0, offset: 1 },
      ],
    });
    const records = await client.waitForRecords('s', 3);
    expect(records.length).toBe(3);
    const byPosition = Object.fromEntries(records.map((record) => [`${record.partition}:${record.offset}`, record]));
    expect(byPosition['1:0']).toEqual({
      topic: 'ws-round',
      partition: 1,
      offset: 0,
      timestamp: expect.any(Number),
      key: 'k',
      value: 'b',
      headers: [{ name: 'h', value: Buffer.from('x').toString('base64') }],
    });
    expect([byPosition['0:0'].value, byPosition['0:1'].value]).toEqual(['a', 'c']);

    const json = await client.request({
      op: 'produce',
      id: 'p2',
      topic: 'ws-round',
      format: 'json',
      records: [{ value: { n: 1 }, partition: 0 }],
    });
    expect(json.offsets).toEqual([{ partition: 0, offset: 2 }]);
    const binary = await client.request({
      op: 'subscribe',
      id: 'b',
      assign: [{ topic: 'ws-round', partition: 0, offset: 2 }],
      format: 'json',
    });
    expect(binary.op).toBe('subscribed');
    const [jsonRecord] = await client.waitForRecords('b', 1);
    expect(jsonRecord.value).toEqual({ n: 1 });
    client.close();
  });

  it("pushes a caught-up subscriber the records a produce appended before that produce's ack", async () => {
    // The stream woken by the append reads the batch from memory in the same turn and sends it; the ack follows.
    // On one socket the order shows: the records frame comes first.
    await createTopic(broker, 'ws-push-first', 1);
    const client = await WsClient.connect(broker.url);
    const subscribed = await client.request({
      op: 'subscribe',
      id: 's',
      assign: [{ topic: 'ws-push-first', partition: 0 }],
      from: 'latest',
    });
    expect(subscribed.op).toBe('subscribed');
    for (let round = 0; round < 5; round++) {
      await sleep(50); // the stream has caught up and waits
      const from = client.frames.length;
      client.send({ op: 'produce', id: `p${round}`, topic: 'ws-push-first', records: [{ value: `v${round}` }] });
      await client.next((frame) => frame.op === 'ack' && frame.id === `p${round}`, 5_000, from);
      await client.next((frame) => frame.op === 'records' && frame.id === 's', 5_000, from);
      expect(client.frames.slice(from).map((frame) => frame.op)).toEqual(['records', 'ack']);
      expect(client.frames[from].records).toEqual([expect.objectContaining({ offset: round, value: `v${round}` })]);
    }
    client.close();
  });

  it('delivers each partition in offset order, every record exactly once', async () => {
    await createTopic(broker, 'ws-order', 3);
    const producer = await WsClient.connect(broker.url);
    const consumer = await WsClient.connect(broker.url);
    const total = 3000;
    let sent = 0;
    const acks: Promise<unknown>[] = [];
    for (let frame = 0; sent < total; frame++) {
      const records = Array.from({ length: 100 }, (_, i) => ({ value: String(sent + i), partition: (sent + i) % 3 }));
      sent += records.length;
      acks.push(producer.request({ op: 'produce', id: `f${frame}`, topic: 'ws-order', records, acks: 1 }));
      if (frame === 10) {
        // Subscribe while producing: part of the stream is catch-up, the rest arrives live.
        await consumer.request({
          op: 'subscribe',
          id: 'all',
          assign: [0, 1, 2].map((partition) => ({ topic: 'ws-order', partition })),
          from: 'earliest',
          credits: 10_000,
        });
      }
    }
    for (const ack of await Promise.all(acks)) expect((ack as { op: string }).op).toBe('ack');
    const records = await consumer.waitForRecords('all', total, 20_000);
    expect(records.length).toBe(total);
    for (const partition of [0, 1, 2]) {
      const mine = records.filter((record) => record.partition === partition);
      expect(mine.map((record) => record.offset)).toEqual(mine.map((_, i) => i));
      expect(mine.map((record) => Number(record.value))).toEqual(mine.map((_, i) => i * 3 + partition));
    }
    producer.close();
    consumer.close();
  });

  it('never has more records in flight than the credits granted', async () => {
    await createTopic(broker, 'ws-credits', 2);
    const client = await WsClient.connect(broker.url);
    const records = Array.from({ length: 200 }, (_, i) => ({ value: `v${i}`, partition: i % 2 }));
    expect((await client.request({ op: 'produce', id: 'p', topic: 'ws-credits', records })).op).toBe('ack');
    await client.request({
      op: 'subscribe',
      id: 'c',
      assign: [0, 1].map((partition) => ({ topic: 'ws-credits', partition })),
      from: 'earliest',
      credits: 7,
    });
    let granted = 7;
    await client.waitForRecords('c', 7);
    await sleep(300);
    expect(client.records('c').length).toBe(7);
    for (const n of [1, 13, 50]) {
      client.send({ op: 'credit', id: 'c', n });
      granted += n;
      await client.waitForRecords('c', granted);
      await sleep(200);
      expect(client.records('c').length).toBe(granted);
    }
    client.send({ op: 'credit', id: 'c', n: 9_990 });
    await client.waitForRecords('c', 200);
    // 9,861 credits are left; 500 more would pass BROOK_WS_CREDITS_MAX (10,000) and are refused whole.
    const refused = await client.request({ op: 'credit', id: 'c', n: 500 });
    expect(refused).toMatchObject({ op: 'error', id: 'c', error_code: 40002, message: expect.stringMatching(/10000/) });
    client.send({ op: 'unsubscribe', id: 'c' });
    const unknown = await client.request({ op: 'credit', id: 'c', n: 1 });
    expect(unknown).toMatchObject({
      op: 'error',
      error_code: 40002,
      message: expect.stringMatching(/No subscription/),
    });
    expect(client.records('c').length).toBe(200);
    client.close();
  });

  it('answers bad frames with error frames and keeps the socket and the broker up', async () => {
    await createTopic(broker, 'ws-bad', 1);
    const client = await WsClient.connect(broker.url);
    const expectError = async (frame: unknown, code: number, message: RegExp) => {
      const from = client.frames.length;
      client.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      const reply = await client.next((f) => f.op === 'error', 5_000, from);
      expect(reply, JSON.stringify(frame)).toMatchObject({ error_code: code, message: expect.stringMatching(message) });
      return reply;
    };
    await expectError('{"op":', 40002, /not valid JSON/);
    await expectError('"hello"', 40002, /JSON object/);
    expect((await expectError({ op: 'jump', id: 'j' }, 40002, /Unknown op/)).id).toBe('j');
    await expectError({ op: 'produce', id: 1, topic: 'nope', records: [{ value: 'x' }] }, 40401, /nope/);
    await expectError({ op: 'produce', id: 2, topic: 'ws-bad', records: [{ value: 'x', partition: 5 }] }, 40402, /5/);
    await expectError({ op: 'produce', id: 3, topic: 'ws-bad', records: [{ value: 42 }] }, 42206, /string/);
    await expectError({ op: 'subscribe', id: 4, assign: [{ topic: 'nope', partition: 0 }] }, 40401, /nope/);
    await expectError({ op: 'subscribe', id: 5, assign: [{ topic: 'ws-bad', partition: 3 }] }, 40402, /3/);
    await expectError(
      { op: 'subscribe', id: 6, assign: [{ topic: 'ws-bad', partition: 0, offset: 99 }] },
      40002,
      /out of range/,
    );
    await expectError({ op: 'subscribe', id: 7, assign: [{ topic: 'ws-bad', partition: -1 }] }, 40002, /partition/);
    await expectError({ op: 'subscribe', id: 8, topics: ['nope'], group: 'g' }, 40401, /nope/);
    await expectError({ op: 'subscribe', id: 81, topics: ['ws-bad'] }, 40002, /needs a group/);
    await expectError({ op: 'commit', id: 9, offsets: [{ topic: 'ws-bad', partition: 0, offset: 1 }] }, 40002, /group/);
    await expectError({ op: 'unsubscribe', id: 'none' }, 40002, /No subscription/);
    await expectError(
      { op: 'produce', id: 10, topic: 'ws-bad', records: [{ value: 'x' }], acks: 'some' },
      40002,
      /acks/,
    );
    const from = client.frames.length;
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next((f) => f.op === 'error', 5_000, from)).toMatchObject({ message: /Binary frames/ });
    // Subscriptions per socket (BROOK_WS_SUBSCRIPTIONS_MAX, 16) and distinct ids.
    for (let i = 0; i < 16; i++) {
      expect(
        (await client.request({ op: 'subscribe', id: `sub${i}`, assign: [{ topic: 'ws-bad', partition: 0 }] })).op,
      ).toBe('subscribed');
    }
    await expectError({ op: 'subscribe', id: 'sub0', assign: [{ topic: 'ws-bad', partition: 0 }] }, 40901, /already/);
    await expectError({ op: 'subscribe', id: 'sub16', assign: [{ topic: 'ws-bad', partition: 0 }] }, 42901, /16/);
    client.send({ op: 'unsubscribe', id: 'sub0' });
    expect(
      (await client.request({ op: 'subscribe', id: 'sub16', assign: [{ topic: 'ws-bad', partition: 0 }] })).op,
    ).toBe('subscribed');
    const ok = await client.request({ op: 'produce', id: 'ok', topic: 'ws-bad', records: [{ value: 'still here' }] });
    expect(ok).toEqual({ op: 'ack', id: 'ok', offsets: [{ partition: 0, offset: 0 }] });

    const big = await WsClient.connect(broker.url);
    big.send({ op: 'produce', id: 'big', topic: 'ws-bad', records: [{ value: 'x'.repeat(1_100_000) }] });
    expect(await big.waitClosed()).toBe(1009);
    const health = await call(broker.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    client.close();
  });

  it('refuses a plain GET of /v3/ws and upgrades on other paths', async () => {
    const response = await call(broker.url, 'GET', '/v3/ws');
    expect(response.status).toBe(404);
    await expect(
      new Promise((resolve, reject) => {
        import('ws').then(({ default: WebSocket }) => {
          const socket = new WebSocket(`${broker.url.replace('http', 'ws')}/v3/other`);
          socket.once('open', () => resolve('open'));
          socket.once('error', reject);
        }, reject);
      }),
    ).rejects.toThrow(/404/);
  });
});

describe('WebSocket consumer groups', () => {
  const assignedFrames = (client: WsClient, id: string) =>
    client.frames.filter((frame) => frame.op === 'assigned' && frame.id === id);
  const lastAssigned = (client: WsClient, id: string) => assignedFrames(client, id).at(-1);
  const keys = (partitions: Array<{ topic: string; partition: number }>) =>
    partitions.map(({ topic, partition }) => `${topic}-${partition}`).sort();

  async function produceTo(client: WsClient, topic: string, partitions: number, perPartition: number, tag: string) {
    const records = Array.from({ length: partitions * perPartition }, (_, i) => ({
      value: `${tag}${i}`,
      partition: i % partitions,
    }));
    const ack = await client.request({ op: 'produce', id: `${tag}-produce`, topic, records });
    expect(ack.op).toBe('ack');
    return records;
  }

  it('splits a topic between two members and hands the partitions of a closed member to the other', async () => {
    await createTopic(broker, 'ws-group', 4);
    const producer = await WsClient.connect(broker.url);
    const a = await WsClient.connect(broker.url);
    const subscribe = {
      op: 'subscribe',
      id: 'g',
      topics: ['ws-group'],
      group: 'split',
      from: 'earliest',
      credits: 1000,
    };
    expect((await a.request(subscribe)).op).toBe('subscribed');
    await a.next((frame) => frame.op === 'assigned' && frame.partitions.length === 4);

    const b = await WsClient.connect(broker.url);
    expect((await b.request(subscribe)).op).toBe('subscribed');
    const bAssigned = await b.next((frame) => frame.op === 'assigned' && frame.partitions.length > 0, 10_000);
    const aAssigned = await a.next((frame) => frame.op === 'assigned' && frame.generation === bAssigned.generation);
    // One generation: every partition has exactly one owner.
    expect([...keys(aAssigned.partitions), ...keys(bAssigned.partitions)].sort()).toEqual([
      'ws-group-0',
      'ws-group-1',
      'ws-group-2',
      'ws-group-3',
    ]);
    expect(aAssigned.partitions.length).toBe(2);
    const revoked = a.frames.find((frame) => frame.op === 'revoked');
    expect(keys(revoked!.partitions)).toEqual(keys(bAssigned.partitions));
    expect(a.frames.indexOf(revoked!)).toBeLessThan(a.frames.indexOf(aAssigned));

    const first = await produceTo(producer, 'ws-group', 4, 5, 'x');
    await Promise.all([a.waitForRecords('g', 10), b.waitForRecords('g', 10)]);
    await sleep(200);
    const owner = (client: WsClient) => new Set(keys(lastAssigned(client, 'g')!.partitions));
    for (const [client, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const records = client.records('g');
      expect(records.length).toBe(10);
      for (const record of records) expect(owner(client).has(`ws-group-${record.partition}`)).toBe(true);
      for (const record of records) expect(owner(other).has(`ws-group-${record.partition}`)).toBe(false);
    }
    expect(a.records('g').length + b.records('g').length).toBe(first.length);

    b.close();
    await a.next(
      (frame) => frame.op === 'assigned' && frame.partitions.length === 4 && frame.generation > bAssigned.generation,
      10_000,
    );
    await produceTo(producer, 'ws-group', 4, 2, 'y');
    // Nothing was committed, so the partitions a took over start from `from` (earliest) again: b's 10 records come
    // once more (at least once), then the 8 new ones: 10 + 10 + 8 in all.
    const records = await a.waitForRecords('g', 28);
    await sleep(200);
    expect(a.records('g').length).toBe(28);
    expect(records.filter((record) => String(record.value).startsWith('y')).length).toBe(8);
    for (const client of [a, producer]) client.close();
  });

  it('resumes after the committed offset when a member reconnects, and fences commits of partitions it does not own', async () => {
    await createTopic(broker, 'ws-commit', 1);
    await createTopic(broker, 'ws-commit-other', 1);
    const producer = await WsClient.connect(broker.url);
    await produceTo(producer, 'ws-commit', 1, 10, 'c');
    const subscribe = { op: 'subscribe', id: 'm', topics: ['ws-commit'], group: 'resume', from: 'earliest' };
    const first = await WsClient.connect(broker.url);
    await first.request(subscribe);
    await first.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 10_000);
    const records = await first.waitForRecords('m', 10);
    expect(records.map((record) => record.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const committed = await first.request({
      op: 'commit',
      id: 'm',
      offsets: [{ topic: 'ws-commit', partition: 0, offset: 6 }],
    });
    expect(committed).toEqual({ op: 'committed', id: 'm' });
    const fenced = await first.request({
      op: 'commit',
      id: 'm',
      offsets: [{ topic: 'ws-commit-other', partition: 0, offset: 1 }],
    });
    expect(fenced, JSON.stringify(fenced)).toMatchObject({ op: 'error', id: 'm', error_code: 40903 });
    first.close();
    await first.waitClosed();

    const second = await WsClient.connect(broker.url);
    await second.request(subscribe);
    await second.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 10_000);
    const resumed = await second.waitForRecords('m', 4);
    expect(resumed.map((record) => record.offset)).toEqual([6, 7, 8, 9]);
    expect(resumed.map((record) => record.value)).toEqual(['c6', 'c7', 'c8', 'c9']);
    for (const client of [second, producer]) client.close();
  });

  it('keeps the partitions of a static member over a reconnect, without a rebalance', async () => {
    await createTopic(broker, 'ws-static', 2);
    const subscribe = { op: 'subscribe', id: 's', topics: ['ws-static'], group: 'static', from: 'earliest' };
    const a = await WsClient.connect(broker.url);
    await a.request({ ...subscribe, group_instance_id: 'worker-a' });
    const b = await WsClient.connect(broker.url);
    await b.request(subscribe);
    const bAssigned = await b.next((frame) => frame.op === 'assigned' && frame.partitions.length === 1, 10_000);
    const aAssigned = await a.next((frame) => frame.op === 'assigned' && frame.generation === bAssigned.generation);
    expect(aAssigned.partitions.length).toBe(1);
    const rebalanceFramesOfB = () =>
      b.frames.filter((frame) => frame.op === 'assigned' || frame.op === 'revoked').length;
    const framesBefore = rebalanceFramesOfB();
    a.close();
    await a.waitClosed();

    const again = await WsClient.connect(broker.url);
    await again.request({ ...subscribe, group_instance_id: 'worker-a' });
    const back = await again.next((frame) => frame.op === 'assigned');
    expect(back).toEqual(aAssigned);
    await sleep(500);
    // No new generation: b was told nothing new.
    expect(rebalanceFramesOfB()).toBe(framesBefore);
    const producer = await WsClient.connect(broker.url);
    const partition = aAssigned.partitions[0].partition;
    await producer.request({ op: 'produce', id: 'p', topic: 'ws-static', records: [{ value: 'mine', partition }] });
    const [record] = await again.waitForRecords('s', 1);
    expect(record).toMatchObject({ partition, value: 'mine' });
    for (const client of [again, b, producer]) client.close();
  });
});
