// The fuzzed broker of the hostile-input e2e tests (fuzz.e2e.ts, ws-fuzz.e2e.ts, hostile-connections.e2e.ts): one
// broker with a topic `keep` (three records, retention.ms set) and a group `keepers` (offset 1 committed) whose
// state no generated request may change, a topic `fuzz` and consumer instances the requests may use (and delete:
// replenish re-creates them), and client quotas on User:ANONYMOUS low enough to be hit. `broker` and `cid` are
// live bindings that startFuzzBroker sets. SOAK and SEED are the run's form and fast-check seed (BROOK_SOAK,
// BROOK_FUZZ_SEED).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { BrokerProcess } from './broker-process.js';
import { call } from './http.js';

export const SOAK = process.env.BROOK_SOAK === '1';
export const SEED = Number(process.env.BROOK_FUZZ_SEED ?? Date.now() % 2 ** 31);
export const V2 = 'application/vnd.kafka.v2+json';
/** The client quotas of the fuzzing principal (User:ANONYMOUS: the fuzzed broker has no authentication). */
const FUZZ_QUOTAS = { request_rate: 100, producer_byte_rate: 1_000_000, consumer_byte_rate: 200_000 };
/** BROOK_WS_FRAME_BYTES_MAX of the fuzzed broker: small, so that oversized frames are cheap to send. */
export const WS_FRAME_BYTES_MAX = 65_536;

export type Json = Record<string, unknown>;

export let broker: BrokerProcess;
export let cid: string;

export function rssBytes(): number {
  const status = readFileSync(`/proc/${broker.child!.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** A GET retried while the fuzzing principal is over its request quota (429). */
export async function getPast429(path: string) {
  for (;;) {
    const answer = await call(broker.url, 'GET', path);
    if (answer.status !== 429) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function snapshot() {
  const records = await getPast429(`/v3/clusters/${cid}/topics/keep/partitions/0/records?offset=0&max_records=1000`);
  const configs = await getPast429(`/v3/clusters/${cid}/topics/keep/configs/retention.ms`);
  const topic = await getPast429(`/v3/clusters/${cid}/topics/keep`);
  const lags = await getPast429(`/v3/clusters/${cid}/consumer-groups/keepers/lags`);
  return {
    records: records.body.records,
    retention: configs.body.value,
    partitions: topic.body.partitions_count,
    committed: lags.body.data.map((lag: Json) => [lag.topic_name, lag.partition_id, lag.current_offset]),
  };
}

/** Re-creates what generated requests may legitimately delete (the fuzz topic, the fuzz consumer instance), so that
 * later requests reach deeper code instead of 404s. */
export async function replenish(): Promise<void> {
  await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, { body: { topic_name: 'fuzz', partitions_count: 2 } });
  await call(broker.url, 'POST', '/consumers/g-fuzz', { body: { name: 'i-fuzz', format: 'binary' }, contentType: V2 });
  await call(broker.url, 'POST', '/consumers/g-fuzz/instances/i-fuzz/subscription', {
    body: { topics: ['fuzz'] },
    contentType: V2,
  });
}

/** Starts the fuzzed broker and stores what must survive the run (each test file's beforeAll). */
export async function startFuzzBroker(): Promise<void> {
  broker = await BrokerProcess.start({
    env: {
      BROOK_READ_WAIT_MS_MAX: '200',
      BROOK_SOCKET_REQUEST_MAX_BYTES: String(2 * 1024 * 1024),
      BROOK_WS_FRAME_BYTES_MAX: String(WS_FRAME_BYTES_MAX),
    },
  });
  cid = await broker.clusterId();
  expect(
    (
      await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
        body: { topic_name: 'keep', partitions_count: 1, configs: [{ name: 'retention.ms', value: '123456789' }] },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
        body: { topic_name: 'fuzz', partitions_count: 2 },
      })
    ).status,
  ).toBe(201);
  for (const value of ['one', 'two', 'three'])
    expect(
      (
        await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/keep/records`, {
          body: { value: { type: 'STRING', data: value }, headers: [{ name: 'h', value: 'aGk=' }] },
        })
      ).status,
    ).toBe(200);
  expect(
    (
      await call(broker.url, 'POST', '/consumers/g-fuzz', {
        body: { name: 'i-fuzz', format: 'binary' },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  const consumer = '/consumers/keepers/instances/k1';
  expect(
    (
      await call(broker.url, 'POST', '/consumers/keepers', {
        body: { name: 'k1', format: 'binary', 'auto.commit.enable': 'false' },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(broker.url, 'POST', `${consumer}/assignments`, {
        body: { partitions: [{ topic: 'keep', partition: 0 }] },
        contentType: V2,
      })
    ).status,
  ).toBe(204);
  expect(
    (
      await call(broker.url, 'POST', `${consumer}/offsets`, {
        body: { offsets: [{ topic: 'keep', partition: 0, offset: 1 }] },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  expect(
    (await call(broker.url, 'POST', '/consumers/g-pattern', { body: { name: 'p' }, contentType: V2 })).status,
  ).toBe(200);
  const quotas = await call(broker.url, 'PUT', `/v3/clusters/${cid}/client-quotas/User:ANONYMOUS`, {
    body: FUZZ_QUOTAS,
  });
  expect(quotas.status, quotas.text).toBe(200);
}

export async function stopFuzzBroker(): Promise<void> {
  await broker?.stop();
}
