// Client quotas: set through the client-quotas routes, enforced per principal with a default; the throttled
// rate a greedy client achieves is measured against the configured one. Tolerance: ±15% over a 4 s window that
// starts at the first 429 (the one-second burst is spent by then), which covers one request of overdraft, timer
// granularity and a loaded CI machine. Every 429 is {"error_code": 42901, "message"} with Retry-After.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError } from './support/http.js';

const Q = '/v3/clusters/{cluster_id}/client-quotas';
const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
const WINDOW_MS = 4_000;
const TOLERANCE = 0.15;

let broker: BrokerProcess;
let cid: string;

const setQuota = async (entity: string, values: Record<string, number | null>) => {
  const response = await call(broker.url, 'PUT', `/v3/clusters/${cid}/client-quotas/${encodeURIComponent(entity)}`, {
    body: values,
    spec: `${Q}/{entity}`,
  });
  expect(response.status, response.text).toBe(200);
};
const deleteQuota = async (entity: string) =>
  call(broker.url, 'DELETE', `/v3/clusters/${cid}/client-quotas/${encodeURIComponent(entity)}`, {
    spec: `${Q}/{entity}`,
  });

/**
 * Sends requests back to back (retrying 20 ms after a 429) and returns the admitted rate, in `cost` units per
 * second, over WINDOW_MS from the first 429 on.
 */
async function measure(
  label: string,
  configured: number,
  send: () => Promise<{ status: number; cost: number }>,
): Promise<number> {
  let windowStart: number | null = null;
  let admitted = 0;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = Date.now();
    if (windowStart !== null && now - windowStart >= WINDOW_MS) {
      const measured = (admitted * 1000) / (now - windowStart);
      console.log(`quota ${label}: configured ${configured}/s, measured ${measured.toFixed(1)}/s`);
      return measured;
    }
    if (now > deadline) throw new Error('never throttled');
    const { status, cost } = await send();
    if (status === 429) {
      windowStart ??= Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } else {
      expect(status).toBe(200);
      if (windowStart !== null) admitted += cost;
    }
  }
}

beforeAll(async () => {
  broker = await BrokerProcess.start();
  cid = await broker.clusterId();
  expect(
    (await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, { body: { topic_name: 'q', partitions_count: 1 } }))
      .status,
  ).toBe(201);
});
afterAll(async () => {
  await broker?.stop();
});

