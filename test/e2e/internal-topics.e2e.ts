// Internal topics (`__consumer_offsets`) are left out of the v3 and v2 topic lists, as Confluent's proxy lists
// topics (a client that lists topics and consumes each one would otherwise read the offsets topic); they are
// listed with `include_internal=true` and stay reachable by name.
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import { V2 } from './support/v2-consumer.js';

const suite = brokerForSuite();
const OFFSETS_TOPIC = '__consumer_offsets';

async function names(path: string): Promise<string[]> {
  const spec = path.startsWith('/v3/') ? '/v3/clusters/{cluster_id}/topics' : '/topics';
  const answer = await call(suite.url, 'GET', path, { spec });
  expect(answer.status, answer.text).toBe(200);
  return Array.isArray(answer.body) ? answer.body : answer.body.data.map((t: { topic_name: string }) => t.topic_name);
}

describe('internal topics', () => {
  it('are hidden from topic lists by default, listed on request, reachable by name', async () => {
    const created = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics`, {
      body: { topic_name: 'it-user', partitions_count: 1 },
    });
    expect(created.status, created.text).toBe(201);
    // the first consumer instance creates the offsets topic
    const instance = await call(suite.url, 'POST', '/consumers/it-group', { body: { name: 'c' }, contentType: V2 });
    expect(instance.status, instance.text).toBe(200);

    const v3 = `/v3/clusters/${suite.clusterId}/topics`;
    expect(await names(v3)).toEqual(['it-user']);
    expect(await names(`${v3}?include_internal=false`)).toEqual(['it-user']);
    expect(await names(`${v3}?include_internal=true`)).toEqual([OFFSETS_TOPIC, 'it-user']);
    expect(await names('/topics')).toEqual(['it-user']);
    expect(await names('/topics?include_internal=true')).toEqual([OFFSETS_TOPIC, 'it-user']);
    expectError(
      await call(suite.url, 'GET', `${v3}?include_internal=yes`, { spec: '/v3/clusters/{cluster_id}/topics' }),
      400,
      400,
    );

    const byName = await call(suite.url, 'GET', `${v3}/${OFFSETS_TOPIC}`, {
      spec: '/v3/clusters/{cluster_id}/topics/{topic_name}',
    });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.is_internal).toBe(true);
    expect((await call(suite.url, 'GET', `/topics/${OFFSETS_TOPIC}`)).status).toBe(200);
  });
});
