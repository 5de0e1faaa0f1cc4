// Unknown produce outcomes said as such (issue 16), on three brokers and a real redis-server (RF 3,
// min.insync.replicas=2): a client must know which failures it may retry blindly.
//   - acks=all whose in-sync replicas never answer (both followers paused): the records were appended, so the
//     answer is 503 50003 with Brook-Outcome: unknown over v3, `"outcome": "unknown"` in v2's offsets[] entry and
//     in the WebSocket error frame;
//   - a forwarded produce whose leader refuses the connection (killed, still registered): nothing was sent, 40404
//     without the marker, and the record never shows;
//   - a forwarded produce whose connection to the leader breaks after the request went out (the leader paused,
//     then killed): 503 50003 with Brook-Outcome: unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { TestCluster } from './support/cluster.js';
import { waitForFullIsr } from './support/fault-checks.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';
import { WsClient } from './support/ws-client.js';
import { call } from './support/http.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
});

afterAll(async () => {
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  outcome: string | null;
  body: { error_code?: number; message?: string; offset?: number };
}

async function produceV3(topic: ReplicatedTopic, through: BrokerProcess, value: string): Promise<Answer> {
  const response = await call<Answer['body']>(
    through.url,
    'POST',
    `/v3/clusters/${topic.clusterId}/topics/${topic.name}/records`,
    { body: { partition_id: 0, value: { type: 'STRING', data: value } } },
  );
  return { status: response.status, outcome: response.headers.get('brook-outcome'), body: response.body };
}

async function leaderAndOthers(topic: ReplicatedTopic) {
  const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
  const leader = cluster.broker(leaderId);
  return { leader, others: cluster.brokers.filter((broker) => broker !== leader) };
}

describe('produce outcomes (RF 3, min.insync.replicas=2)', () => {
  it('answers an acks=all wait that cannot complete as an unknown outcome, over v3, v2 and WebSocket', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'unanswered');
    const { leader, others } = await leaderAndOthers(topic);
    const socket = await WsClient.connect(leader.url);
    for (const follower of others) follower.signal('SIGSTOP');
    try {
      const [v3, v2, ws] = await Promise.all([
        produceV3(topic, leader, 'v3'),
        call<{ offsets: Array<Record<string, unknown>> }>(leader.url, 'POST', `/topics/${topic.name}/partitions/0`, {
          contentType: 'application/vnd.kafka.json.v2+json',
          body: { records: [{ value: 'v2' }] },
        }).then((response) => response.body),
        socket.request(
          { op: 'produce', id: 'ws', topic: topic.name, records: [{ value: 'ws', partition: 0 }] },
          30_000,
        ),
      ]);
      expect(v3).toMatchObject({ status: 503, outcome: 'unknown', body: { error_code: 50003 } });
      expect(v2.offsets[0]).toMatchObject({ error_code: 50003, outcome: 'unknown', offset: null });
      expect(ws).toMatchObject({ op: 'error', id: 'ws', error_code: 50003, outcome: 'unknown' });
    } finally {
      for (const follower of others) follower.signal('SIGCONT');
      socket.close();
    }
    // healed, the partition takes acks=all records again
    await waitForFullIsr(cluster, topic.name, 1, 30_000);
    const answer = await produceV3(topic, leader, 'after');
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
  });

  it('keeps 40404 without the marker when the leader refused the connection: nothing was sent', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'refused');
    const { leader, others } = await leaderAndOthers(topic);
    await leader.kill('SIGKILL'); // still registered for up to a session: the others forward to it
    const answer = await produceV3(topic, others[0], 'never-sent');
    expect(answer).toMatchObject({ status: 404, outcome: null, body: { error_code: 40404 } });
    expect(answer.body.message).toMatch(/not reachable/);
    await leader.restart();
    await waitForFullIsr(cluster, topic.name, 1, 30_000);
    expect([...(await topic.readAll(others[0])).values()]).not.toContain('never-sent');
  });

  it('answers an unknown outcome when the connection to the leader broke after the request was sent', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'broken');
    const { leader, others } = await leaderAndOthers(topic);
    leader.signal('SIGSTOP');
    const pending = produceV3(topic, others[0], 'sent');
    await sleep(500); // the forwarded request is in the paused leader's socket
    await leader.kill('SIGKILL');
    const answer = await pending;
    expect(answer).toMatchObject({ status: 503, outcome: 'unknown', body: { error_code: 50003 } });
    expect(answer.body.message).toMatch(/outcome unknown/);
    await leader.restart();
    await waitForFullIsr(cluster, topic.name, 1, 30_000);
  });
});
