// Replication metrics on three brokers and a real redis-server: an RF=3 topic is produced to and read, then a
// follower is killed with kill -9. The leader's under-replicated gauge goes to 1 once the follower has lagged for
// replica.lag.time.max.ms and its ISR shrinks counter moves; restarted, the follower catches up, the expands counter
// moves and the gauge returns to 0. The active controller counts the partitions of an RF=1 topic on the dead follower as offline until it returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { metricValue, scrapeMetrics } from './support/prometheus.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

let cluster: TestCluster;

beforeAll(async () => {
  // a dead broker's session outlasts replica.lag.time.max.ms: the leader, not the controller, drops the follower
  cluster = await TestCluster.start(3, { ...REPLICATION_ENV, BROOK_BROKER_SESSION_TIMEOUT_MS: '6000' });
});
afterAll(async () => {
  await cluster?.stop();
});

describe('replication metrics', () => {
  it('under-replicated partitions, ISR shrinks and expands follow a follower killed and restarted', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'watched');
    for (let i = 0; i < 5; i++) expect((await topic.produce(cluster.brokers[i % 3], `before-${i}`)).ok).toBe(true);
    const leaderId = (await topic.view(cluster.brokers[0]))!.leader;
    const leader = cluster.broker(leaderId);
    const followerId = [1, 2, 3].find((id) => id !== leaderId)!;
    // an RF=1 topic spread over the brokers: the follower's partitions go offline while it is down
    const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${topic.clusterId}/topics`, {
      body: { topic_name: 'lonely', partitions_count: 3, replication_factor: 1 },
    });
    expect(created.status, created.text).toBe(201);
    const lonely = await call(cluster.brokers[0].url, 'GET', '/topics/lonely/partitions');
    const onFollower = (lonely.body as Array<{ leader: number }>).filter((p) => p.leader === followerId).length;
    expect(onFollower).toBeGreaterThan(0);
    const read = await topic.readAll(cluster.broker(followerId));
    expect(read.size).toBe(5);

    const before = await scrapeMetrics(leader.url);
    expect(metricValue(before, 'brook_replication_under_replicated_partitions')).toBe(0);
    const shrinksBefore = metricValue(before, 'brook_isr_shrinks_total');
    const expandsBefore = metricValue(before, 'brook_isr_expands_total');
    const controllerUrl = async () => {
      const [controller] = await cluster.controllers(topic.running());
      return controller === undefined ? null : cluster.broker(controller.broker_id).url;
    };
    const offline = async () =>
      metricValue(
        await scrapeMetrics((await waitUntil('a controller', controllerUrl, 15_000))!),
        'brook_controller_offline_partitions',
      );
    expect(await offline()).toBe(0);

    await cluster.broker(followerId).kill('SIGKILL');
    const killedAt = performance.now();
    const underReplicated = await waitUntil(
      'the leader reports the partition under-replicated',
      async () => {
        const samples = await scrapeMetrics(leader.url);
        return metricValue(samples, 'brook_replication_under_replicated_partitions') === 1 ? samples : null;
      },
      20_000,
    );
    const lagMs = Number(REPLICATION_ENV.BROOK_REPLICA_LAG_TIME_MAX_MS);
    expect(performance.now() - killedAt).toBeGreaterThanOrEqual(lagMs * 0.9);
    expect(metricValue(underReplicated, 'brook_isr_shrinks_total')).toBe(shrinksBefore + 1);
    expect(metricValue(underReplicated, 'brook_isr_expands_total')).toBe(expandsBefore);
    for (let i = 0; i < 3; i++) expect((await topic.produce(leader, `during-${i}`)).ok).toBe(true);
    await waitUntil(
      'the controller reports the partitions offline',
      async () => (await offline()) === onFollower,
      20_000,
    );

    await cluster.broker(followerId).restart();
    const healed = await waitUntil(
      'the leader reports the partition fully replicated again',
      async () => {
        const samples = await scrapeMetrics(leader.url);
        return metricValue(samples, 'brook_replication_under_replicated_partitions') === 0 ? samples : null;
      },
      30_000,
    );
    expect(metricValue(healed, 'brook_isr_expands_total')).toBe(expandsBefore + 1);
    expect(metricValue(healed, 'brook_isr_shrinks_total')).toBe(shrinksBefore + 1);
    expect((await topic.readAll(cluster.broker(followerId))).size).toBe(8);
    await waitUntil('the controller reports no partition offline', async () => (await offline()) === 0, 20_000);
    console.log(
      `replication metrics: shrinks ${shrinksBefore} -> ${metricValue(healed, 'brook_isr_shrinks_total')}, ` +
        `expands ${expandsBefore} -> ${metricValue(healed, 'brook_isr_expands_total')}, under-replicated 0 -> 1 -> 0, offline partitions 0 -> ${onFollower} -> 0`,
    );
  });
});
