// REST Proxy v2 details Confluent's clients depend on: a commit answers 200 with the JSON array
// [{topic, partition, consumed, committed}] (clients that parse the answer failed on an empty body); every v2 answer,
// errors included, carries the v2 type negotiated from Accept (not application/json when the client asked for
// application/vnd.kafka.v2+json); a seek on a partition the instance is not assigned is 409 40903.
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import { I, V2 } from './support/v2-consumer.js';

const suite = brokerForSuite();

async function createTopic(name: string, partitions: number): Promise<void> {
  const response = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics`, {
    body: { topic_name: name, partitions_count: partitions },
  });
  expect(response.status, response.text).toBe(201);
}

async function produce(topic: string, values: string[]): Promise<void> {
  const response = await call(suite.url, 'POST', `/topics/${topic}/partitions/0`, {
    body: { records: values.map((value) => ({ value })) },
    contentType: 'application/vnd.kafka.json.v2+json',
  });
  expect(response.status, response.text).toBe(200);
}

/** A json-format instance of `group` manually assigned partition 0 of `topic`. */
async function assignedInstance(group: string, topic: string): Promise<string> {
  const created = await call(suite.url, 'POST', `/consumers/${group}`, {
    body: { name: 'c1', format: 'json', 'auto.offset.reset': 'earliest', 'auto.commit.enable': 'false' },
    contentType: V2,
    spec: '/consumers/{group_name}',
  });
  expect(created.status, created.text).toBe(200);
  const base = `/consumers/${group}/instances/c1`;
  const assigned = await call(suite.url, 'POST', `${base}/assignments`, {
    body: { partitions: [{ topic, partition: 0 }] },
    contentType: V2,
    spec: `${I}/assignments`,
  });
  expect(assigned.status, assigned.text).toBe(204);
  return base;
}

async function pollUntil(base: string, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  let received = 0;
  while (received < count && Date.now() < deadline) {
    const polled = await call(suite.url, 'GET', `${base}/records?timeout=500`, {
      accept: 'application/vnd.kafka.json.v2+json',
      spec: `${I}/records`,
    });
    expect(polled.status, polled.text).toBe(200);
    received += (polled.body as unknown[]).length;
  }
  expect(received).toBe(count);
}

describe('v2 commit answer', () => {
  it('answers 200 with [{topic, partition, consumed, committed}] in the v2 type, for both commit forms', async () => {
    await createTopic('vf-commit', 1);
    await produce('vf-commit', ['a', 'b', 'c']);
    const base = await assignedInstance('vf-commit-group', 'vf-commit');
    await pollUntil(base, 3);
    const all = await call(suite.url, 'POST', `${base}/offsets`, {
      contentType: V2,
      accept: V2,
      spec: `${I}/offsets`,
    });
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get('content-type')).toBe(V2);
    expect(all.body).toEqual([{ topic: 'vf-commit', partition: 0, consumed: 2, committed: 3 }]);
    const explicit = await call(suite.url, 'POST', `${base}/offsets`, {
      body: { offsets: [{ topic: 'vf-commit', partition: 0, offset: 0 }] },
      contentType: V2,
      accept: V2,
      spec: `${I}/offsets`,
    });
    expect(explicit.status, explicit.text).toBe(200);
    expect(explicit.body).toEqual([{ topic: 'vf-commit', partition: 0, consumed: 0, committed: 1 }]);
    const stored = await call(suite.url, 'GET', `${base}/offsets?partition=vf-commit:0`, { accept: V2 });
    expect(stored.body.offsets[0].offset).toBe(1);
  });
});

describe('v2 answer content types', () => {
  it('labels metadata, produce, instance, offsets and error answers with the negotiated v2 type', async () => {
    await createTopic('vf-types', 1);
    await produce('vf-types', ['x']);
    const base = await assignedInstance('vf-types-group', 'vf-types');
    await pollUntil(base, 1);
    const produceBody = { records: [{ value: 'eHl6' }] };
    const requests: Array<{ method: string; path: string; body?: unknown; status: number }> = [
      { method: 'GET', path: '/topics', status: 200 },
      { method: 'GET', path: '/topics/vf-types', status: 200 },
      { method: 'GET', path: '/topics/vf-types/partitions', status: 200 },
      { method: 'GET', path: '/topics/vf-types/partitions/0', status: 200 },
      { method: 'GET', path: '/topics/vf-types/partitions/0/offsets', status: 200 },
      { method: 'GET', path: '/brokers', status: 200 },
      { method: 'POST', path: '/topics/vf-types', body: produceBody, status: 200 },
      { method: 'POST', path: '/topics/vf-types/partitions/0', body: produceBody, status: 200 },
      { method: 'GET', path: `${base}/assignments`, status: 200 },
      { method: 'GET', path: `${base}/subscription`, status: 200 },
      { method: 'POST', path: `${base}/offsets`, status: 200 },
      { method: 'GET', path: `${base}/offsets?partition=vf-types:0`, status: 200 },
      { method: 'GET', path: '/topics/vf-no-such-topic', status: 404 },
      { method: 'GET', path: '/consumers/vf-types-group/instances/nobody/assignments', status: 404 },
    ];
    const negotiations: Array<[string | undefined, string]> = [
      [V2, V2],
      [undefined, V2],
      ['*/*', V2],
      ['application/json', 'application/json'],
      ['application/vnd.kafka.binary.v2+json', 'application/vnd.kafka.binary.v2+json'],
    ];
    for (const { method, path, body, status } of requests) {
      for (const [accept, type] of negotiations) {
        const answer = await call(suite.url, method, path, {
          body,
          contentType: body === undefined ? undefined : 'application/vnd.kafka.binary.v2+json',
          accept,
        });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
        expect(answer.headers.get('content-type'), `${method} ${path} with Accept ${accept}`).toBe(type);
      }
    }
  });
});

describe('v2 seek on an unassigned partition', () => {
  it('is 409 40903 for positions, positions/beginning and positions/end', async () => {
    await createTopic('vf-seek', 2);
    const base = await assignedInstance('vf-seek-group', 'vf-seek');
    const other = { topic: 'vf-seek', partition: 1 };
    const seeks: Array<[string, unknown]> = [
      ['/positions', { offsets: [{ ...other, offset: 0 }] }],
      ['/positions/beginning', { partitions: [other] }],
      ['/positions/end', { partitions: [other] }],
    ];
    for (const [suffix, body] of seeks) {
      const answer = await call(suite.url, 'POST', `${base}${suffix}`, {
        body,
        contentType: V2,
        accept: V2,
        spec: `${I}${suffix}`,
      });
      expectError(answer, 409, 40903, /not assigned/);
    }
    const assigned = await call(suite.url, 'POST', `${base}/positions`, {
      body: { offsets: [{ topic: 'vf-seek', partition: 0, offset: 0 }] },
      contentType: V2,
      spec: `${I}/positions`,
    });
    expect(assigned.status, assigned.text).toBe(204);
  });
});
