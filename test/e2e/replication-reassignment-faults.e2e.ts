// The controller killed (kill -9) in the middle of a partition reassignment (issue 7's fault suite): four brokers,
// a real redis-server, RF=3, min.insync.replicas=2, data in the partition. The reassignment moves the partition off
// the controller's broker onto the fourth broker, which is paused (SIGSTOP) so that it cannot catch up: the
// reassignment is persisted and half done (the assignment has all four replicas) when the controller dies. A new
// controller is elected, the paused broker resumes (SIGCONT), and the new controller completes the reassignment:
// replicas = target, every acknowledged record readable, the new replica byte-identical up to the high watermark,
// and the killed broker deletes its leftover replica when it returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';
import { hasReplicaFolder, partitionReplicas, reassign, waitForReassignment } from './support/reassignment.js';

const RECORDS = 200;
const BROKERS = [1, 2, 3, 4];

let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(4, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  for (const broker of cluster?.brokers ?? []) broker.signal('SIGCONT');
  await cluster?.stop();
});

describe('reassignment faults', () => {
  it('the controller killed in the middle of a reassignment: the new controller completes it', async () => {
    const controllerId = (await cluster.controllers())[0].broker_id;
    const controller = cluster.broker(controllerId);
    const others = () => cluster.brokers.filter((broker) => broker !== controller && broker.child !== null);
    // a topic with a replica on the controller's broker (placement is random: try names until one has)
    let name = '';
    for (let attempt = 0; name === ''; attempt++) {
      const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${clusterId}/topics`, {
        body: {
          topic_name: `mid-${attempt}`,
          partitions_count: 1,
          replication_factor: 3,
          configs: [{ name: 'min.insync.replicas', value: '2' }],
        },
      });
      expect(created.status, created.text).toBe(201);
      const { replicas } = await partitionReplicas(cluster.brokers[0], clusterId, `mid-${attempt}`);
      if (replicas.includes(controllerId)) name = `mid-${attempt}`;
    }
    const topic = new ReplicatedTopic(cluster, clusterId, name);
    const before = await waitUntil(
      `${name} in sync`,
      async () => {
        const partition = await partitionReplicas(cluster.brokers[0], clusterId, name);
        return partition.isr.length === 3 ? partition : null;
      },
      15_000,
    );
    const acknowledged = new Map<number, string>();
    for (let i = 0; i < RECORDS; i++) {
      const result = await topic.produceRetrying(cluster.broker(before.leader!), `r${i}`);
      expect(result.ok).toBe(true);
      if (result.ok) acknowledged.set(result.offset, `r${i}`);
    }
    const added = BROKERS.find((broker) => !before.replicas.includes(broker))!;
    const target = [...before.replicas.filter((broker) => broker !== controllerId), added];

    // the new replica cannot catch up while paused, so the reassignment stays in the middle
    const paused = cluster.broker(added);
    // a broker that answers throughout: neither the controller nor the paused one
    const through = cluster.broker(target.find((broker) => broker !== added)!);
    paused.signal('SIGSTOP');
    try {
      const started = await reassign(controller, clusterId, [{ topic_name: name, partition_id: 0, replicas: target }]);
      expect(started.status, started.text).toBe(202);
      await waitUntil(
        'the assignment extended to the target',
        async () => (await partitionReplicas(controller, clusterId, name)).replicas.length === 4,
        10_000,
      );
      const inFlight = await call(
        controller.url,
        'GET',
        `/v3/clusters/${clusterId}/topics/-/partitions/-/reassignment`,
      );
      expect(inFlight.body.data).toEqual([
        expect.objectContaining({ topic_name: name, adding_replicas: [added], removing_replicas: [controllerId] }),
      ]);
      // as Kafka (REASSIGNMENT_IN_PROGRESS): no new partitions while the assignment is being moved
      const grow = await call(controller.url, 'PATCH', `/v3/clusters/${clusterId}/topics/${name}`, {
        body: { partitions_count: 2 },
      });
      expect(grow.status, grow.text).toBe(409);
      expect(grow.body.error_code).toBe(40901);

      await controller.kill('SIGKILL');
      const successor = await waitUntil(
        'a new controller',
        async () => (await cluster.controllers(others()))[0] ?? null,
        20_000,
      );
      expect(successor.broker_id).not.toBe(controllerId);
      // the persisted reassignment outlived its controller
      const stillThere = await call(
        through.url,
        'GET',
        `/v3/clusters/${clusterId}/topics/${name}/partitions/-/reassignment`,
      );
      expect(stillThere.body.data).toHaveLength(1);
    } finally {
      paused.signal('SIGCONT');
    }

    const done = await waitForReassignment(() => through, clusterId, name, target, 45_000);
    expect(target).toContain(done.leader);
    const leader = cluster.broker(done.leader!);
    const highWatermark = await waitUntil(
      'the target replicas at the high watermark',
      async () => {
        const views = await Promise.all(
          target.map((broker) => topic.replica(cluster.broker(broker)).catch(() => null)),
        );
        const hw = views.find((view) => view?.role === 'leader')?.high_watermark;
        return hw !== undefined && views.every((view) => view?.log_end_offset === hw && view.high_watermark === hw)
          ? hw
          : null;
      },
      20_000,
    );
    expect(highWatermark).toBe(RECORDS);
    const values = await topic.readAll(leader);
    let lost = 0;
    for (const [offset, value] of acknowledged) if (values.get(offset) !== value) lost++;
    const bytes = await Promise.all(target.map((broker) => topic.replicaBytes(cluster.broker(broker), highWatermark)));
    const divergent = bytes.filter((replica) => !replica.equals(bytes[0])).length;
    console.log(
      `reassignment across a controller kill: acknowledged ${acknowledged.size}, read ${values.size}, lost ${lost}, divergent replicas ${divergent}`,
    );
    expect({ lost, divergent, read: values.size }).toEqual({ lost: 0, divergent: 0, read: RECORDS });

    // the killed broker is no longer a replica: it deletes its leftover copy when it returns
    expect(hasReplicaFolder(controller, name)).toBe(true);
    await controller.restart();
    await waitUntil(
      'the returning broker deletes its old replica',
      async () => !hasReplicaFolder(controller, name),
      15_000,
    );
  });
});
