// Three brokers and a real redis-server: election, the internal routes' secret, topics created through any
// broker, produce and read through brokers that do not lead, a broker leaving and returning, duplicate ids,
// and controller failover by kill -9 and by SIGSTOP (fencing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import {
  HEARTBEAT_INTERVAL_MS,
  postRetrying503,
  SECRET_HEADER,
  SESSION_TIMEOUT_MS,
  TestCluster,
  waitUntil,
} from './support/cluster.js';

/** A failover takes the lease TTL plus a heartbeat to notice, plus scheduling slack on a busy machine. */
const FAILOVER_MS_MAX = SESSION_TIMEOUT_MS + HEARTBEAT_INTERVAL_MS * 2 + 5_000;

let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3);
  clusterId = await cluster.brokers[0].clusterId();
});

afterAll(async () => {
  await cluster?.stop();
});

function topicsPath(): string {
  return `/v3/clusters/${clusterId}/topics`;
}

async function createTopic(through: BrokerProcess, name: string, partitions: number): Promise<void> {
  const created = await postRetrying503(through.url, topicsPath(), {
    topic_name: name,
    partitions_count: partitions,
    replication_factor: 1,
  });
  expect(created.status, created.text).toBe(201);
}

async function leaders(through: BrokerProcess, topic: string): Promise<number[]> {
  const answer = await call(through.url, 'GET', `/topics/${topic}/partitions`);
  return (answer.body as Array<{ partition: number; leader: number }>).map((p) => p.leader);
}

async function produce(through: BrokerProcess, topic: string, partition: number, value: string) {
  return call(through.url, 'POST', `${topicsPath()}/${topic}/records`, {
    body: { partition_id: partition, value: { type: 'STRING', data: value } },
  });
}

async function readValues(through: BrokerProcess, topic: string, partition: number): Promise<string[]> {
  const answer = await call(
    through.url,
    'GET',
    `${topicsPath()}/${topic}/partitions/${partition}/records?offset=0&format=string`,
  );
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.records as Array<{ value: string }>).map((record) => record.value);
}

