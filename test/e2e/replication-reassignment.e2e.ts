// Partition reassignment and on-demand leader election on four brokers and a real redis-server (issue 7):
//   - a partition with data on [a, b, c], led by a, moved to [b, c, d] while acks=all production goes on: the new
//     replica d catches up and joins the ISR, leadership moves off a with a new leader epoch, a drops its replica
//     and deletes its files; every acknowledged record is readable after, and the replicas are byte-identical up
//     to the high watermark;
//   - the reassignment routes answer Confluent's shapes and refuse bad requests with Confluent-style errors; a
//     cancellation goes back to the original replicas;
//   - PREFERRED and UNCLEAN elections answer per partition with Kafka's error names; UNCLEAN elects an out-of-sync
//     replica once no ISR member is alive;
//   - deleting a topic removes every replica's folder, also on a broker that was down during the deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerProcess } from './support/broker-process.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call, expectError } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';
import {
  ELECTIONS,
  REASSIGNMENTS,
  hasReplicaFolder,
  partitionReplicas,
  reassign,
  waitForReassignment,
} from './support/reassignment.js';

const RECORDS = 300;

let cluster: TestCluster;

/** Whether the broker wrote an audit line (stdout, one JSON object) for an admin change on a route ending in `route`. */
function auditLines(broker: BrokerProcess, route: string): boolean {
  return broker.stdout
    .split('\n')
    .some(
      (line) =>
        line.includes('"audit":true') && line.includes(`/partitions/-/${route}"`) && line.includes('"event":"admin"'),
    );
}
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(4, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

async function createTopic(name: string, replicationFactor = 3, partitions = 1): Promise<ReplicatedTopic> {
  const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${clusterId}/topics`, {
    body: {
      topic_name: name,
      partitions_count: partitions,
      replication_factor: replicationFactor,
      configs: [{ name: 'min.insync.replicas', value: '2' }],
    },
  });
  expect(created.status, created.text).toBe(201);
  const topic = new ReplicatedTopic(cluster, clusterId, name);
  await waitUntil(
    `${name} fully in sync`,
    async () => (await partitionReplicas(cluster.brokers[0], clusterId, name)).isr.length === replicationFactor,
    15_000,
  );
  return topic;
}

describe('partition reassignment', () => {
  it('moves a partition with data from [a,b,c] to [b,c,d]: the leader moves, a deletes its files', async () => {
    const topic = await createTopic('moved');
    const before = await partitionReplicas(cluster.brokers[0], clusterId, 'moved');
    const leader = before.leader!;
    const added = [1, 2, 3, 4].find((broker) => !before.replicas.includes(broker))!;
    const target = [...before.replicas.filter((broker) => broker !== leader), added];
    for (let i = 0; i < RECORDS; i++) {
      expect(await topic.produceRetrying(cluster.broker(leader), `record-${i}-${'x'.repeat(200)}`)).toMatchObject({
        ok: true,
        offset: i,
      });
    }
    expect(hasReplicaFolder(cluster.broker(leader), 'moved')).toBe(true);
    const epochBefore = (await topic.replica(cluster.broker(leader))).leader_epoch;

    // acks=all production goes on through a broker that stays, while the partition moves
    const staying = cluster.broker(target[0]);
    const acknowledged = new Map<string, number>();
    const failures: string[] = [];
    let stopping = false;
    const producer = (async () => {
      for (let sequence = 0; !stopping; sequence++) {
        const result = await topic.produceRetrying(staying, `during-${sequence}`);
        if (result.ok) acknowledged.set(`during-${sequence}`, result.offset);
        else failures.push(`${result.status} ${result.errorCode} ${result.message}`);
      }
    })();

    const started = await reassign(cluster.brokers[1], clusterId, [
      { topic_name: 'moved', partition_id: 0, replicas: target },
    ]);
    expect(started.status, started.text).toBe(202);
    await waitUntil(
      'an audit line for the reassignment',
      async () => auditLines(cluster.brokers[1], 'reassignment'),
      5_000,
    );
    expect(started.body).toMatchObject({
      kind: 'KafkaReassignmentList',
      data: [
        {
          kind: 'KafkaReassignment',
          topic_name: 'moved',
          partition_id: 0,
          adding_replicas: [added],
          removing_replicas: [leader],
          target_replicas: target,
        },
      ],
    });

    const after = await waitForReassignment(() => cluster.brokers[0], clusterId, 'moved', target, 45_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopping = true;
    await producer;
    expect(target).toContain(after.leader);
    await waitUntil(
      'the removed replica deletes its folder',
      async () => !hasReplicaFolder(cluster.broker(leader), 'moved'),
      15_000,
    );
    for (const broker of target) expect(hasReplicaFolder(cluster.broker(broker), 'moved')).toBe(true);

    const newLeader = cluster.broker(after.leader!);
    expect((await topic.replica(newLeader)).leader_epoch).toBeGreaterThan(epochBefore);
    const highWatermark = await waitUntil(
      'every target replica at the high watermark',
      async () => {
        const views = await Promise.all(target.map((broker) => topic.replica(cluster.broker(broker))));
        const hw = views.find((view) => view.role === 'leader')?.high_watermark;
        return hw !== undefined && views.every((view) => view.log_end_offset === hw && view.high_watermark === hw)
          ? hw
          : null;
      },
      15_000,
    );
    expect(highWatermark).toBeGreaterThanOrEqual(RECORDS + acknowledged.size);
    // a new leader's high watermark catches up once its followers fetch (as in Kafka): read once it has
    const values = await topic.readAll(cluster.broker(added));
    for (let i = 0; i < RECORDS; i++) expect(values.get(i)).toBe(`record-${i}-${'x'.repeat(200)}`);
    const lost = [...acknowledged].filter(([value, offset]) => values.get(offset) !== value).length;
    console.log(
      `reassignment under production: acknowledged ${acknowledged.size}, failed ${failures.length}, lost ${lost}` +
        (failures.length > 0 ? `\n  ${failures.slice(0, 5).join('\n  ')}` : ''),
    );
    expect(lost).toBe(0);
    expect(acknowledged.size).toBeGreaterThan(0);

    const bytes = await Promise.all(target.map((broker) => topic.replicaBytes(cluster.broker(broker), highWatermark)));
    expect(bytes.every((replica) => replica.equals(bytes[0]))).toBe(true);
    expect(await topic.produceRetrying(newLeader, 'after')).toMatchObject({ ok: true, offset: highWatermark });
  });

  it('answers Confluent shapes and errors, and a cancellation goes back to the original replicas', async () => {
    // the broker paused below must not be the controller: a topic that leaves out another broker
    const controllerId = (await cluster.controllers())[0].broker_id;
    let name = '';
    for (let attempt = 0; name === ''; attempt++) {
      await createTopic(`checked-${attempt}`);
      const { replicas } = await partitionReplicas(cluster.brokers[0], clusterId, `checked-${attempt}`);
      if (replicas.includes(controllerId)) name = `checked-${attempt}`;
    }
    const through = cluster.broker(controllerId); // never the paused broker
    const base = `/v3/clusters/${clusterId}/topics`;
    const bad = async (partitions: unknown, status: number, code: number, message?: RegExp) => {
      const answer = await call(through.url, 'POST', `${base}/-/partitions/-/reassignment`, {
        body: { partitions },
        spec: REASSIGNMENTS,
      });
      expectError(answer, status, code, message);
    };
    await bad([{ topic_name: 'nope', partition_id: 0, replicas: [1] }], 404, 40401);
    await bad([{ topic_name: name, partition_id: 7, replicas: [1] }], 404, 40402);
    await bad([{ topic_name: name, partition_id: 0, replicas: [] }], 400, 40002, /empty/);
    await bad([{ topic_name: name, partition_id: 0, replicas: [1, 1, 2] }], 400, 40002, /twice/);
    await bad([{ topic_name: name, partition_id: 0, replicas: [1, 2, 9] }], 400, 40002, /not registered/);
    await bad([{ topic_name: name, partition_id: 0, replicas: ['a'] }], 400, 40002);
    await bad([], 400, 40002);
    await bad([{ topic_name: name, partition_id: 0, replicas: null }], 404, 404, /No reassignment/);
    const none = await call(through.url, 'GET', `${base}/${name}/partitions/0/reassignment`, {
      spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/reassignment',
    });
    expectError(none, 404, 404);
    const emptyList = await call(through.url, 'GET', `${base}/-/partitions/-/reassignment`, { spec: REASSIGNMENTS });
    expect(emptyList.body).toMatchObject({ kind: 'KafkaReassignmentList', data: [] });

    // a target that cannot catch up (its broker paused) stays in progress and can be cancelled
    const original = (await partitionReplicas(through, clusterId, name)).replicas;
    const added = [1, 2, 3, 4].find((broker) => !original.includes(broker))!;
    const paused = cluster.broker(added);
    paused.signal('SIGSTOP');
    try {
      const target = [added, ...original.slice(1)];
      expect(
        (await reassign(through, clusterId, [{ topic_name: name, partition_id: 0, replicas: target }])).status,
      ).toBe(202);
      const one = await call(through.url, 'GET', `${base}/${name}/partitions/0/reassignment`, {
        spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/reassignment',
      });
      expect(one.status, one.text).toBe(200);
      expect(one.body).toMatchObject({
        kind: 'KafkaReassignment',
        cluster_id: clusterId,
        adding_replicas: [added],
        removing_replicas: [original[0]],
      });
      expect(one.body.replicas.related).toMatch(/\/partitions\/0\/replicas$/);
      const ofTopic = await call(through.url, 'GET', `${base}/${name}/partitions/-/reassignment`, {
        spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/-/reassignment',
      });
      expect(ofTopic.body.data).toHaveLength(1);
      await waitUntil(
        'the target replica added to the assignment',
        async () => (await partitionReplicas(through, clusterId, name)).replicas.length === 4,
        10_000,
      );
      const cancelled = await reassign(through, clusterId, [{ topic_name: name, partition_id: 0, replicas: null }]);
      expect(cancelled.status, cancelled.text).toBe(202);
      // the answer shows the partition as it is when answered: still moving back (the added replica being removed),
      // or already back, the controller having completed the cancellation in the meantime
      expect(cancelled.body.data[0]).toMatchObject({ adding_replicas: [], target_replicas: original });
      expect([[added], []]).toContainEqual(cancelled.body.data[0].removing_replicas);
      await waitForReassignment(() => through, clusterId, name, original, 20_000);
    } finally {
      paused.signal('SIGCONT');
    }
    await waitUntil('the paused broker drops its replica', async () => !hasReplicaFolder(paused, name), 20_000);
  });
});

describe('leader election', () => {
  it('PREFERRED moves leadership to the first replica; otherwise answers ELECTION_NOT_NEEDED', async () => {
    await createTopic('elected');
    const through = cluster.brokers[1];
    const { replicas, leader } = await partitionReplicas(through, clusterId, 'elected');
    expect(leader).toBe(replicas[0]);
    // reorder the replicas: a new preferred leader, no data moves
    const reordered = [replicas[1], replicas[0], replicas[2]];
    expect(
      (await reassign(through, clusterId, [{ topic_name: 'elected', partition_id: 0, replicas: reordered }])).status,
    ).toBe(202);
    await waitForReassignment(() => through, clusterId, 'elected', reordered, 20_000);
    expect((await partitionReplicas(through, clusterId, 'elected')).leader).toBe(replicas[0]);

    const elect = (body: unknown) =>
      call(through.url, 'POST', `/v3/clusters/${clusterId}/topics/-/partitions/-/leader-election`, {
        body,
        spec: ELECTIONS,
      });
    const partitions = [{ topic_name: 'elected', partition_id: 0 }];
    const first = await elect({ election_type: 'PREFERRED', partitions });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      kind: 'KafkaLeaderElectionResultList',
      data: [
        { topic_name: 'elected', partition_id: 0, election_type: 'PREFERRED', leader_id: reordered[0], error: null },
      ],
    });
    await waitUntil(
      'the preferred replica leads',
      async () => (await partitionReplicas(through, clusterId, 'elected')).leader === reordered[0],
      10_000,
    );
    await waitUntil('an audit line for the election', async () => auditLines(through, 'leader-election'), 5_000);
    const again = await elect({ election_type: 'PREFERRED', partitions });
    expect(again.body.data[0]).toMatchObject({ leader_id: reordered[0], error: 'ELECTION_NOT_NEEDED' });
    const unclean = await elect({ election_type: 'UNCLEAN', partitions });
    expect(unclean.body.data[0]).toMatchObject({ error: 'ELECTION_NOT_NEEDED' });
    const unknown = await elect({ election_type: 'PREFERRED', partitions: [{ topic_name: 'nope', partition_id: 0 }] });
    expect(unknown.body.data[0]).toMatchObject({ error: 'UNKNOWN_TOPIC_OR_PARTITION', leader_id: null });
    const all = await elect({ election_type: 'PREFERRED' });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    expectError(await elect({ election_type: 'SOMETIMES' }), 400, 40002, /election_type/);
    const topic = new ReplicatedTopic(cluster, clusterId, 'elected');
    expect(await topic.produceRetrying(cluster.broker(reordered[0]), 'led')).toMatchObject({ ok: true, offset: 0 });
  });
});

describe('unclean leader election', () => {
  it('UNCLEAN elects a live out-of-sync replica only once no ISR member is alive', async () => {
    // an RF=2 topic away from the controller: its leader a is killed while its follower b, paused, is out of the ISR
    const controllerId = (await cluster.controllers())[0].broker_id;
    let name = '';
    for (let attempt = 0; name === ''; attempt++) {
      const candidate = `unclean-${attempt}`;
      await createTopic(candidate, 2);
      const { replicas } = await partitionReplicas(cluster.brokers[0], clusterId, candidate);
      if (!replicas.includes(controllerId)) name = candidate;
    }
    const through = cluster.broker(controllerId);
    const { replicas, leader } = await partitionReplicas(through, clusterId, name);
    const [a, b] = [leader!, replicas.find((broker) => broker !== leader)!];
    const topic = new ReplicatedTopic(cluster, clusterId, name);
    const elect = (electionType: string) =>
      call(through.url, 'POST', `/v3/clusters/${clusterId}/topics/-/partitions/-/leader-election`, {
        body: { election_type: electionType, partitions: [{ topic_name: name, partition_id: 0 }] },
        spec: ELECTIONS,
      });
    cluster.broker(b).signal('SIGSTOP');
    try {
      await waitUntil(
        `the ISR of ${name} down to its leader`,
        async () => (await partitionReplicas(through, clusterId, name)).isr.join(',') === String(a),
        15_000,
      );
      expect((await elect('UNCLEAN')).body.data[0]).toMatchObject({ leader_id: a, error: 'ELECTION_NOT_NEEDED' });
      await cluster.broker(a).kill('SIGKILL');
      await waitUntil(
        `${name} offline`,
        async () => (await partitionReplicas(through, clusterId, name)).leader === null,
        15_000,
      );
    } finally {
      cluster.broker(b).signal('SIGCONT');
    }
    await waitUntil(
      `broker ${b} registered again`,
      async () => (await call(through.url, 'GET', `/v3/clusters/${clusterId}/brokers/${b}`)).status === 200,
      15_000,
    );
    if (replicas[0] === a) {
      expect((await elect('PREFERRED')).body.data[0]).toMatchObject({ error: 'PREFERRED_LEADER_NOT_AVAILABLE' });
    }
    const unclean = await elect('UNCLEAN');
    expect(unclean.status, unclean.text).toBe(200);
    expect(unclean.body.data[0]).toMatchObject({ leader_id: b, error: null });
    await waitUntil(
      `broker ${b} leads`,
      async () => (await partitionReplicas(through, clusterId, name)).leader === b,
      10_000,
    );
    // the ISR is [b] alone, below min.insync.replicas=2: acks=1 produce works, acks=all is refused
    expect(await topic.produceRetrying(cluster.broker(b), 'after an unclean election', '1')).toMatchObject({
      ok: true,
    });
    await cluster.broker(a).restart();
  });
});

describe('topic deletion', () => {
  it("removes every replica's folder, also on a broker that was down during the deletion", async () => {
    const topic = await createTopic('deleted');
    const { replicas } = await partitionReplicas(cluster.brokers[0], clusterId, 'deleted');
    expect(await topic.produceRetrying(cluster.broker(replicas[0]), 'gone soon')).toMatchObject({ ok: true });
    // the broker that is down is not the controller (a deletion needs one), the broker asked is not down
    const controllerId = (await cluster.controllers())[0].broker_id;
    const downId = replicas.filter((broker) => broker !== controllerId).at(-1)!;
    const down = cluster.broker(downId);
    await down.kill('SIGKILL');
    const through = cluster.broker(replicas.find((broker) => broker !== downId)!);
    const deleted = await call(through.url, 'DELETE', `/v3/clusters/${clusterId}/topics/deleted`);
    expect(deleted.status, deleted.text).toBe(204);
    await waitUntil(
      'the live replicas delete their folders',
      async () =>
        replicas
          .filter((broker) => broker !== downId)
          .every((broker) => !hasReplicaFolder(cluster.broker(broker), 'deleted')),
      15_000,
    );
    expect(hasReplicaFolder(down, 'deleted')).toBe(true);
    await down.restart();
    await waitUntil('the returning broker deletes its folder', async () => !hasReplicaFolder(down, 'deleted'), 15_000);
  });
});
