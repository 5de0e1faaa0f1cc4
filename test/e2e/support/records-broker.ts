// The broker of the produce and read e2e tests (produce-read.e2e.ts, v2-produce-read.e2e.ts): one broker process
// (`url` and `cid` are live bindings that startRecordsBroker sets), and the v3 calls they make through it (create
// a topic, produce a record, read a partition), every answer validated against openapi.yaml.
import { expect } from 'vitest';
import { BrokerProcess } from './broker-process.js';
import { call } from './http.js';

export const C = '/v3/clusters/{cluster_id}';
export const T = `${C}/topics/{topic_name}`;
export const READ = `${T}/partitions/{partition_id}/records`;

let broker: BrokerProcess | undefined;
export let url: string;
export let cid: string;

/** Starts the broker (each test file's beforeAll). */
export async function startRecordsBroker(): Promise<void> {
  broker = await BrokerProcess.start();
  url = broker.url;
  cid = await broker.clusterId();
}

export async function stopRecordsBroker(): Promise<void> {
  await broker?.stop();
}

export async function createTopic(
  name: string,
  partitions: number,
  configs: Array<{ name: string; value: string }> = [],
): Promise<void> {
  const response = await call(url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: name, partitions_count: partitions, configs },
    spec: `${C}/topics`,
  });
  expect(response.status, response.text).toBe(201);
}

export const produce = (topic: string, body: unknown, query = '') =>
  call(url, 'POST', `/v3/clusters/${cid}/topics/${topic}/records${query}`, { body, spec: `${T}/records` });

export const read = (topic: string, partition: number, query: string) =>
  call(url, 'GET', `/v3/clusters/${cid}/topics/${topic}/partitions/${partition}/records?${query}`, { spec: READ });

export const b64 = (text: string) => Buffer.from(text).toString('base64');
