// Producer ids stay unique when the coordination store loses everything (a real redis-server, FLUSHALL): each
// broker takes blocks of ids from a counter in Redis, and remembers the highest block it took or saw in its data dir
// and registration. After the flush the counter is back at nothing; the controller that restores the store raises
// it above every live broker's block, and brokers take no block before: every id handed out after the flush is
// above every id handed out before, whichever broker took the highest block (brokers that restarted after the
// flush take new blocks; a broker still running goes on with its block). And when the broker that took the highest
// block is down for the whole flush and restore: every block is kept by every live broker before its ids are
// handed out, so the restore raises the counter above it all the same.
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

async function flushAll(): Promise<void> {
  const redis = new Redis(cluster.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    expect(await redis.flushall()).toBe('OK');
  } finally {
    redis.disconnect();
  }
}

const blockOf = (id: number) => Math.floor(id / 1000);

/** Takes ids from a broker until one comes from a block other than its current one; every id goes into `used`. */
async function idOfNextBlock(brokerIndex: number, used: number[]): Promise<number> {
  const start = await producerId(brokerIndex);
  used.push(start);
  const current = blockOf(start);
  for (let i = 0; i < 1000; i += 10) {
    const ids = await Promise.all(Array.from({ length: 10 }, () => producerId(brokerIndex)));
    used.push(...ids);
    const next = ids.filter((id) => blockOf(id) !== current);
    if (next.length > 0) return Math.min(...next);
  }
  throw new Error(`broker ${brokerIndex + 1} took no new block in 1000 ids`);
}

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
    await flushAll();
    // brokers 1 and 2 restart (their blocks in memory are gone) and take new blocks from the emptied counter
    await cluster.brokers[0].restart('SIGKILL');
    await cluster.brokers[1].restart('SIGKILL');
    const after = [await producerId(0), await producerId(1), await producerId(0)];
    for (const id of after) expect(id).toBeGreaterThan(Math.max(...before));
    // broker 3 goes on with the rest of its block: still no id twice
    const all = [...before, ...after, await producerId(2)];
    expect(new Set(all).size).toBe(all.length);
  });

  it('never reuses the block of a broker that was down while the store was restored', async () => {
    // brokers 1 and 2 hold blocks; broker 3 starts afresh and takes two new blocks, the highest (the restore's
    // raise alone skips the block just above what the live brokers know); then it stops
    const earlier = [await producerId(0), await producerId(1)];
    await cluster.brokers[2].restart('SIGKILL');
    const taken: number[] = [];
    const first = await idOfNextBlock(2, taken);
    const highest = blockOf(first);
    expect(highest).toBeGreaterThanOrEqual(Math.max(...earlier.map(blockOf)) + 2);
    for (const id of earlier) expect(blockOf(id)).toBeLessThan(highest);
    await cluster.brokers[2].kill('SIGKILL');
    await flushAll();
    // brokers 1 and 2 use up their blocks and take new ones from the counter the restore raised
    const used: number[] = [];
    const after = [await idOfNextBlock(0, used), await idOfNextBlock(1, used)];
    for (const id of after) expect(blockOf(id)).toBeGreaterThan(highest);
    // broker 3 comes back: its next id comes from a new block, and no id was handed out twice
    await cluster.brokers[2].restart('SIGKILL');
    const back = await producerId(2);
    expect(blockOf(back)).toBeGreaterThan(highest);
    const all = [...taken, ...earlier, ...used, back];
    expect(new Set(all).size).toBe(all.length);
  });
});
