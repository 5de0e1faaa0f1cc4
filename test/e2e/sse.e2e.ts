// GET .../topics/{t}/records:stream end to end: Server-Sent Events from a broker process, one event per record
// with `partition:offset` ids, heartbeats, resume with Last-Event-ID, errors before the stream starts, and streams
// that are members of a consumer group (`group=`: assigned partitions, commits by the broker, rebalances).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { waitUntil } from './support/cluster.js';
import { call, expectError } from './support/http.js';
import { WsClient } from './support/ws-client.js';

const C = '/v3/clusters/{cluster_id}';
const STREAM = `${C}/topics/{topic_name}/records:stream`;

let broker: BrokerProcess;
let cid: string;

beforeAll(async () => {
  broker = await BrokerProcess.start({
    env: {
      BROOK_SSE_HEARTBEAT_MS: '200',
      BROOK_SSE_AUTO_COMMIT_INTERVAL_MS: '200',
      BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '300',
    },
  });
  cid = await broker.clusterId();
});
afterAll(async () => {
  await broker?.stop();
});

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads events from an open stream until `enough` says so (or the stream ends); then cancels it. */
async function readEvents(
  response: Response,
  enough: (events: SseEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<SseEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    // `enough` is asked after every event, not after every chunk: the events are those up to the first that made it
    // true (a chunk may carry later ones, e.g. a rebalance set off by another stream that had enough and closed)
    while (!enough(events)) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while (!enough(events) && (end = buffer.indexOf('\n\n')) >= 0) {
        const event: SseEvent = {};
        for (const line of buffer.slice(0, end).split('\n')) {
          if (line.startsWith(':')) event.comment = line.slice(1).trim();
          else {
            const colon = line.indexOf(':');
            (event as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
          }
        }
        events.push(event);
        buffer = buffer.slice(end + 2);
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

const recordsOf = (events: SseEvent[]) =>
  events.filter((event) => event.data !== undefined && event.event === undefined);

async function produce(topic: string, values: string[], partition = 0): Promise<void> {
  for (const value of values) {
    const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/${topic}/records`, {
      body: { partition_id: partition, value: { type: 'STRING', data: value } },
    });
    expect(response.status, response.text).toBe(200);
  }
}

async function createTopic(name: string, partitions: number): Promise<void> {
  const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: name, partitions_count: partitions },
  });
  expect(response.status, response.text).toBe(201);
}

const streamUrl = (topic: string, query: string) =>
  `${broker.url}/v3/clusters/${cid}/topics/${topic}/records:stream?${query}`;

describe('SSE records:stream', () => {
  it('streams records as events with partition:offset ids and resumes after Last-Event-ID', async () => {
    await createTopic('sse-one', 1);
    await produce(
      'sse-one',
      Array.from({ length: 10 }, (_, i) => `r${i}`),
    );
    const response = await fetch(streamUrl('sse-one', 'from=earliest&format=string'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const first = recordsOf(await readEvents(response, (events) => recordsOf(events).length >= 5));
    expect(first.slice(0, 5).map((event) => event.id)).toEqual(['0:0', '0:1', '0:2', '0:3', '0:4']);
    expect(JSON.parse(first[2].data!)).toEqual({
      topic: 'sse-one',
      partition: 0,
      offset: 2,
      timestamp: expect.any(Number),
      key: null,
      value: 'r2',
      headers: [],
    });

    const resumed = await fetch(streamUrl('sse-one', 'from=earliest&format=string'), {
      headers: { 'Last-Event-ID': '0:4' },
    });
    const rest = recordsOf(await readEvents(resumed, (events) => recordsOf(events).length >= 5));
    expect(rest.map((event) => event.id)).toEqual(['0:5', '0:6', '0:7', '0:8', '0:9']);
    expect(rest.map((event) => JSON.parse(event.data!).value)).toEqual(['r5', 'r6', 'r7', 'r8', 'r9']);
  });

  it('pushes live records to a stream from latest, with heartbeats in between', async () => {
    await createTopic('sse-live', 2);
    await produce('sse-live', ['old']);
    const response = await fetch(streamUrl('sse-live', 'format=string'));
    const reading = readEvents(
      response,
      (events) => recordsOf(events).length >= 2 && events.filter((event) => event.comment === 'heartbeat').length >= 3,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await produce('sse-live', ['new0'], 0);
    await produce('sse-live', ['new1'], 1);
    const events = await reading;
    expect(
      recordsOf(events)
        .map((event) => [event.id, JSON.parse(event.data!).value])
        .sort(),
    ).toEqual([
      ['0:1', 'new0'],
      ['1:0', 'new1'],
    ]);
    expect(events.filter((event) => event.comment === 'heartbeat').length).toBeGreaterThanOrEqual(3);
  });

  it('resumes each partition named in a Last-Event-ID list', async () => {
    await createTopic('sse-multi', 2);
    await produce('sse-multi', ['a0', 'a1', 'a2'], 0);
    await produce('sse-multi', ['b0', 'b1'], 1);
    const response = await fetch(streamUrl('sse-multi', 'from=earliest&format=string'), {
      headers: { 'Last-Event-ID': '0:1,1:0' },
    });
    const events = recordsOf(await readEvents(response, (seen) => recordsOf(seen).length >= 2));
    expect(events.map((event) => event.id).sort()).toEqual(['0:2', '1:1']);
  });

  it('stops reading the log for a client that does not read, keeping broker memory bounded', async () => {
    await createTopic('sse-slow', 1);
    const producer = await WsClient.connect(broker.url);
    const value = 'v'.repeat(8 * 1024);
    for (let i = 0; i < 50; i++) {
      const ack = await producer.request({
        op: 'produce',
        id: i,
        topic: 'sse-slow',
        acks: 1,
        records: Array.from({ length: 100 }, () => ({ value })),
      });
      expect(ack.op).toBe('ack');
    }
    producer.close();
    // 40 MB of records are there; the client reads nothing for 3 s, then everything.
    const pid = broker.child!.pid!;
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
    const rssBefore = rss();
    let rssMax = rssBefore;
    let received = 0;
    let buffered = '';
    const done = new Promise<void>((resolve, reject) => {
      const req = request(streamUrl('sse-slow', 'from=earliest&format=string'), (res) => {
        res.pause();
        setTimeout(() => res.resume(), 3_000);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          const events = buffered.split('\n\n');
          buffered = events.pop()!;
          received += events.filter((event) => event.startsWith('id: ')).length;
          if (received >= 5_000) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (error) => (received >= 5_000 ? resolve() : reject(error)));
      req.end();
    });
    for (let waited = 0; waited < 3_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rssMax = Math.max(rssMax, rss());
    }
    await done;
    console.log(`slow SSE reader: broker RSS grew by at most ${((rssMax - rssBefore) / 1024 / 1024).toFixed(1)} MiB`);
    expect(received).toBe(5_000);
    expect(rssMax - rssBefore).toBeLessThan(24 * 1024 * 1024);
  });

  it('answers bad requests with JSON errors before the stream starts', async () => {
    expectError(
      await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/nope/records:stream`, { spec: STREAM }),
      404,
      40401,
    );
    expectError(
      await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/sse-one/records:stream?from=middle`, { spec: STREAM }),
      400,
      400,
      /from/,
    );
    expectError(
      await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/sse-one/records:stream?format=xml`, { spec: STREAM }),
      400,
      400,
      /format/,
    );
    const badId = await fetch(streamUrl('sse-one', ''), { headers: { 'Last-Event-ID': 'yesterday' } });
    expect(badId.status).toBe(400);
    const farId = await fetch(streamUrl('sse-one', ''), { headers: { 'Last-Event-ID': '0:500' } });
    expect(farId.status).toBe(400);
    expect(((await farId.json()) as { error_code: number }).error_code).toBe(40002);
    for (const query of ['group=', 'group=a&group=a']) {
      const group = await fetch(streamUrl('sse-one', query));
      expect(group.status, query).toBe(400);
      expect(((await group.json()) as { error_code: number }).error_code).toBe(40002);
    }
  });
});

