import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUCER_ID_BLOCK_SIZE, ProducerIdBlocks, type ProducerIdBlockPorts } from './producer-id-blocks.js';

/** A counter store that may lose its data (a Redis restart) and brokers' data dirs that keep theirs. */
class World {
  counter = 0;
  private readonly saved = new Map<number, number>();

  ports(broker: number): ProducerIdBlockPorts {
    return {
      raiseCounterAbove: (floor) => Promise.resolve((this.counter = Math.max(this.counter, floor) + 1)),
      loadHighestBlock: () => Promise.resolve(this.saved.get(broker) ?? 0),
      saveHighestBlock: (block) => {
        this.saved.set(broker, block);
        return Promise.resolve();
      },
    };
  }
}

describe('ProducerIdBlocks', () => {
  it('hands out the ids of one block before it takes the next', async () => {
    const world = new World();
    const blocks = new ProducerIdBlocks(world.ports(0));
    const ids = [];
    for (let i = 0; i < PRODUCER_ID_BLOCK_SIZE + 1; i++) ids.push(await blocks.allocate());
    expect(ids.slice(0, 3)).toEqual([0, 1, 2]);
    expect(ids[PRODUCER_ID_BLOCK_SIZE]).toBe(PRODUCER_ID_BLOCK_SIZE);
    expect(world.counter).toBe(2);
  });

  it('concurrent callers share one block request and get distinct ids', async () => {
    const world = new World();
    const blocks = new ProducerIdBlocks(world.ports(0));
    const ids = await Promise.all(Array.from({ length: 50 }, () => blocks.allocate()));
    expect(new Set(ids).size).toBe(50);
    expect(world.counter).toBe(1);
  });

  it('no id is handed out twice by one broker across restarts of the broker and losses of the counter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.constant('allocate' as const), fc.constant('restart' as const), fc.constant('lose' as const)),
          {
            maxLength: 60,
          },
        ),
        async (steps) => {
          const world = new World();
          let blocks = new ProducerIdBlocks(world.ports(0));
          const seen = new Set<number>();
          for (const step of steps) {
            if (step === 'restart') blocks = new ProducerIdBlocks(world.ports(0));
            else if (step === 'lose') world.counter = 0;
            else {
              // a restart wastes the rest of a block: take a few ids, sometimes a whole block
              for (let i = 0; i < 3; i++) {
                const id = await blocks.allocate();
                expect(seen.has(id)).toBe(false);
                seen.add(id);
              }
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('brokers sharing the counter never get the same block', async () => {
    const world = new World();
    const a = new ProducerIdBlocks(world.ports(0));
    const b = new ProducerIdBlocks(world.ports(1));
    const ids = await Promise.all([a.allocate(), b.allocate(), a.allocate(), b.allocate()]);
    expect(new Set(ids).size).toBe(4);
    expect(Math.floor(ids[0] / PRODUCER_ID_BLOCK_SIZE)).not.toBe(Math.floor(ids[1] / PRODUCER_ID_BLOCK_SIZE));
  });
});