describe('a cluster of three brokers on Redis', () => {
  it('elects exactly one controller, which every broker names', async () => {
    const [controller] = await waitUntil(
      'a controller',
      async () => {
        const found = await cluster.controllers();
        return found.length === 1 ? found : null;
      },
      FAILOVER_MS_MAX,
    );
    for (const broker of cluster.brokers) {
      const answer = await call(broker.url, 'GET', `/v3/clusters/${clusterId}`);
      expect(answer.body.controller.related).toMatch(new RegExp(`/brokers/${controller.broker_id}$`));
      const brokers = await call(broker.url, 'GET', '/brokers');
      expect(brokers.body.brokers).toEqual([1, 2, 3]);
    }
  });

  it('refuses the internal routes without the cluster secret, and changes nothing', async () => {
    const target = cluster.brokers[0];
    const command = {
      op: 'create-topic',
      request: { name: 'forged', partitions: 1, replicationFactor: 1, configs: [] },
    };
    const attempts: Array<Record<string, string>> = [{}, { [SECRET_HEADER]: 'wrong-secret-wrong-secret' }];
    for (const headers of attempts) {
      const forged = await call(target.url, 'POST', '/internal/v1/controller/commands', { headers, body: command });
      expect(forged.status).toBe(401);
      expect(forged.body.error_code).toBe(40101);
      const status = await call(target.url, 'GET', '/internal/v1/status', { headers });
      expect(status.status).toBe(401);
    }
    for (const broker of cluster.brokers) {
      expect((await call(broker.url, 'GET', `${topicsPath()}/forged`)).status).toBe(404);
    }
  });

  it('creates a topic through any broker, and every broker sees it', async () => {
    const controllerId = (await cluster.controllers())[0].broker_id;
    const other = cluster.brokers.find((_, index) => index + 1 !== controllerId)!;
    await createTopic(other, 'through-follower', 3);
    for (const broker of cluster.brokers) {
      await waitUntil(
        'the topic on every broker',
        async () => (await leaders(broker, 'through-follower')).length === 3,
        5_000,
      );
    }
    expect([...(await leaders(cluster.brokers[0], 'through-follower'))].sort()).toEqual([1, 2, 3]);
  });

  it('produces and reads through brokers that do not lead the partition', async () => {
    await createTopic(cluster.brokers[0], 'routed', 3);
    const leaderOf = await leaders(cluster.brokers[0], 'routed');
    for (let partition = 0; partition < 3; partition++) {
      const leader = leaderOf[partition];
      const via = cluster.brokers.filter((_, index) => index + 1 !== leader);
      const produced = await produce(via[0], 'routed', partition, `p${partition}-a`);
      expect(produced.status, produced.text).toBe(200);
      expect(produced.body.offset).toBe(0);
      expect((await produce(via[1], 'routed', partition, `p${partition}-b`)).body.offset).toBe(1);
      expect(await readValues(via[1], 'routed', partition)).toEqual([`p${partition}-a`, `p${partition}-b`]);
      expect(await readValues(via[0], 'routed', partition)).toEqual([`p${partition}-a`, `p${partition}-b`]);
      const offsets = await call(via[0].url, 'GET', `/topics/routed/partitions/${partition}/offsets`);
      expect(offsets.body).toEqual({ beginning_offset: 0, end_offset: 2 });
    }
  });

  it('refuses to start a second broker with a live broker id', async () => {
    await expect(cluster.startBroker(2)).rejects.toThrow(/broker id 2 is already registered/);
  });

  it("takes a killed broker's partitions offline, and back when it returns", async () => {
    const controllerId = (await cluster.controllers())[0].broker_id;
    const victimId = [1, 2, 3].find((id) => id !== controllerId)!;
    const victim = cluster.broker(victimId);
    const witness = cluster.broker(controllerId);
    const partition = (await leaders(witness, 'routed')).indexOf(victimId);
    await victim.kill('SIGKILL');
    await waitUntil(
      'the partition offline',
      async () => (await leaders(witness, 'routed'))[partition] === -1,
      FAILOVER_MS_MAX,
    );
    const refused = await produce(witness, 'routed', partition, 'while-down');
    expect(refused.status).toBe(404);
    expect(refused.body.error_code).toBe(40404);
    const brokers = await call(witness.url, 'GET', '/brokers');
    expect(brokers.body.brokers).not.toContain(victimId);

    await victim.restart();
    await waitUntil(
      'the partition led again',
      async () => (await leaders(witness, 'routed'))[partition] === victimId,
      FAILOVER_MS_MAX,
    );
    await waitUntil(
      'produce accepted again',
      async () => (await produce(witness, 'routed', partition, 'back')).status === 200,
      5_000,
    );
    expect(await readValues(witness, 'routed', partition)).toEqual([`p${partition}-a`, `p${partition}-b`, 'back']);
  });

  it('elects a new controller with a higher epoch after kill -9 of the controller', async () => {
    const [before] = await cluster.controllers();
    const victim = cluster.broker(before.broker_id);
    await victim.kill('SIGKILL');
    const killedAt = performance.now();
    const others = cluster.brokers.filter((broker) => broker !== victim);
    const [after] = await waitUntil(
      'a new controller',
      async () => {
        const found = await cluster.controllers(others);
        return found.length === 1 ? found : null;
      },
      FAILOVER_MS_MAX,
    );
    expect(performance.now() - killedAt).toBeLessThan(FAILOVER_MS_MAX);
    expect(after.broker_id).not.toBe(before.broker_id);
    expect(after.controller_epoch).toBeGreaterThan(before.controller_epoch);
    await createTopic(others[0], 'after-failover', 1);
    await victim.restart();
  });

  it('refuses a metadata push stamped with an older controller epoch', async () => {
    const [current] = await cluster.controllers();
    for (const broker of cluster.brokers) {
      const status = await waitUntil(
        'the broker knows the current epoch',
        async () => {
          const found = await cluster.status(broker);
          return found !== null && found.highest_controller_epoch_seen >= current.controller_epoch ? found : null;
        },
        HEARTBEAT_INTERVAL_MS * 2 + 2_000,
      );
      const stale = await call(broker.url, 'POST', '/internal/v1/metadata/updates', {
        headers: { [SECRET_HEADER]: cluster.secret },
        body: { controller_epoch: current.controller_epoch - 1 },
      });
      expect(stale.status).toBe(409);
      expect((stale.body as { message: string }).message).toContain(
        `has seen epoch ${status.highest_controller_epoch_seen}`,
      );
    }
  });

  it('fences a controller paused past its lease: it resigns, and nothing is written under its epoch', async () => {
    const [before] = await cluster.controllers();
    const paused = cluster.broker(before.broker_id);
    const others = cluster.brokers.filter((broker) => broker !== paused);
    paused.signal('SIGSTOP');
    try {
      // Sent while it sleeps: handled only when it wakes, after another broker took over.
      const pending = call(paused.url, 'POST', topicsPath(), {
        body: { topic_name: 'from-the-paused-controller', partitions_count: 1, replication_factor: 1 },
      });
      const [successor] = await waitUntil(
        'a successor',
        async () => {
          const found = await cluster.controllers(others);
          return found.length === 1 ? found : null;
        },
        FAILOVER_MS_MAX,
      );
      expect(successor.controller_epoch).toBeGreaterThan(before.controller_epoch);
      paused.signal('SIGCONT');
      const answer = await pending;
      // Either refused by the woken broker itself, or forwarded to the successor once it knew it had lost the
      // lease; never written with the old epoch.
      if (answer.status === 201) {
        const snapshot = await call<{
          topics: Array<{ assignment: { name: string }; states: Array<{ controllerEpoch: number }> }>;
        }>(others[0].url, 'GET', '/internal/v1/metadata-snapshot', { headers: { [SECRET_HEADER]: cluster.secret } });
        const topics = snapshot.body.topics;
        const written = topics.find((topic) => topic.assignment.name === 'from-the-paused-controller');
        expect(written?.states[0].controllerEpoch).toBe(successor.controller_epoch);
      } else {
        expect(answer.status).toBe(503);
      }
      const status = await waitUntil('the paused broker answers', () => cluster.status(paused), 5_000);
      expect(status.is_controller).toBe(false);
      expect(status.highest_controller_epoch_seen).toBeGreaterThanOrEqual(before.controller_epoch);
      const controllers = await cluster.controllers();
      expect(controllers.map((c) => c.broker_id)).toEqual([successor.broker_id]);
    } finally {
      paused.signal('SIGCONT');
    }
  });

  it('stops a broker paused past its session whose id another broker process registered meanwhile', async () => {
    const stale = cluster.brokers[2];
    stale.signal('SIGSTOP');
    let usurper: BrokerProcess | null = null;
    try {
      // started with the same id once the paused one's registration has lapsed (it waits for that by itself)
      usurper = await cluster.startBroker(3);
      stale.signal('SIGCONT');
      const exit = await stale.exited(10_000);
      expect(exit.code).toBe(1);
      expect(stale.stderr).toMatch(/broker id 3 is now registered by another broker process/);
      const status = await cluster.status(usurper);
      expect(status?.broker_id).toBe(3);
    } finally {
      stale.signal('SIGCONT');
      await usurper?.stop();
    }
    await stale.restart();
    await waitUntil('broker 3 back', () => cluster.status(stale), 15_000);
  });
});