describe('SSE records:stream as a consumer group member', () => {
  const assignedOf = (events: SseEvent[]) =>
    events
      .filter((event) => event.event === 'assigned')
      .map((event) => JSON.parse(event.data!) as { partitions: Array<{ partition: number }>; generation: number });
  const valuesOf = (events: SseEvent[]) =>
    recordsOf(events)
      .map((event) => JSON.parse(event.data!).value as string)
      .sort();
  const lagsOf = async (group: string) => {
    const lags = await call(broker.url, 'GET', `/v3/clusters/${cid}/consumer-groups/${group}/lags`);
    return lags.status === 200
      ? (lags.body.data as Array<{ partition_id: number; current_offset: number }>)
          .map((lag) => `${lag.partition_id}@${lag.current_offset}`)
          .sort()
      : [];
  };

  it('streams its assigned partitions, commits what it wrote, and the group resumes there', async () => {
    await createTopic('sse-group', 2);
    await produce('sse-group', ['a0', 'a1', 'a2'], 0);
    await produce('sse-group', ['b0', 'b1', 'b2'], 1);
    const url = streamUrl('sse-group', 'group=viewers&from=earliest&format=string');
    const first = await fetch(url);
    expect(first.status).toBe(200);
    // a record is committed once the stream stayed open an auto-commit interval (200 ms here) after writing it:
    // read on until three heartbeats (200 ms apart) came after the sixth record, then close
    const settled = (so: SseEvent[]) => {
      const sixth = so.indexOf(recordsOf(so)[5]);
      return sixth >= 0 && so.slice(sixth).filter((event) => event.comment === 'heartbeat').length >= 3;
    };
    const events = await readEvents(first, settled);
    expect(assignedOf(events)).toEqual([
      { partitions: [0, 1].map((partition) => ({ topic: 'sse-group', partition })), generation: expect.any(Number) },
    ]);
    expect(events.findIndex((event) => event.event === 'assigned')).toBeLessThan(
      events.findIndex((event) => event.id !== undefined),
    );
    expect(valuesOf(events)).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2']);
    // the stream was closed by the reader: the broker committed what it had written, and the member left
    expect(
      await waitUntil(
        'offsets committed on close',
        async () => {
          const lags = await lagsOf('viewers');
          return lags.join() === '0@3,1@3' ? lags : null;
        },
        10_000,
      ),
    ).toEqual(['0@3', '1@3']);

    await produce('sse-group', ['a3'], 0);
    await produce('sse-group', ['b3'], 1);
    const second = await fetch(url);
    const resumed = await readEvents(second, (so) => recordsOf(so).length >= 2);
    expect(valuesOf(resumed)).toEqual(['a3', 'b3']);
  });

  it('splits the partitions between two streams of one group, each getting only its own', async () => {
    const url = streamUrl('sse-group', 'group=pair&from=earliest&format=string');
    const oneEach = (so: SseEvent[]) => assignedOf(so).at(-1)?.partitions.length === 1;
    const sinceAssigned = (events: SseEvent[]) => events.slice(events.findLastIndex((e) => e.event === 'assigned'));
    // Which records a stream reads before the split depends on whether both joined the first generation (the
    // group may have committed a partition's records before the second stream came), so the test produces one
    // record to each partition once both streams hold one partition, and each must get its own and no other.
    // Each stream's events are kept up to its own late record, and both stay open until both have theirs: a
    // stream that closed earlier would hand its partition to the other.
    const split = [false, false];
    const lateAt = [0, 0];
    const lateValue = (partition: number) => `late-${partition}`;
    const gotOwnLate = (side: number) => (so: SseEvent[]) => {
      split[side] = oneEach(so);
      if (lateAt[side] === 0 && split[side] && valuesOf(sinceAssigned(so)).some((v) => v.startsWith('late-')))
        lateAt[side] = so.length;
      return lateAt[0] > 0 && lateAt[1] > 0;
    };
    const [left, right] = await Promise.all([fetch(url), fetch(url)]);
    const reading = Promise.all([readEvents(left, gotOwnLate(0), 20_000), readEvents(right, gotOwnLate(1), 20_000)]);
    await waitUntil('both streams hold one partition', async () => split[0] && split[1], 15_000);
    await produce('sse-group', [lateValue(0)], 0);
    await produce('sse-group', [lateValue(1)], 1);
    const [leftEvents, rightEvents] = (await reading).map((events, side) => events.slice(0, lateAt[side]));
    const leftPartition = assignedOf(leftEvents).at(-1)!.partitions[0].partition;
    const rightPartition = assignedOf(rightEvents).at(-1)!.partitions[0].partition;
    expect([leftPartition, rightPartition].sort()).toEqual([0, 1]);
    for (const [events, partition] of [
      [leftEvents, leftPartition],
      [rightEvents, rightPartition],
    ] as const) {
      const tail = recordsOf(sinceAssigned(events));
      expect(tail.every((event) => event.id!.startsWith(`${partition}:`))).toBe(true);
      expect(valuesOf(tail)).toContain(lateValue(partition));
    }
  });
});

