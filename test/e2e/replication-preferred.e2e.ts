// Preferred-leader election (auto.leader.rebalance.enable) on three brokers and a real redis-server: after a
// failover and the preferred replica's return to the ISR, the controller gives it its leadership back with a new
// leader epoch, and nothing acknowledged is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster, waitUntil } from './support/cluster.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3, { ...REPLICATION_ENV, BROOK_LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: '1' });
});

afterAll(async () => {
  await cluster?.stop();
});

describe('preferred-leader election', () => {
  it('moves leadership back to the preferred replica once it is in sync again', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'preferred');
    const preferredId = (await topic.view(cluster.brokers[0]))!.leader; // a new topic is led by its first replica
    const preferred = cluster.broker(preferredId);
    expect(await topic.produce(preferred, 'a')).toMatchObject({ ok: true, offset: 0 });
    await preferred.kill('SIGKILL');
    const otherId = await topic.waitForLeader(preferredId, 20_000);
    expect(await topic.produceRetrying(cluster.broker(otherId), 'b')).toMatchObject({ ok: true, offset: 1 });
    await preferred.restart();
    await waitUntil(
      'the preferred replica leads again',
      async () =>
        (await topic.view(preferred))?.leader === preferredId && (await topic.replica(preferred)).role === 'leader',
      30_000,
    );
    expect((await topic.replica(preferred)).leader_epoch).toBe(2);
    expect(await topic.produceRetrying(preferred, 'c')).toMatchObject({ ok: true, offset: 2 });
    const { bytes } = await topic.healedReplicas(20_000);
    expect(bytes.every((replica) => replica.equals(bytes[0]))).toBe(true);
    expect([...(await topic.readAll(preferred)).values()]).toEqual(['a', 'b', 'c']);
  });
});
