// GET /metrics: produce and consume through v3 and v2 and see the per-topic counters, the per-route request
// counters, histograms and error codes, and consumer group lag move; gauges of leadership, controller and WebSockets.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { WsClient } from './support/ws-client.js';
import { waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { metricValue, parseMetrics, type Samples } from './support/prometheus.js';

const V2 = 'application/vnd.kafka.v2+json';
const BINARY = 'application/vnd.kafka.binary.v2+json';
const RECORDS_ROUTE = '/v3/clusters/{cluster_id}/topics/{topic_name}/records';

let broker: BrokerProcess;
let cid: string;

async function scrape(): Promise<Samples> {
  const response = await call(broker.url, 'GET', '/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseMetrics(response.text);
}

const value = metricValue;

const produce = async (count: number) => {
  for (let i = 0; i < count; i++) {
    const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/metered/records`, {
      body: { value: { type: 'STRING', data: `record-${i}` } },
    });
    expect(response.status, response.text).toBe(200);
  }
};

beforeAll(async () => {
  broker = await BrokerProcess.start();
  cid = await broker.clusterId();
  const created = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: 'metered', partitions_count: 1 },
  });
  expect(created.status, created.text).toBe(201);
});
afterAll(async () => {
  await broker?.stop();
});

describe('metrics', () => {
  it('counts messages and bytes in and out per topic, requests per route template, errors per code', async () => {
    const before = await scrape();
    expect(value(before, 'brook_topic_messages_in_total', { topic: 'metered' })).toBe(0);
    await produce(5);
    const v2 = await call(broker.url, 'POST', '/topics/metered', {
      body: { records: [{ value: 'YQ==' }, { value: 'Yg==' }, { value: 'Yw==' }] },
      contentType: BINARY,
    });
    expect(v2.status).toBe(200);
    const read = await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/metered/partitions/0/records?offset=0`);
    expect(read.body.records).toHaveLength(8);
    expect((await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/nope`)).status).toBe(404);
    expect((await call(broker.url, 'GET', '/no/such/route/12345')).status).toBe(404);

    const after = await scrape();
    expect(value(after, 'brook_topic_messages_in_total', { topic: 'metered' })).toBe(8);
    expect(value(after, 'brook_topic_bytes_in_total', { topic: 'metered' })).toBeGreaterThan(8 * 8);
    expect(value(after, 'brook_topic_messages_out_total', { topic: 'metered' })).toBe(8);
    expect(value(after, 'brook_topic_bytes_out_total', { topic: 'metered' })).toBe(
      value(after, 'brook_topic_bytes_in_total', { topic: 'metered' }),
    );
    expect(value(after, 'brook_http_requests_total', { method: 'POST', route: RECORDS_ROUTE, status: '200' })).toBe(5);
    expect(value(after, 'brook_http_request_duration_seconds_count', { method: 'POST', route: RECORDS_ROUTE })).toBe(5);
    expect(
      value(after, 'brook_http_request_duration_seconds_bucket', { method: 'POST', route: RECORDS_ROUTE, le: '+Inf' }),
    ).toBe(5);
    expect(
      value(after, 'brook_http_request_errors_total', {
        route: '/v3/clusters/{cluster_id}/topics/{topic_name}',
        error_code: '40401',
      }),
    ).toBe(1);
    // unknown URLs share one label value: a scan cannot explode the series
    expect(value(after, 'brook_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(JSON.stringify([...after.keys()])).not.toContain('12345');
    expect([...after.values()].flat().some((s) => Object.values(s.labels).some((l) => l.includes('12345')))).toBe(
      false,
    );
    expect(value(after, 'brook_partition_leader_count')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'brook_controller_active_count')).toBe(1);
    expect(value(after, 'brook_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports consumer group lag per group and partition, moving with commits and new records', async () => {
    const instance = `/consumers/lagging/instances/c1`;
    expect(
      (
        await call(broker.url, 'POST', '/consumers/lagging', {
          body: { name: 'c1', format: 'binary', 'auto.offset.reset': 'earliest', 'auto.commit.enable': 'false' },
          contentType: V2,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(broker.url, 'POST', `${instance}/assignments`, {
          body: { partitions: [{ topic: 'metered', partition: 0 }] },
          contentType: V2,
        })
      ).status,
    ).toBe(204);
    const messagesOutBefore = value(await scrape(), 'brook_topic_messages_out_total', { topic: 'metered' });
    const polled = await call(broker.url, 'GET', `${instance}/records?timeout=1000`, { accept: BINARY });
    expect(polled.body).toHaveLength(8);
    expect(value(await scrape(), 'brook_topic_messages_out_total', { topic: 'metered' })).toBe(messagesOutBefore + 8);
    const lag = async () =>
      value(await scrape(), 'brook_consumergroup_lag', { group: 'lagging', topic: 'metered', partition: '0' });
    const commit = (offset: number) =>
      call(broker.url, 'POST', `${instance}/offsets`, {
        body: { offsets: [{ topic: 'metered', partition: 0, offset }] },
        contentType: V2,
      });
    expect((await commit(2)).status).toBe(200); // processed offsets 0..2: 3 committed, 5 to go
    expect(await lag()).toBe(5);
    expect((await commit(7)).status).toBe(200);
    expect(await lag()).toBe(0);
    await produce(4);
    expect(await lag()).toBe(4);
  });

  it('counts open WebSockets, their subscriptions and SSE streams', async () => {
    const gauges = async () => {
      const samples = await scrape();
      return [value(samples, 'brook_websocket_connections'), value(samples, 'brook_websocket_subscriptions')];
    };
    expect(await gauges()).toEqual([0, 0]);
    const client = await WsClient.connect(broker.url);
    client.send({ op: 'subscribe', id: 's1', assign: [{ topic: 'metered', partition: 0, offset: 0 }] });
    await client.waitForRecords('s1', 1);
    expect(await gauges()).toEqual([1, 1]);
    client.close();
    await waitUntil('the socket is gone', async () => (await gauges())[0] === 0, 5_000);
    expect(await gauges()).toEqual([0, 0]);

    const sse = async () => value(await scrape(), 'brook_sse_streams');
    expect(await sse()).toBe(0);
    const stop = new AbortController();
    const stream = await fetch(`${broker.url}/v3/clusters/${cid}/topics/metered/records:stream?from=earliest`, {
      signal: stop.signal,
    });
    expect(stream.status).toBe(200);
    expect(await sse()).toBe(1);
    stop.abort();
    await waitUntil('the stream is gone', async () => (await sse()) === 0, 5_000);
  });

  it('the Grafana dashboard queries only metrics the broker exposes', async () => {
    const dashboard = readFileSync(
      fileURLToPath(new URL('../../ops/grafana/brook-dashboard.json', import.meta.url)),
      'utf8',
    );
    const queried = new Set([...dashboard.matchAll(/\bbrook_\w+/g)].map((match) => match[0]));
    expect(queried.size).toBeGreaterThan(8);
    const exposed = await scrape();
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
  });
});
