// Committed offsets do not outlive their partitions (Kafka's GroupMetadataManager removes a group's offsets of
// deleted partitions): a topic deleted and created again starts over for its groups, a topic created again with
// fewer partitions leaves no offsets on the partitions it lost, and a deleted topic leaves none at all.
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { I, V2 } from './support/v2-consumer.js';

const suite = brokerForSuite();
const JSON_V2 = 'application/vnd.kafka.json.v2+json';

async function createTopic(name: string, partitions: number): Promise<void> {
  const response = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics`, {
    body: { topic_name: name, partitions_count: partitions },
  });
  expect(response.status, response.text).toBe(201);
}

async function deleteTopic(name: string): Promise<void> {
  const response = await call(suite.url, 'DELETE', `/v3/clusters/${suite.clusterId}/topics/${name}`);
  expect(response.status, response.text).toBe(204);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if ((await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/topics/${name}`)).status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`topic ${name} still exists`);
}

async function produce(topic: string, partition: number, values: string[]): Promise<void> {
  const response = await call(suite.url, 'POST', `/topics/${topic}/partitions/${partition}`, {
    body: { records: values.map((value) => ({ value })) },
    contentType: JSON_V2,
  });
  expect(response.status, response.text).toBe(200);
}

/** An instance of `group`, assigned the given partitions, reading from the earliest offset without a commit. */
async function instance(group: string, name: string, partitions: Array<{ topic: string; partition: number }>) {
  const created = await call(suite.url, 'POST', `/consumers/${group}`, {
    body: { name, format: 'json', 'auto.offset.reset': 'earliest', 'auto.commit.enable': 'false' },
    contentType: V2,
  });
  expect(created.status, created.text).toBe(200);
  const base = `/consumers/${group}/instances/${name}`;
  const assigned = await call(suite.url, 'POST', `${base}/assignments`, { body: { partitions }, contentType: V2 });
  expect(assigned.status, assigned.text).toBe(204);
  return {
    poll: async (count: number): Promise<Array<{ offset: number; value: unknown }>> => {
      const records: Array<{ offset: number; value: unknown }> = [];
      const deadline = Date.now() + 15_000;
      while (records.length < count && Date.now() < deadline) {
        const polled = await call(suite.url, 'GET', `${base}/records?timeout=300`, {
          accept: JSON_V2,
          spec: `${I}/records`,
        });
        expect(polled.status, polled.text).toBe(200);
        records.push(...(polled.body as Array<{ offset: number; value: unknown }>));
      }
      return records;
    },
    commit: async (offsets: Array<{ topic: string; partition: number; offset: number }>) => {
      const committed = await call(suite.url, 'POST', `${base}/offsets`, { body: { offsets }, contentType: V2 });
      expect(committed.status, committed.text).toBe(200);
    },
    committed: async (query: string): Promise<unknown[]> => {
      const answer = await call(suite.url, 'GET', `${base}/offsets?${query}`, { accept: V2 });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.offsets as unknown[];
    },
    remove: async () => {
      expect((await call(suite.url, 'DELETE', base)).status).toBe(204);
    },
  };
}

/** Waits until the group has no committed offset for the partitions of `query` (the tombstones are written). */
async function offsetsGone(reader: { committed: (query: string) => Promise<unknown[]> }, query: string) {
  const deadline = Date.now() + 15_000;
  let left: unknown[] = [];
  while (Date.now() < deadline) {
    left = await reader.committed(query);
    if (left.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`offsets still committed for ${query}: ${JSON.stringify(left)}`);
}

describe('committed offsets of deleted partitions', () => {
  it('a topic deleted and created again is read by its group from the start', async () => {
    await createTopic('dto-again', 1);
    await produce('dto-again', 0, ['old-0', 'old-1']);
    const first = await instance('dto-group', 'first', [{ topic: 'dto-again', partition: 0 }]);
    expect((await first.poll(2)).map((r) => r.value)).toEqual(['old-0', 'old-1']);
    await first.commit([{ topic: 'dto-again', partition: 0, offset: 0 }]);
    expect(await first.committed('partition=dto-again:0')).toHaveLength(1);
    await first.remove();

    await deleteTopic('dto-again');
    await createTopic('dto-again', 1);
    await produce('dto-again', 0, ['new-0', 'new-1']);
    const second = await instance('dto-group', 'second', [{ topic: 'dto-again', partition: 0 }]);
    const records = await second.poll(2);
    expect(records.map((r) => [r.offset, r.value])).toEqual([
      [0, 'new-0'],
      [1, 'new-1'],
    ]);
    await offsetsGone(second, 'partition=dto-again:0');
  });

  it('a topic created again with fewer partitions keeps no offsets of the partitions it lost', async () => {
    await createTopic('dto-fewer', 3);
    await produce('dto-fewer', 2, ['p2']);
    const partitions = [0, 1, 2].map((partition) => ({ topic: 'dto-fewer', partition }));
    const reader = await instance('dto-fewer-group', 'reader', partitions);
    await reader.poll(1);
    await reader.commit([{ topic: 'dto-fewer', partition: 2, offset: 0 }]);
    expect(await reader.committed('partition=dto-fewer:2')).toHaveLength(1);
    await reader.remove();

    await deleteTopic('dto-fewer');
    await createTopic('dto-fewer', 1);
    const after = await instance('dto-fewer-group', 'after', [{ topic: 'dto-fewer', partition: 0 }]);
    await offsetsGone(after, 'partition=dto-fewer:0&partition=dto-fewer:1&partition=dto-fewer:2');
  });

  it('a deleted topic leaves no committed offsets in its groups', async () => {
    await createTopic('dto-gone', 1);
    await produce('dto-gone', 0, ['x']);
    const reader = await instance('dto-gone-group', 'reader', [{ topic: 'dto-gone', partition: 0 }]);
    await reader.poll(1);
    await reader.commit([{ topic: 'dto-gone', partition: 0, offset: 0 }]);
    await deleteTopic('dto-gone');
    await offsetsGone(reader, 'partition=dto-gone:0');
  });
});
