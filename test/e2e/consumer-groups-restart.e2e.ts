// Consumer groups end to end against a broker process, over time: committed offsets, instances and subscribed
// members survive a kill -9 of the broker (a new instance resumes after the commits), and an instance idle past
// consumer.instance.timeout.ms is evicted (its partitions move, its commits are rejected).
import { describe, expect, it } from 'vitest';
import { createTopicAt } from './support/broker-helpers.js';
import { brokerForSuite } from './support/broker-process.js';
import { expectError } from './support/http.js';
import { produceValues, V2Consumer, valueText, waitForAssignment, type V2Record } from './support/v2-consumer.js';

const GROUP_ENV = {
  BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '200',
  BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '5',
};

describe('consumer groups across a kill -9', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });

  it('keeps committed offsets and instances; a new instance resumes from the committed offset', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'durable', 1);
    await produceValues(
      suite.url,
      'durable',
      Array.from({ length: 10 }, (_, i) => `d${i}`),
      0,
    );
    const first = await V2Consumer.create(suite.url, 'durable-group', 'first', {
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    await first.call('POST', '/assignments', { partitions: [{ topic: 'durable', partition: 0 }] });
    const records = await first.poll(500, 10); // max_bytes 10: the first record (8 bytes of key and value) only
    expect(records.length).toBeGreaterThan(0);
    const last = records[records.length - 1];
    expect((await first.commit([{ topic: 'durable', partition: 0, offset: last.offset }])).status).toBe(200);

    await suite.broker.restart('SIGKILL');

    const survived = await first.call('GET', '/assignments');
    expect(survived.status, survived.text).toBe(200);
    expect(survived.body.partitions).toEqual([{ topic: 'durable', partition: 0 }]);
    const second = await V2Consumer.create(suite.url, 'durable-group', 'second', { 'auto.offset.reset': 'earliest' });
    await second.call('POST', '/assignments', { partitions: [{ topic: 'durable', partition: 0 }] });
    const resumed = await second.poll(1_000);
    expect(resumed[0].offset).toBe(last.offset + 1);
    expect(resumed.map(valueText)).toEqual(
      Array.from({ length: 10 - last.offset - 1 }, (_, i) => `d${last.offset + 1 + i}`),
    );
  });

  it('a subscribed group is restored with its members and resumes after its commits', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'restored', 2);
    await produceValues(suite.url, 'restored', ['a', 'b', 'c', 'd']);
    const member = await V2Consumer.create(suite.url, 'restored-group', 'm', {
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    await member.subscribe(['restored']);
    await waitForAssignment(member, (p) => p.length === 2);
    const consumed: V2Record[] = [];
    while (consumed.length < 4) consumed.push(...(await member.poll(200)));
    expect((await member.commitReturned()).status).toBe(200);

    await suite.broker.restart('SIGKILL');

    expect(await waitForAssignment(member, (p) => p.length === 2)).toEqual(['restored-0', 'restored-1']);
    await produceValues(suite.url, 'restored', ['e']);
    const after = await member.poll(2_000);
    expect(after.map(valueText)).toEqual(['e']);
  });
});

describe('idle consumer instances', () => {
  const suite = brokerForSuite({ env: { ...GROUP_ENV, BROOK_CONSUMER_INSTANCE_TIMEOUT_MS: '2000' } });

  it('evicts an instance idle past consumer.instance.timeout.ms; its partitions move and its commits are rejected', async () => {
    await createTopicAt(suite.url, suite.clusterId, 'idle', 4);
    const [busy, idle] = await Promise.all(
      ['busy', 'idle'].map((name) =>
        V2Consumer.create(suite.url, 'idle-group', name, { 'auto.commit.enable': 'false' }),
      ),
    );
    await busy.subscribe(['idle']);
    await idle.subscribe(['idle']);
    await Promise.all([busy, idle].map((c) => waitForAssignment(c, (p) => p.length === 2)));
    const deadline = Date.now() + 10_000;
    let moved: string[] = [];
    while (Date.now() < deadline && moved.length !== 4) {
      await busy.poll(300); // keeps busy alive; idle is never touched
      moved = await busy.assignment();
    }
    expect(moved).toEqual(['idle-0', 'idle-1', 'idle-2', 'idle-3']);
    expectError(await idle.commit([{ topic: 'idle', partition: 0, offset: 0 }]), 404, 40403);
    await busy.delete();
  });
});
