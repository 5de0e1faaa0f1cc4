// One request id across brokers: a request sent to a broker that forwards it (produce to a partition led by
// another broker, a topic created through a broker that is not the controller) carries its X-Request-Id to the
// broker that does the work (as does a consumer-group request forwarded to the group's coordinator), and both brokers' JSON logs (BROOK_LOG_FORMAT=json, debug level: a line per answered
// request) show that id as request_id. Background work a request sets off (follower fetchers) does not carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';

let cluster: TestCluster;
let cid: string;

beforeAll(async () => {
  cluster = await TestCluster.start(2, {
    BROOK_LOG_FORMAT: 'json',
    BROOK_LOG_LEVEL: 'debug',
    BROOK_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
    BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '4',
  });
  cid = await cluster.brokers[0].clusterId();
});
afterAll(async () => {
  await cluster?.stop();
});

/** The JSON log lines of a broker that carry this request id. */
function linesWithId(broker: BrokerProcess, requestId: string): Array<Record<string, unknown>> {
  return `${broker.stdout}${broker.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.request_id === requestId);
}

const logged = (broker: BrokerProcess, requestId: string, message: RegExp) =>
  waitUntil(
    `a log line of ${requestId} matching ${message} on ${broker.url}`,
    async () => linesWithId(broker, requestId).find((line) => message.test(String(line.message))) ?? null,
    5_000,
  );

describe('request ids across brokers', () => {
  it('follows a forwarded produce and a forwarded topic creation into the other broker logs', async () => {
    const [status1, status2] = await Promise.all(cluster.brokers.map((broker) => cluster.status(broker)));
    const controllerIndex = status1?.is_controller ? 0 : status2?.is_controller ? 1 : -1;
    expect(controllerIndex).toBeGreaterThanOrEqual(0);
    const controller = cluster.brokers[controllerIndex];
    const other = cluster.brokers[1 - controllerIndex];

    const created = await call(other.url, 'POST', `/v3/clusters/${cid}/topics`, {
      headers: { 'x-request-id': 'trace-create-1' },
      body: { topic_name: 'traced', partitions_count: 2, replication_factor: 1 },
    });
    expect(created.status, created.text).toBe(201);
    await logged(other, 'trace-create-1', /^POST \/v3\/clusters\/:cluster_id\/topics 201/);
    await logged(controller, 'trace-create-1', /^POST \/internal\/v1\/controller\/commands 2\d\d/);

    // partitions 0 and 1 are led by different brokers: produce each through the broker that does not lead it
    const partitions = await call(other.url, 'GET', '/topics/traced/partitions');
    for (const { partition, leader } of partitions.body as Array<{ partition: number; leader: number }>) {
      const leaderBroker = cluster.broker(leader);
      const through = cluster.brokers.find((broker) => broker !== leaderBroker)!;
      const requestId = `trace-produce-${partition}`;
      const produced = await call(through.url, 'POST', `/v3/clusters/${cid}/topics/traced/records`, {
        headers: { 'x-request-id': requestId },
        body: { partition_id: partition, value: { type: 'STRING', data: 'hello' } },
      });
      expect(produced.status, produced.text).toBe(200);
      expect(produced.headers.get('x-request-id')).toBe(requestId);
      await logged(through, requestId, /^POST \/v3\/clusters\/:cluster_id\/topics\/:topic_name\/records 200/);
      await logged(leaderBroker, requestId, /^POST \/internal\/v1\/partitions\/:topic\/:partition\/records 2\d\d/);
    }
  });

  it('follows a consumer-group request forwarded to the group coordinator', async () => {
    // the same group through both brokers: one of them is not its coordinator and forwards
    for (const [index, broker] of cluster.brokers.entries()) {
      const requestId = `trace-group-${index}`;
      // retried while the new offsets topic's coordinator is loading (503), as a client does
      const created = await waitUntil(
        `consumer c${index} created`,
        async () => {
          const answer = await call(broker.url, 'POST', '/consumers/g-traced', {
            headers: { 'x-request-id': requestId },
            body: { name: `c${index}`, format: 'binary' },
            contentType: 'application/vnd.kafka.v2+json',
          });
          return answer.status === 503 ? null : answer;
        },
        15_000,
      );
      expect(created.status, created.text).toBe(200);
      await logged(broker, requestId, /^POST \/consumers\/:group_name 200/);
    }
    const coordinators = cluster.brokers.filter((broker) =>
      [0, 1].every((index) =>
        linesWithId(broker, `trace-group-${index}`).some((line) => String(line.message).startsWith('POST /consumers')),
      ),
    );
    // the coordinator logged both requests: the one it got and the one forwarded to it, under the client's ids
    expect(coordinators).toHaveLength(1);
  });

  it('does not lend a request id to the background work it sets off (follower fetches of a new topic)', async () => {
    const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${cid}/topics`, {
      headers: { 'x-request-id': 'trace-create-2' },
      body: { topic_name: 'traced-replicated', partitions_count: 1, replication_factor: 2 },
    });
    expect(created.status, created.text).toBe(201);
    const fetches = () =>
      cluster.brokers.flatMap((broker) =>
        `${broker.stdout}`.split('\n').filter((line) => line.includes('replica-fetch 200')),
      );
    await waitUntil('follower fetches of the new topic', async () => fetches().length >= 3, 10_000);
    expect(fetches().filter((line) => line.includes('trace-create-2'))).toEqual([]);
  });
});
