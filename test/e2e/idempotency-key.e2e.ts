// Idempotency-Key on every produce route (v3 single, batch and streaming, v2 binary and JSON, the WebSocket
// produce frame): a client sends every request three times with the same key (and retries some after a kill -9):
// the retries are answered with the original offsets and timestamps and `Idempotent-Replayed: true`, and every
// record is in the log once; the same key with another body is 422 42291. On three brokers (a real redis-server):
// requests through a broker that does not lead, a retry while the first request waits for a paused follower (409
// 40906), retries after a kill -9 of the leader, and a v2 request whose records span partitions retried after the
// leader of one of them was down: only that partition's records are appended by the retry.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionForKey } from '../../src/topic/partitioner.js';
import { BrokerProcess } from './support/broker-process.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call, expectError, type ApiResponse } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';
import { WsClient } from './support/ws-client.js';

const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
const BINARY = 'application/vnd.kafka.binary.v2+json';
const JSON_V2 = 'application/vnd.kafka.json.v2+json';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Every value of partitions 0..partitions-1, read to the high watermark, sorted. */
async function values(url: string, cid: string, topic: string, partitions: number): Promise<string[]> {
  const out: string[] = [];
  for (let p = 0; p < partitions; p++) {
    let offset = 0;
    for (;;) {
      const answer = await call(
        url,
        'GET',
        `/v3/clusters/${cid}/topics/${topic}/partitions/${p}/records?offset=${offset}&format=string`,
      );
      expect(answer.status, answer.text).toBe(200);
      for (const record of answer.body.records as Array<{ value: string }>) out.push(record.value);
      offset = answer.body.next_offset as number;
      if (offset >= (answer.body.high_watermark as number) || answer.body.records.length === 0) break;
    }
  }
  return out.sort();
}

async function createTopic(url: string, cid: string, name: string, partitions: number, rf?: number): Promise<void> {
  const created = await call(url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: name, partitions_count: partitions, ...(rf === undefined ? {} : { replication_factor: rf }) },
  });
  expect(created.status, created.text).toBe(201);
}

const replayed = (answer: ApiResponse) => answer.headers.get('idempotent-replayed');

/** Sends `send` three times: the first is fresh, the two retries replay it; returns the first answer. */
async function thrice(send: () => Promise<ApiResponse>, expectedStatus = 200): Promise<ApiResponse> {
  const first = await send();
  expect(first.status, first.text).toBe(expectedStatus);
  expect(replayed(first)).toBeNull();
  for (let retry = 0; retry < 2; retry++) {
    const again = await send();
    expect(again.status, again.text).toBe(expectedStatus);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
  }
  return first;
}

function streamed(url: string, cid: string, topic: string, key: string, records: object[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(new URL(`${url}/v3/clusters/${cid}/topics/${topic}/records`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'idempotency-key': key },
    });
    req.once('error', reject);
    req.once('response', (response: IncomingMessage) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve(text.split('\r\n').filter((line) => line.length > 0)));
    });
    for (const record of records) req.write(JSON.stringify(record));
    req.end();
  });
}

