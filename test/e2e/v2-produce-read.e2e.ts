// The REST Proxy v2 produce route (embedded json and binary, per-record errors inside offsets[]) and its metadata
// routes (topics, partitions, offsets, brokers) end to end; every JSON answer is validated against openapi.yaml.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from './support/http.js';
import { b64, createTopic, read, startRecordsBroker, stopRecordsBroker, url } from './support/records-broker.js';

beforeAll(startRecordsBroker);
afterAll(stopRecordsBroker);

describe('v2', () => {
  const V2 = 'application/vnd.kafka.v2+json';
  beforeAll(async () => {
    await createTopic('pr-v2', 2);
  });

  it('produces embedded json and binary, with per-record 40402 inside offsets[] and status 200', async () => {
    const json = await call(url, 'POST', '/topics/pr-v2', {
      body: {
        records: [
          { value: { a: 1 }, partition: 0 },
          { key: 'k', value: [true], partition: 1 },
          { value: 'x', partition: 7 },
        ],
      },
      contentType: 'application/vnd.kafka.json.v2+json',
      accept: V2,
      spec: '/topics/{topic_name}',
    });
    expect(json.status, json.text).toBe(200);
    expect(json.body.offsets).toHaveLength(3);
    expect(json.body.offsets[0]).toMatchObject({ partition: 0, offset: 0, error_code: null });
    expect(json.body.offsets[1]).toMatchObject({ partition: 1, offset: 0, error_code: null });
    expect(json.body.offsets[2]).toMatchObject({ error_code: 40402 });
    expect(typeof json.body.offsets[2].error).toBe('string');

    const binary = await call(url, 'POST', '/topics/pr-v2/partitions/1', {
      body: { records: [{ value: b64('bin-value'), key: b64('bin-key') }] },
      contentType: 'application/vnd.kafka.binary.v2+json',
      spec: '/topics/{topic_name}/partitions/{partition_id}',
    });
    expect(binary.status, binary.text).toBe(200);
    expect(binary.body.offsets[0]).toMatchObject({ partition: 1, offset: 1 });
    const back = await read('pr-v2', 1, 'offset=0&format=string');
    expect(back.body.records.map((r: { key: unknown; value: unknown }) => [r.key, r.value])).toEqual([
      ['"k"', '[true]'],
      ['bin-key', 'bin-value'],
    ]);
    expectError(
      await call(url, 'POST', '/topics/pr-v2/partitions/5', {
        body: { records: [{ value: 'eA==' }] },
        contentType: 'application/vnd.kafka.binary.v2+json',
        spec: '/topics/{topic_name}/partitions/{partition_id}',
      }),
      404,
      40402,
    );
    expectError(
      await call(url, 'POST', '/topics/pr-v2-nope', {
        body: { records: [{ value: 1 }] },
        contentType: 'application/vnd.kafka.json.v2+json',
        spec: '/topics/{topic_name}',
      }),
      404,
      40401,
    );
    const acks = await call(url, 'POST', '/topics/pr-v2?acks=1', {
      body: { records: [{ value: 1, partition: 0 }] },
      contentType: 'application/vnd.kafka.json.v2+json',
      spec: '/topics/{topic_name}',
    });
    expect(acks.status).toBe(200);
    expect(
      (
        await call(url, 'POST', '/topics/pr-v2?acks=2', {
          body: { records: [{ value: 1, partition: 0 }] },
          contentType: 'application/vnd.kafka.json.v2+json',
          spec: '/topics/{topic_name}',
        })
      ).status,
    ).toBe(400);
  });

  it('serves topics, topic, partitions, partition, offsets and brokers', async () => {
    const topics = await call(url, 'GET', '/topics', { accept: V2, spec: '/topics' });
    expect(topics.status).toBe(200);
    expect(topics.body).toContain('pr-v2');
    const topic = await call(url, 'GET', '/topics/pr-v2', { accept: V2, spec: '/topics/{topic_name}' });
    expect(topic.status).toBe(200);
    expect(topic.body.name).toBe('pr-v2');
    expect(topic.body.partitions).toHaveLength(2);
    const parts = await call(url, 'GET', '/topics/pr-v2/partitions', {
      accept: V2,
      spec: '/topics/{topic_name}/partitions',
    });
    expect(parts.body).toHaveLength(2);
    const part = await call(url, 'GET', '/topics/pr-v2/partitions/1', {
      accept: V2,
      spec: '/topics/{topic_name}/partitions/{partition_id}',
    });
    expect(part.body.partition).toBe(1);
    expect(part.body.replicas[0]).toMatchObject({ leader: true, in_sync: true });
    const offsets = await call(url, 'GET', '/topics/pr-v2/partitions/1/offsets', {
      accept: V2,
      spec: '/topics/{topic_name}/partitions/{partition_id}/offsets',
    });
    expect(offsets.body).toEqual({ beginning_offset: 0, end_offset: 2 });
    const brokers = await call(url, 'GET', '/brokers', { accept: V2, spec: '/brokers' });
    expect(brokers.body.brokers).toHaveLength(1);
    expectError(await call(url, 'GET', '/topics/nope', { accept: V2, spec: '/topics/{topic_name}' }), 404, 40401);
    expectError(
      await call(url, 'GET', '/topics/pr-v2/partitions/9', {
        accept: V2,
        spec: '/topics/{topic_name}/partitions/{partition_id}',
      }),
      404,
      40402,
    );
    expectError(
      await call(url, 'GET', '/topics/pr-v2/partitions/9/offsets', {
        accept: V2,
        spec: '/topics/{topic_name}/partitions/{partition_id}/offsets',
      }),
      404,
      40402,
    );
  });
});
