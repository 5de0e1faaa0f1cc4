// Consumer groups end to end against a broker process: REST Proxy v2 instances sharing a topic, rebalances on
// delete, consumption without loss or duplicates, offset reset policies, fencing of stale commits, lags, and the
// operator's reset and delete. Answers are validated against openapi.yaml. Groups across a kill -9 and idle
// instances' eviction are in consumer-groups-restart.e2e.ts.
import { describe, expect, it } from 'vitest';
import { createTopicAt } from './support/broker-helpers.js';
import { brokerForSuite } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import {
  getWithBody,
  I,
  produceValues,
  V2,
  V2Consumer,
  valueText,
  waitForAssignment,
  type V2Record,
} from './support/v2-consumer.js';

const G = '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}';
const GROUP_ENV = {
  BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '200',
  BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '5',
};

/** The last record of each partition in `records`, as explicit commit offsets. */
function lastOffsets(records: V2Record[]): Array<{ topic: string; partition: number; offset: number }> {
  const last = new Map<string, { topic: string; partition: number; offset: number }>();
  for (const r of records)
    last.set(`${r.topic}-${r.partition}`, { topic: r.topic, partition: r.partition, offset: r.offset });
  return [...last.values()];
}

describe('consumer groups', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });

  it('three instances on six partitions get two each; deleting one hands its partitions to the others', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'orders', 6);
    const consumers = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        V2Consumer.create(suite.url, 'orders-group', name, { 'auto.commit.enable': 'false' }),
      ),
    );
    for (const consumer of consumers) await consumer.subscribe(['orders']);
    const assignments = await Promise.all(consumers.map((c) => waitForAssignment(c, (p) => p.length === 2)));
    expect(new Set(assignments.flat()).size).toBe(6);
    // Range: the members sorted by id take consecutive partitions.
    expect(assignments).toEqual([
      ['orders-0', 'orders-1'],
      ['orders-2', 'orders-3'],
      ['orders-4', 'orders-5'],
    ]);
    const group = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/orders-group`, {
      spec: G,
    });
    expect(group.body).toMatchObject({
      state: 'STABLE',
      partition_assignor: 'range',
      consumer_group_id: 'orders-group',
    });
    const members = await call(
      suite.url,
      'GET',
      `/v3/clusters/${suite.clusterId}/consumer-groups/orders-group/consumers`,
      {
        spec: `${G}/consumers`,
      },
    );
    expect(members.body.data.map((m: { consumer_id: string }) => m.consumer_id)).toEqual(['a', 'b', 'c']);

    await consumers[2].delete();
    const after = await Promise.all(consumers.slice(0, 2).map((c) => waitForAssignment(c, (p) => p.length === 3)));
    expect(new Set(after.flat()).size).toBe(6);
    const gone = await consumers[2].call('GET', '/assignments');
    expectError(gone, 404, 40403);
    for (const consumer of consumers.slice(0, 2)) await consumer.delete();
  });

  it('consumes every record exactly once across the group when each instance commits after processing', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'work', 6);
    const values = Array.from({ length: 600 }, (_, i) => `record-${i}`);
    await produceValues(suite.url, 'work', values);
    const consumers = await Promise.all(
      ['w1', 'w2', 'w3'].map((name) =>
        V2Consumer.create(suite.url, 'workers', name, {
          'auto.commit.enable': 'false',
          'auto.offset.reset': 'earliest',
        }),
      ),
    );
    for (const consumer of consumers) await consumer.subscribe(['work']);
    await Promise.all(consumers.map((c) => waitForAssignment(c, (p) => p.length === 2)));

    const lagBefore = await call(
      suite.url,
      'GET',
      `/v3/clusters/${suite.clusterId}/consumer-groups/workers/lag-summary`,
      {
        spec: `${G}/lag-summary`,
      },
    );
    expect(lagBefore.body.total_lag).toBe(600);

    const seen = new Map<string, number>();
    const deadline = Date.now() + 30_000;
    while ([...seen.values()].length < 600 && Date.now() < deadline) {
      for (const consumer of consumers) {
        const records = await consumer.poll(50, 3_000);
        for (const record of records) seen.set(valueText(record), (seen.get(valueText(record)) ?? 0) + 1);
        if (records.length > 0) {
          const commit = await consumer.commit(lastOffsets(records));
          expect(commit.status, commit.text).toBe(200);
        }
      }
    }
    expect(seen.size).toBe(600);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);

    const lags = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/workers/lags`, {
      spec: `${G}/lags`,
    });
    expect(lags.body.data).toHaveLength(6);
    expect(lags.body.data.every((l: { lag: number }) => l.lag === 0)).toBe(true);
    const total = lags.body.data.reduce((sum: number, l: { log_end_offset: number }) => sum + l.log_end_offset, 0);
    expect(total).toBe(600);
    const committed = await consumers[0].committed(
      lags.body.data.map((l: { topic_name: string; partition_id: number }) => ({
        topic: l.topic_name,
        partition: l.partition_id,
      })),
    );
    for (const lag of lags.body.data) expect(committed.get(`work-${lag.partition_id}`)).toBe(lag.log_end_offset);
  });

  it("hands a departed member's uncommitted records to the others: duplicates only inside that window", async () => {
    const consumers = ['w1', 'w2', 'w3'].map((name) => V2Consumer.attach(suite.url, 'workers', name, 'binary'));
    const values = Array.from({ length: 300 }, (_, i) => `second-${i}`);
    await produceValues(suite.url, 'work', values);
    // w3 receives records, does not commit them, and goes away: they are the rebalance window.
    const uncommitted = new Set((await consumers[2].poll(500)).map(valueText));
    expect(uncommitted.size).toBeGreaterThan(0);
    await consumers[2].delete();
    await Promise.all(consumers.slice(0, 2).map((c) => waitForAssignment(c, (p) => p.length === 3)));
    const seen = new Map<string, number>();
    for (const value of uncommitted) seen.set(value, 1);
    const deadline = Date.now() + 30_000;
    while (seen.size < 300 && Date.now() < deadline) {
      for (const consumer of consumers.slice(0, 2)) {
        const records = await consumer.poll(50);
        for (const record of records) seen.set(valueText(record), (seen.get(valueText(record)) ?? 0) + 1);
        if (records.length > 0) expect((await consumer.commit(lastOffsets(records))).status).toBe(200);
      }
    }
    expect(seen.size).toBe(300);
    const duplicated = [...seen].filter(([, count]) => count > 1).map(([value]) => value);
    expect(duplicated.every((value) => uncommitted.has(value))).toBe(true);
    expect(duplicated.length).toBe(uncommitted.size);
  });

  it('rejects a commit for a partition the instance does not own (fenced), and from a deleted instance', async () => {
    const [w1, w2] = ['w1', 'w2'].map((name) => V2Consumer.attach(suite.url, 'workers', name, 'binary'));
    const owned = await w2.assignment();
    const [topic, partition] = [owned[0].slice(0, owned[0].lastIndexOf('-')), Number(owned[0].split('-').pop())];
    const fenced = await w1.commit([{ topic, partition, offset: 0 }]);
    expectError(fenced, 409, 40903, /not assigned/);
    await w2.delete();
    const gone = await w2.commit([{ topic, partition, offset: 0 }]);
    expectError(gone, 404, 40403);
    await w1.delete();
  });

  it('auto.offset.reset earliest, latest and none behave as in Kafka', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'resets', 1);
    await produceValues(suite.url, 'resets', ['r0', 'r1', 'r2', 'r3', 'r4'], 0);
    const assign = async (consumer: V2Consumer) => {
      const response = await consumer.call('POST', '/assignments', { partitions: [{ topic: 'resets', partition: 0 }] });
      expect(response.status, response.text).toBe(204);
    };
    const earliest = await V2Consumer.create(suite.url, 'reset-earliest', 'e', { 'auto.offset.reset': 'earliest' });
    await assign(earliest);
    expect((await earliest.poll(500)).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4]);

    const latest = await V2Consumer.create(suite.url, 'reset-latest', 'l', { 'auto.offset.reset': 'latest' });
    await assign(latest);
    expect(await latest.poll(200)).toEqual([]);
    await produceValues(suite.url, 'resets', ['r5'], 0);
    expect((await latest.poll(2_000)).map((r) => [r.offset, valueText(r)])).toEqual([[5, 'r5']]);

    const none = await V2Consumer.create(suite.url, 'reset-none', 'n', { 'auto.offset.reset': 'none' });
    await assign(none);
    expectError(await none.call('GET', '/records?timeout=100'), 400, 40002, /auto.offset.reset is none/);
    const seek = await none.call('POST', '/positions/beginning', { partitions: [{ topic: 'resets', partition: 0 }] });
    expect(seek.status, seek.text).toBe(204);
    expect((await none.poll(500)).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5]);
    const position = await none.call('POST', '/positions', { offsets: [{ topic: 'resets', partition: 0, offset: 4 }] });
    expect(position.status, position.text).toBe(204);
    expect((await none.poll(500)).map((r) => r.offset)).toEqual([4, 5]);
    for (const consumer of [earliest, latest, none]) await consumer.delete();
  });

  it('commits what was returned on an empty-body commit, and reads committed offsets with a GET body too', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'returned', 2);
    await produceValues(suite.url, 'returned', ['x0', 'x1', 'x2'], 0);
    const consumer = await V2Consumer.create(suite.url, 'returned-group', 'r', {
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    const assigned = await consumer.call('POST', '/assignments', {
      partitions: [
        { topic: 'returned', partition: 0 },
        { topic: 'returned', partition: 1 },
      ],
    });
    expect(assigned.status).toBe(204);
    expect(await consumer.poll(500, 2)).toHaveLength(1); // max_bytes 2: only the first record is returned
    expect((await consumer.commitReturned()).status).toBe(200);
    const viaQuery = await consumer.committed([{ topic: 'returned', partition: 0 }]);
    expect(viaQuery.get('returned-0')).toBe(1);
    const viaBody = await getWithBody(`${suite.url}${consumer.path}/offsets`, {
      partitions: [
        { topic: 'returned', partition: 0 },
        { topic: 'returned', partition: 1 },
      ],
    });
    expect(viaBody).toEqual({ offsets: [{ topic: 'returned', partition: 0, offset: 1, metadata: '' }] });
    await consumer.delete();
  });

  it('serialises concurrent polls of one instance: no record is returned twice', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'concurrent', 1);
    await produceValues(
      suite.url,
      'concurrent',
      Array.from({ length: 50 }, (_, i) => `c${i}`),
      0,
    );
    const consumer = await V2Consumer.create(suite.url, 'concurrent-group', 'one', {
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    await consumer.call('POST', '/assignments', { partitions: [{ topic: 'concurrent', partition: 0 }] });
    const polls = await Promise.all(Array.from({ length: 5 }, () => consumer.poll(300, 100)));
    const offsets = polls.flat().map((r) => r.offset);
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(offsets.length).toBeGreaterThan(5);
    await consumer.delete();
  });

  it('subscribes by topic_pattern, and auto-commits what was returned when the instance is deleted', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'metrics.eu', 1);
    await createTopicAt(suite.url, suite.clusterId, 'metrics.us', 1);
    await produceValues(suite.url, 'metrics.eu', ['eu'], 0);
    await produceValues(suite.url, 'metrics.us', ['us'], 0);
    const consumer = await V2Consumer.create(suite.url, 'pattern-group', 'p', {
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'true',
    });
    const subscribed = await consumer.call('POST', '/subscription', { topic_pattern: 'metrics\\..*' });
    expect(subscribed.status, subscribed.text).toBe(204);
    expect((await consumer.call('GET', '/subscription')).body).toEqual({ topics: ['metrics.eu', 'metrics.us'] });
    await waitForAssignment(consumer, (p) => p.length === 2);
    const values: string[] = [];
    const deadline = Date.now() + 10_000;
    while (values.length < 2 && Date.now() < deadline) values.push(...(await consumer.poll(200)).map(valueText));
    expect(values.sort()).toEqual(['eu', 'us']);
    await consumer.delete();
    const lags = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/consumer-groups/pattern-group/lags`, {
      spec: `${G}/lags`,
    });
    expect(
      lags.body.data.map((l: { topic_name: string; current_offset: number }) => [l.topic_name, l.current_offset]),
    ).toEqual([
      ['metrics.eu', 1],
      ['metrics.us', 1],
    ]);
  });

  it("answers Confluent's error codes for bad consumer requests", async () => {
    const consumer = await V2Consumer.create(suite.url, 'errors-group', 'dup');
    expectError(
      await call(suite.url, 'POST', '/consumers/errors-group', {
        body: { name: 'dup' },
        contentType: V2,
        spec: '/consumers/{group_name}',
      }),
      409,
      40902,
    );
    expectError(
      await call(suite.url, 'POST', '/consumers/errors-group', {
        body: { name: 'bad', format: 'xml' },
        contentType: V2,
        spec: '/consumers/{group_name}',
      }),
      422,
      42204,
      'format must be one of binary, json, avro, jsonschema, protobuf.',
    );
    expectError(
      await call(suite.url, 'POST', '/consumers/errors-group', {
        body: { name: 'bad', 'auto.offset.reset': 'sometimes' },
        contentType: V2,
        spec: '/consumers/{group_name}',
      }),
      422,
      42204,
    );
    const wrongFormat = await call(suite.url, 'GET', `${consumer.path}/records`, {
      accept: 'application/vnd.kafka.json.v2+json',
      spec: `${I}/records`,
    });
    expectError(wrongFormat, 406, 40601);
    await consumer.call('POST', '/assignments', { partitions: [{ topic: 'orders', partition: 0 }] });
    expectError(await consumer.call('POST', '/subscription', { topics: ['orders'] }), 409, 40901);
    expectError(
      await consumer.call('POST', '/assignments', { partitions: [{ topic: 'no-such-topic', partition: 0 }] }),
      404,
      40401,
    );
    expectError(
      await consumer.call('POST', '/offsets', { offsets: [{ topic: 'orders', partition: 0, offset: -5 }] }),
      422,
      42206,
    );
    expectError(
      await call(suite.url, 'GET', '/consumers/errors-group/instances/nobody/records', { spec: `${I}/records` }),
      404,
      40403,
    );
    await consumer.delete();
  });

  it("resets a group's offsets only while it is empty (dry run first), then deletes it", async () => {
    const base = `/v3/clusters/${suite.clusterId}/consumer-groups/workers`;
    const plan = await call(suite.url, 'POST', `${base}/offsets:reset`, {
      body: { to: 'earliest', dry_run: true },
      spec: `${G}/offsets:reset`,
    });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.data).toHaveLength(6);
    expect(
      plan.body.data.every(
        (p: { new_offset: number; current_offset: number }) => p.new_offset === 0 && p.current_offset > 0,
      ),
    ).toBe(true);
    const lagsUnchanged = await call(suite.url, 'GET', `${base}/lag-summary`, { spec: `${G}/lag-summary` });
    expect(lagsUnchanged.body.total_lag).toBe(0);

    const executed = await call(suite.url, 'POST', `${base}/offsets:reset`, {
      body: { to: 'offset', offset: 10, topics: [{ topic_name: 'work', partitions: [0, 1] }], dry_run: false },
      spec: `${G}/offsets:reset`,
    });
    expect(executed.status, executed.text).toBe(200);
    const lags = await call(suite.url, 'GET', `${base}/lags`, { spec: `${G}/lags` });
    for (const lag of lags.body.data) {
      if (lag.partition_id <= 1) expect(lag.current_offset).toBe(10);
    }
    // by timestamp: the first offset at or after it (the log end for a time after every record, 0 before them)
    const byTime = async (timestamp: string | number) =>
      (
        await call(suite.url, 'POST', `${base}/offsets:reset`, {
          body: { to: 'timestamp', timestamp, topics: [{ topic_name: 'work', partitions: [2] }], dry_run: true },
          spec: `${G}/offsets:reset`,
        })
      ).body.data[0].new_offset;
    const end = lags.body.data.find((l: { partition_id: number }) => l.partition_id === 2).log_end_offset;
    expect(await byTime(Date.now() + 60_000)).toBe(end);
    expect(await byTime('2020-01-01T00:00:00Z')).toBe(0);

    const busy = await V2Consumer.create(suite.url, 'workers', 'busy');
    await busy.subscribe(['work']);
    expectError(
      await call(suite.url, 'POST', `${base}/offsets:reset`, {
        body: { to: 'latest', dry_run: false },
        spec: `${G}/offsets:reset`,
      }),
      409,
      40904,
    );
    expectError(await call(suite.url, 'DELETE', base, { spec: G }), 409, 40904);
    await busy.delete();
    const deleted = await call(suite.url, 'DELETE', base, { spec: G });
    expect(deleted.status, deleted.text).toBe(204);
    expectError(await call(suite.url, 'GET', base, { spec: G }), 404, 404);
  });
});