describe('Idempotency-Key on one broker', () => {
  let broker: BrokerProcess;

  beforeAll(async () => {
    broker = await BrokerProcess.start();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('v3 single and batch, v2 binary and JSON: retries answer the original, also after kill -9; 42291 for another body', async () => {
    const cid = await broker.clusterId();
    await createTopic(broker.url, cid, 'ik', 3);
    const v3 = (key: string, body: object) => () =>
      call(broker.url, 'POST', `/v3/clusters/${cid}/topics/ik/records`, {
        body,
        headers: { 'idempotency-key': key },
        spec: `${T}/records`,
      });
    const batch = (key: string, body: object) => () =>
      call(broker.url, 'POST', `/v3/clusters/${cid}/topics/ik/records:batch`, {
        body,
        headers: { 'idempotency-key': key },
      });
    const v2 = (key: string, path: string, contentType: string, body: object) => () =>
      call(broker.url, 'POST', path, { body, contentType, headers: { 'idempotency-key': key } });

    const requests: Array<{ send: () => Promise<ApiResponse>; status: number; answer?: ApiResponse }> = [];
    for (let i = 0; i < 6; i++) {
      // keyless records (to the partition the key names), keyed ones, one to a named partition
      const record =
        i % 3 === 0
          ? { value: { type: 'STRING', data: `s${i}` } }
          : i % 3 === 1
            ? { key: { type: 'STRING', data: `k${i}` }, value: { type: 'STRING', data: `s${i}` } }
            : { partition_id: 2, value: { type: 'STRING', data: `s${i}` } };
      requests.push({ send: v3(`single-${i}`, record), status: 200 });
    }
    const entries = ['b0', 'b1', 'b2'].map((data, i) => ({ id: String(i), value: { type: 'STRING', data } }));
    requests.push({ send: batch('batch-0', { entries }), status: 207 });
    const binaryRecords = ['x0', 'x1', 'x2'].map((value) => ({ value: b64(value) }));
    requests.push({ send: v2('v2-binary', '/topics/ik', BINARY, { records: binaryRecords }), status: 200 });
    const keyedRecords = ['y0', 'y1', 'y2', 'y3'].map((value) => ({ key: b64(value), value: b64(value) }));
    requests.push({ send: v2('v2-keyed', '/topics/ik', BINARY, { records: keyedRecords }), status: 200 });
    const jsonRecords = [{ value: 'j0' }, { value: 'j1' }];
    requests.push({ send: v2('v2-json', '/topics/ik/partitions/1', JSON_V2, { records: jsonRecords }), status: 200 });
    for (const entry of requests) entry.answer = await thrice(entry.send, entry.status);
    const first = requests[0].answer!;
    expect(first.body).toMatchObject({ error_code: 200, offset: expect.any(Number), timestamp: expect.any(String) });
    expect(requests[6].answer!.body.successes).toHaveLength(3);

    await broker.restart('SIGKILL');
    // after the crash: the producer state came back from the log, and the answers are rebuilt from it
    for (const entry of requests) {
      const again = await entry.send();
      expect(again.status, again.text).toBe(entry.status);
      expect(again.body).toEqual(entry.answer!.body);
      expect(replayed(again)).toBe('true');
    }
    const expected = [
      ...Array.from({ length: 6 }, (_, i) => `s${i}`),
      'b0',
      'b1',
      'b2',
      'x0',
      'x1',
      'x2',
      'y0',
      'y1',
      'y2',
      'y3',
      '"j0"',
      '"j1"',
    ];
    expect(await values(broker.url, cid, 'ik', 3)).toEqual(expected.sort());

    // the same key with another body: 42291, nothing appended; another principal's or topic's key is its own
    expectError(await v3('single-0', { value: { type: 'STRING', data: 'other' } })(), 422, 42291);
    expectError(await v2('v2-binary', '/topics/ik', BINARY, { records: [{ value: b64('x9') }] })(), 422, 42291);
    expect(await values(broker.url, cid, 'ik', 3)).toHaveLength(expected.length);
    // another body whose records go only to partitions the first did not write: refused at the key's home partition
    const onPartition = (partition: number) => ({
      entries: [{ id: 'e', partition_id: partition, value: { type: 'STRING', data: `p${partition}` } }],
    });
    await thrice(batch('spread-1', onPartition(0)), 207);
    for (const partition of [1, 2]) expectError(await batch('spread-1', onPartition(partition))(), 422, 42291);
    const spreadV2 = (partition: number) =>
      v2('spread-2', `/topics/ik/partitions/${partition}`, BINARY, { records: [{ value: b64(`q${partition}`) }] });
    await thrice(spreadV2(2));
    for (const partition of [0, 1]) expectError(await spreadV2(partition)(), 422, 42291);
    expect(await values(broker.url, cid, 'ik', 3)).toEqual([...expected, 'p0', 'q2'].sort());
    // malformed keys, and a key with the producer headers
    expectError(await v3('', { value: { type: 'STRING', data: 'e' } })(), 400, 400);
    expectError(await v3('a b', { value: { type: 'STRING', data: 'e' } })(), 400, 400);
    expectError(await v3('x'.repeat(256), { value: { type: 'STRING', data: 'e' } })(), 400, 400);
    const both = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/ik/records`, {
      body: { partition_id: 0, value: { type: 'STRING', data: 'e' } },
      headers: {
        'idempotency-key': 'k',
        'brook-producer-id': '1',
        'brook-producer-epoch': '0',
        'brook-producer-sequence': '0',
      },
    });
    expectError(both, 400, 400, /not both/);
  });

  it('streaming v3: each record is keyed by its position; a retried stream appends only what is new', async () => {
    const cid = await broker.clusterId();
    await createTopic(broker.url, cid, 'ik-stream', 1);
    const records = ['r0', 'r1', 'r2'].map((data) => ({ value: { type: 'STRING', data } }));
    const first = (await streamed(broker.url, cid, 'ik-stream', 'stream-1', records)).map((line) => JSON.parse(line));
    expect(first.map((report) => report.offset)).toEqual([0, 1, 2]);
    for (const report of first) expect(report.replayed).toBeUndefined();
    const longer = [...records, { value: { type: 'STRING', data: 'r3' } }];
    const again = (await streamed(broker.url, cid, 'ik-stream', 'stream-1', longer)).map((line) => JSON.parse(line));
    // the head went out before any record was read: each replayed report says so itself
    expect(again.slice(0, 3)).toEqual(first.map((report) => ({ ...report, replayed: true })));
    expect(again[3].offset).toBe(3);
    expect(again[3].replayed).toBeUndefined();
    expect(await values(broker.url, cid, 'ik-stream', 1)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('the WebSocket produce frame takes idempotency_key: a retry is acked with the original offsets and replayed', async () => {
    const cid = await broker.clusterId();
    await createTopic(broker.url, cid, 'ik-ws', 2);
    const ws = await WsClient.connect(broker.url);
    try {
      const frame = (id: number, values: string[]) => ({
        op: 'produce',
        id,
        topic: 'ik-ws',
        idempotency_key: 'ws-1',
        acks: 'all',
        records: values.map((value) => ({ value })),
      });
      const first = await ws.request(frame(1, ['w0', 'w1']));
      expect(first.op).toBe('ack');
      expect(first.replayed).toBeUndefined();
      const retry = await ws.request(frame(2, ['w0', 'w1']));
      expect(retry).toMatchObject({ op: 'ack', offsets: first.offsets, replayed: true });
      const other = await ws.request(frame(3, ['w2']));
      expect(other).toMatchObject({ op: 'error', error_code: 42291 });
      const badKey = await ws.request({ ...frame(4, ['w3']), idempotency_key: 7 });
      expect(badKey).toMatchObject({
        op: 'error',
        error_code: 40002,
        message: expect.stringMatching(/idempotency_key/),
      });
    } finally {
      ws.close();
    }
    expect(await values(broker.url, cid, 'ik-ws', 2)).toEqual(['w0', 'w1']);
  });
});

describe('Idempotency-Key on three brokers', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await TestCluster.start(3, REPLICATION_ENV);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('through a non-leader: replays, 40906 while the first waits for a paused follower, retries after kill -9 of the leader', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.broker(1), 'ik-replicated');
    const cid = topic.clusterId;
    const { leader } = (await topic.view(cluster.broker(1)))!;
    const others = [1, 2, 3].filter((id) => id !== leader);
    const through = cluster.broker(others[0]);
    const send = (i: number) =>
      call(through.url, 'POST', `/v3/clusters/${cid}/topics/${topic.name}/records`, {
        body: { value: { type: 'STRING', data: `r${i}` } },
        headers: { 'idempotency-key': `rep-${i}` },
        spec: `${T}/records`,
      });
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 8; i++) answers.push(await thrice(() => send(i)));

    // the first request waits (acks=all) for a paused follower; its retry meanwhile is 40906, nothing appended
    const paused = cluster.broker(others[1]);
    paused.signal('SIGSTOP');
    let firstOfPaused: Promise<ApiResponse>;
    try {
      firstOfPaused = send(8);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expectError(await send(8), 409, 40906);
      const answered = await firstOfPaused; // once the paused follower left the ISR
      expect(answered.status, answered.text).toBe(200);
      answers.push(answered);
    } finally {
      paused.signal('SIGCONT');
    }
    const afterPause = await send(8);
    expect(afterPause.body).toEqual(answers[8].body);
    expect(replayed(afterPause)).toBe('true');

    await cluster.broker(leader).kill('SIGKILL');
    await topic.waitForLeader(leader, 30_000, [through]);
    for (let i = 4; i < 9; i++) {
      const retried = await retryWhileUnsettled(() => send(i));
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body).toEqual(answers[i].body);
      expect(replayed(retried)).toBe('true');
    }
    const fresh = await retryWhileUnsettled(() => send(9));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.offset).toBe(9);
    expect(await values(through.url, cid, topic.name, 1)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`).sort());
    await cluster.broker(leader).restart();
  });

  it('a v2 request spread over partitions, retried after one leader was down, appends only what failed', async () => {
    const b1 = cluster.broker(1);
    const cid = await b1.clusterId();
    await createTopic(b1.url, cid, 'ik-spread', 3, 1);
    const leaders = await waitUntil(
      'leaders of ik-spread',
      async () => {
        const answer = await call(b1.url, 'GET', '/topics/ik-spread/partitions');
        const found = (answer.body as Array<{ partition: number; leader: number }>).map((p) => p.leader);
        return found.every((id) => id > 0) && new Set(found).size > 1 ? found : undefined;
      },
      15_000,
    );
    const down = leaders[0];
    const through = cluster.broker(down === 1 ? 2 : 1);
    // keys that reach every partition
    const keys: string[] = [];
    for (let i = 0; new Set(keys.map((key) => partitionForKey(Buffer.from(key), 3))).size < 3; i++) keys.push(`k${i}`);
    const body = { records: keys.map((key) => ({ key: b64(key), value: b64(`v-${key}`) })) };
    const send = () =>
      call(through.url, 'POST', '/topics/ik-spread', {
        body,
        contentType: BINARY,
        headers: { 'idempotency-key': 'spread-1' },
      });
    await cluster.broker(down).kill('SIGKILL');
    const partial = await send();
    expect(partial.status, partial.text).toBe(200);
    const offsets = partial.body.offsets as Array<{ partition: number; offset: number | null; error_code: number }>;
    const failedAt = offsets.flatMap((entry, i) => (entry.partition === 0 ? [i] : []));
    expect(failedAt.length).toBeGreaterThan(0);
    for (const i of failedAt) expect([40404, 50003]).toContain(offsets[i].error_code);
    expect(offsets.filter((entry) => entry.partition !== 0).every((entry) => entry.error_code === null)).toBe(true);

    await cluster.broker(down).restart();
    const retried = await waitUntil(
      'a retry with every partition appended',
      async () => {
        const answer = await send();
        const entries = answer.body?.offsets as Array<{ error_code: number | null }> | undefined;
        return entries?.every((entry) => entry.error_code === null) === true ? answer : undefined;
      },
      30_000,
    );
    // the partitions that had appended answer their original offsets; partition 0 was appended by the retry
    for (const [i, entry] of offsets.entries()) {
      if (entry.partition !== 0) expect(retried.body.offsets[i]).toEqual(entry);
      else expect(retried.body.offsets[i].offset).toEqual(expect.any(Number));
    }
    expect(replayed(retried)).toBeNull();
    const last = await send();
    expect(last.body).toEqual(retried.body);
    expect(replayed(last)).toBe('true');
    expect(await values(through.url, cid, 'ik-spread', 3)).toEqual(keys.map((key) => `v-${key}`).sort());
  });
});

/** Retries while the answer says that nothing is settled yet: no leader (40404), no ISR (50003), in flight (40906). */
async function retryWhileUnsettled(send: () => Promise<ApiResponse>, timeoutMs = 30_000): Promise<ApiResponse> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await send();
    const code = answer.body?.error_code as number | undefined;
    const retriable = code === 40404 || code === 50003 || code === 40906;
    if (!retriable || performance.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