describe('SSE stream bound', () => {
  it('answers 429 (42901) with Retry-After past BROOK_SSE_STREAMS_MAX, and takes a new stream once one closed', async () => {
    const own = await BrokerProcess.start({ env: { BROOK_SSE_STREAMS_MAX: '2' } });
    try {
      const ownCid = await own.clusterId();
      await call(own.url, 'POST', `/v3/clusters/${ownCid}/topics`, {
        body: { topic_name: 'few', partitions_count: 1 },
      });
      const url = `${own.url}/v3/clusters/${ownCid}/topics/few/records:stream`;
      const first = new AbortController();
      const open = [await fetch(url, { signal: first.signal }), await fetch(url)];
      expect(open.map((response) => response.status)).toEqual([200, 200]);
      const refused = await call(own.url, 'GET', `/v3/clusters/${ownCid}/topics/few/records:stream`, { spec: STREAM });
      expectError(refused, 429, 42901, /2 SSE streams/);
      expect(refused.headers.get('retry-after')).toBe('5');
      first.abort();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = await fetch(url);
      expect(again.status).toBe(200);
      await again.body?.cancel();
      await open[1].body?.cancel();
    } finally {
      await own.stop();
    }
  });
});

describe('shutdown with open streams', () => {
  it('stops cleanly (exit 0) while an SSE stream and a WebSocket subscription are open', async () => {
    const own = await BrokerProcess.start();
    try {
      const ownCid = await own.clusterId();
      const created = await call(own.url, 'POST', `/v3/clusters/${ownCid}/topics`, {
        body: { topic_name: 'open', partitions_count: 1 },
      });
      expect(created.status).toBe(201);
      const stream = await fetch(`${own.url}/v3/clusters/${ownCid}/topics/open/records:stream`);
      expect(stream.status).toBe(200);
      const ws = await WsClient.connect(own.url);
      expect((await ws.request({ op: 'subscribe', id: 's', assign: [{ topic: 'open', partition: 0 }] })).op).toBe(
        'subscribed',
      );
      const exit = await own.kill('SIGTERM', 5_000);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await ws.waitClosed(5_000)).toBe(1001);
      await stream.body?.cancel().catch(() => undefined);
    } finally {
      await own.stop();
    }
  });
});