describe('client quotas', () => {
  it('are set, listed, read and deleted through the client-quotas routes, with validation', async () => {
    await setQuota('User:alice', { producer_byte_rate: 1000, request_rate: null });
    const list = await call(broker.url, 'GET', `/v3/clusters/${cid}/client-quotas`, { spec: Q });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        kind: 'KafkaClientQuota',
        entity: 'User:alice',
        producer_byte_rate: 1000,
        consumer_byte_rate: null,
        request_rate: null,
      }),
    ]);
    const bad = await call(broker.url, 'PUT', `/v3/clusters/${cid}/client-quotas/alice`, {
      body: { producer_byte_rate: 1 },
      spec: `${Q}/{entity}`,
    });
    expectError(bad, 400, 40002, /User:<name>/);
    expectError(
      await call(broker.url, 'PUT', `/v3/clusters/${cid}/client-quotas/User:alice`, {
        body: { producer_byte_rate: -5 },
        spec: `${Q}/{entity}`,
      }),
      400,
      40002,
    );
    expect((await deleteQuota('User:alice')).status).toBe(204);
    expectError(await deleteQuota('User:alice'), 404, 404);
    expectError(
      await call(broker.url, 'GET', `/v3/clusters/${cid}/client-quotas/User:alice`, { spec: `${Q}/{entity}` }),
      404,
      404,
    );
  });

  it('producer_byte_rate: a greedy producer is held to the quota; 429 with 42901 and Retry-After', async () => {
    const rate = 40_000;
    await setQuota('<default>', { producer_byte_rate: rate });
    const body = JSON.stringify({ value: { type: 'STRING', data: 'x'.repeat(4000) } });
    let seen429 = false;
    const measured = await measure('producer_byte_rate', rate, async () => {
      const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/q/records`, {
        rawBody: body,
        spec: `${T}/records`,
      });
      if (response.status === 429 && !seen429) {
        seen429 = true;
        expectError(response, 429, 42901, /producer_byte_rate/);
        expect(response.headers.get('content-type')).toContain('application/json');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      return { status: response.status, cost: Buffer.byteLength(body) };
    });
    expect(measured).toBeGreaterThan(rate * (1 - TOLERANCE));
    expect(measured).toBeLessThan(rate * (1 + TOLERANCE));
    // a principal's own quota overrides the default (without authentication, everyone is User:ANONYMOUS)
    await setQuota('User:ANONYMOUS', { producer_byte_rate: 10 * rate });
    const own = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/q/records`, { rawBody: body });
    expect(own.status).toBe(200);
    await deleteQuota('User:ANONYMOUS');
    await deleteQuota('<default>');
  });

  it('producer_byte_rate on a streaming produce: the stream is read at the quota rate (back-pressure)', async () => {
    const rate = 40_000;
    await setQuota('<default>', { producer_byte_rate: rate });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a full bucket: one second of burst
    const record = JSON.stringify({ value: { type: 'STRING', data: 'y'.repeat(4000) } });
    const count = 40;
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        `${broker.url}/v3/clusters/${cid}/topics/q/records`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
      for (let i = 0; i < count; i++) request.write(record);
      request.end();
    });
    const elapsedMs = Date.now() - started;
    const reports = answer.split('\r\n').filter((line) => line.length > 0).length;
    expect(reports).toBe(count);
    expect(answer).not.toContain('error_code":4');
    // everything past the one-second burst is paced at the quota
    const expectedMs = ((count * record.length - rate) / rate) * 1000;
    console.log(`quota streaming producer_byte_rate: expected ${expectedMs.toFixed(0)} ms, took ${elapsedMs} ms`);
    expect(elapsedMs).toBeGreaterThan(expectedMs * (1 - TOLERANCE));
    expect(elapsedMs).toBeLessThan(expectedMs * (1 + TOLERANCE) + 500);
    await deleteQuota('<default>');
  });

  it('consumer_byte_rate: a greedy reader is held to the quota', async () => {
    const rate = 50_000;
    await setQuota('<default>', { consumer_byte_rate: rate });
    const measured = await measure('consumer_byte_rate', rate, async () => {
      const response = await call(
        broker.url,
        'GET',
        `/v3/clusters/${cid}/topics/q/partitions/0/records?offset=0&max_records=2`,
      );
      const bytes = response.raw.byteLength;
      return { status: response.status, cost: bytes };
    });
    expect(measured).toBeGreaterThan(rate * (1 - TOLERANCE));
    expect(measured).toBeLessThan(rate * (1 + TOLERANCE));
    await deleteQuota('<default>');
  });

  it('request_rate: requests per second on every authenticated route; probes are exempt', async () => {
    const rate = 25;
    await setQuota('<default>', { request_rate: rate });
    const measured = await measure('request_rate', rate, async () => {
      const response = await call(broker.url, 'GET', `/v3/clusters/${cid}/brokers`);
      return { status: response.status, cost: 1 };
    });
    expect(measured).toBeGreaterThan(rate * (1 - TOLERANCE));
    expect(measured).toBeLessThan(rate * (1 + TOLERANCE));
    for (let i = 0; i < 50; i++) expect((await call(broker.url, 'GET', '/healthz')).status).toBe(200);
    const metrics = (await call(broker.url, 'GET', '/metrics')).text;
    expect(metrics).toMatch(/brook_quota_throttled_requests_total\{quota="request_rate"\} [1-9]/);
    expect(metrics).toMatch(/brook_quota_throttled_requests_total\{quota="producer_byte_rate"\} [1-9]/);
    await deleteQuota('<default>');
  });
});
