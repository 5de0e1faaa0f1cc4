// Brook Console on a 3-broker cluster (real redis-server, real brokers) in a real headless Chromium: the Overview
// shows every broker alive with its incarnation, the controller and its epoch as the status route says; a topic
// with replication factor 3 shows an ISR of 3 and each partition's size; a follower killed with SIGKILL leaves
// the ISR on the open topic page, and the Overview (also left open) counts the partition under-replicated and the
// broker down, both without a reload.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, screenshot } from './support/browser.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

let cluster: TestCluster;
let browser: Browser;
let topic: ReplicatedTopic;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
  topic = await ReplicatedTopic.create(cluster, cluster.brokers[0], 'replicated');
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
});

async function status() {
  return (
    await call(cluster.brokers[0].url, 'GET', `/v3/clusters/${topic.clusterId}/status`, {
      spec: '/v3/clusters/{cluster_id}/status',
    })
  ).body;
}

/** The ISR the page shows for partition 0, sorted, and whether it marks the partition under-replicated. */
async function shownIsr(page: Page): Promise<string> {
  const text = (await page.getByTestId('isr-0').textContent()) ?? '';
  const ids = (text.match(/\d+/g) ?? []).map(Number).sort((a, b) => a - b);
  return `${ids.join(',')}${text.includes('under-replicated') ? ' under-replicated' : ''}`;
}

async function openPage(hash: string): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(`${cluster.brokers[0].url}/console/#${hash}`);
  return page;
}

describe('the console on a 3-broker cluster', () => {
  it('shows the ISR shrinking when a follower is killed, on the open topic page and Overview', async () => {
    const produced = await call(
      cluster.brokers[0].url,
      'POST',
      `/v3/clusters/${topic.clusterId}/topics/replicated/records`,
      {
        body: { value: { type: 'JSON', data: { replicated: true } } },
      },
    );
    expect(produced.status).toBe(200);
    const before = await status();
    expect(before.brokers.map((broker: { alive: boolean }) => broker.alive)).toEqual([true, true, true]);

    const overview = await openPage('/');
    await expect.poll(() => overview.getByTestId('brokers-alive').textContent()).toBe('3 of 3');
    expect(await overview.getByTestId('controller').textContent()).toBe(`broker ${before.controller.broker_id}`);
    expect(await overview.getByTestId('controller-epoch').textContent()).toBe(String(before.controller.epoch));
    for (const broker of before.brokers)
      expect(await overview.getByTestId(`broker-epoch-${broker.broker_id}`).textContent()).toBe(
        String(broker.broker_epoch),
      );
    await expect.poll(() => overview.getByTestId('under-replicated').textContent()).toBe('0');

    const page = await openPage('/topics/replicated');
    await expect.poll(() => shownIsr(page), { timeout: 10_000 }).toBe('1,2,3');
    await expect.poll(() => page.getByTestId('size-0').textContent()).toMatch(/\d+ B$/);
    expect(await page.getByTestId('records-0').textContent()).toBe('1');

    const leader = (await topic.view(cluster.brokers[0]))!.leader;
    const victim = [2, 3].find((id) => id !== leader)!;
    await cluster.broker(victim).kill('SIGKILL');
    const remaining = [1, 2, 3].filter((id) => id !== victim).join(',');
    await expect.poll(() => shownIsr(page), { timeout: 20_000 }).toBe(`${remaining} under-replicated`);
    await expectAccessible(page, 'topic with a shrunk ISR');
    await screenshot(page, 'isr-shrunk');

    await expect.poll(() => overview.getByTestId('under-replicated').textContent(), { timeout: 10_000 }).toBe('1');
    await waitUntil(
      'the killed broker reported down',
      async () => {
        const now = await status();
        return now.brokers.find((broker: { broker_id: number }) => broker.broker_id === victim)?.alive === false;
      },
      15_000,
    );
    await expect.poll(() => overview.getByTestId('brokers-alive').textContent(), { timeout: 10_000 }).toBe('2 of 3');
    await overview.getByTestId(`broker-${victim}`).getByText('down').waitFor();
    await expectAccessible(overview, 'overview of a cluster with a broker down');
    await screenshot(overview, 'overview-cluster');
  }, 90_000);
});
