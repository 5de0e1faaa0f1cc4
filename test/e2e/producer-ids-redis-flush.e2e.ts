// Producer ids stay unique when the coordination store loses everything (a real redis-server, FLUSHALL): each
// broker takes blocks of ids from a counter in Redis, and remembers the highest block it took or saw in its data dir
// and registration. After the flush the counter is back at nothing; the controller that restores the store raises
// it above every live broker's block, and brokers take no block before: every id handed out after the flush is
// above every id handed out before, whichever broker took the highest block (brokers that restarted after the
// flush take new blocks; a broker still running goes on with its block).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRetrying503, SESSION_TIMEOUT_MS, TestCluster, waitUntil } from './support/cluster.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.start(3);
});

afterAll(async () => {
  await cluster?.stop();
});

async function producerId(brokerIndex: number): Promise<number> {
  const broker = cluster.brokers[brokerIndex];
  const cid = await broker.clusterId();
  const answer = await postRetrying503(broker.url, `/v3/clusters/${cid}/producers`, {}, SESSION_TIMEOUT_MS * 6);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.producer_id as number;
}

describe('producer-id blocks across a Redis FLUSHALL', () => {
  it('never hands out an id twice: blocks after the flush are above every block taken before', async () => {
    await waitUntil('a controller', async () => (await cluster.controllers()).length === 1, SESSION_TIMEOUT_MS * 3);
    // brokers 1, 2, 3 take blocks 1, 2, 3 in turn: the highest is broker 3's, and broker 1 knows only its own
    const before = [await producerId(0), await producerId(1), await producerId(2)];
    expect(new Set(before.map((id) => Math.floor(id / 1000))).size).toBe(3);
    const redis = new Redis(cluster.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      expect(await redis.flushall()).toBe('OK');
    } finally {
      redis.disconnect();
    }
    // brokers 1 and 2 restart (their blocks in memory are gone) and take new blocks from the emptied counter
    await cluster.brokers[0].restart('SIGKILL');
    await cluster.brokers[1].restart('SIGKILL');
    const after = [await producerId(0), await producerId(1), await producerId(0)];
    for (const id of after) expect(id).toBeGreaterThan(Math.max(...before));
    // broker 3 goes on with the rest of its block: still no id twice
    const all = [...before, ...after, await producerId(2)];
    expect(new Set(all).size).toBe(all.length);
  });
});
