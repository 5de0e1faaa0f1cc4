// Durability across restarts: every acknowledged record survives kill -9 with its offset and content, producing
// continues at the next offset, and SIGTERM shuts down cleanly (exit 0) with the data served again after restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';

const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
const READ = `${T}/partitions/{partition_id}/records`;
const N = 200;

let broker: BrokerProcess;

beforeAll(async () => {
  broker = await BrokerProcess.start();
});
afterAll(async () => {
  await broker?.stop();
});

async function readAll(topic: string, partitions: number): Promise<Map<string, unknown>> {
  const cid = await broker.clusterId();
  const out = new Map<string, unknown>();
  for (let p = 0; p < partitions; p++) {
    let offset = 0;
    for (;;) {
      const response = await call(
        broker.url,
        'GET',
        `/v3/clusters/${cid}/topics/${topic}/partitions/${p}/records?offset=${offset}&format=string`,
        { spec: READ },
      );
      expect(response.status, response.text).toBe(200);
      for (const record of response.body.records)
        out.set(`${p}:${record.offset}`, {
          key: record.key,
          value: record.value,
          timestamp: record.timestamp,
          headers: record.headers,
        });
      if (response.body.next_offset >= response.body.high_watermark || response.body.records.length === 0) break;
      offset = response.body.next_offset;
    }
  }
  return out;
}

describe('restart', () => {
  it('kill -9 keeps every acknowledged record; producing continues at the next offset', async () => {
    const cid = await broker.clusterId();
    expect(
      (
        await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
          body: { topic_name: 'durable', partitions_count: 3 },
        })
      ).status,
    ).toBe(201);
    const acknowledged = new Map<string, unknown>();
    const produceOne = async (i: number) => {
      const response = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/durable/records`, {
        body: {
          key: { type: 'STRING', data: `k${i % 17}` },
          value: { type: 'STRING', data: `value-${i}` },
          headers: [{ name: 'i', value: Buffer.from(String(i)).toString('base64') }],
        },
        spec: `${T}/records`,
      });
      expect(response.status, response.text).toBe(200);
      return response.body as { partition_id: number; offset: number; timestamp: string };
    };
    for (let i = 0; i < N; i += 10) {
      const reports = await Promise.all(Array.from({ length: 10 }, (_, j) => produceOne(i + j)));
      reports.forEach((report, j) => {
        acknowledged.set(`${report.partition_id}:${report.offset}`, {
          key: `k${(i + j) % 17}`,
          value: `value-${i + j}`,
          timestamp: Date.parse(report.timestamp),
          headers: [{ name: 'i', value: Buffer.from(String(i + j)).toString('base64') }],
        });
      });
    }
    expect(acknowledged.size).toBe(N);

    const { signal } = await broker.kill('SIGKILL');
    expect(signal).toBe('SIGKILL');
    await broker.restart();
    expect(await broker.clusterId()).toBe(cid);

    const after = await readAll('durable', 3);
    for (const [position, record] of acknowledged) expect(after.get(position), position).toEqual(record);
    expect(after.size).toBe(N);

    const next = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/durable/records`, {
      body: { partition_id: 1, value: { type: 'STRING', data: 'after restart' } },
      spec: `${T}/records`,
    });
    expect(next.status).toBe(200);
    const onPartition1 = [...acknowledged.keys()].filter((k) => k.startsWith('1:')).length;
    expect(next.body.offset).toBe(onPartition1);
  });

  it('SIGTERM shuts down cleanly and the restarted broker serves the same data', async () => {
    const cid = await broker.clusterId();
    const before = await readAll('durable', 3);
    const started = Date.now();
    const exit = await broker.kill('SIGTERM', 10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    await broker.restart();
    expect(await broker.clusterId()).toBe(cid);
    expect(await readAll('durable', 3)).toEqual(before);
    const topic = await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/durable`, { spec: T });
    expect(topic.body.partitions_count).toBe(3);
  });
});
