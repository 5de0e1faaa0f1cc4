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
      replicateBlock: () => Promise.resolve(),
    };
  }
}

/**
 * Brokers of a cluster whose store may lose the counter while some of them are down. Each keeps the highest block
 * it took or was sent in its data dir (`kept`) and publishes it while up; a broker that takes a block has every
 * other live broker keep it (when `replicate`), and the controller that restores an emptied store raises the
 * counter above what the live brokers keep, as cluster-controller.service.ts does.
 */
class Cluster {
  counter = 0;
  readonly kept: number[];
  readonly up: boolean[];

  constructor(
    brokers: number,
    private readonly replicate: boolean,
  ) {
    this.kept = new Array<number>(brokers).fill(0);
    this.up = new Array<boolean>(brokers).fill(true);
  }

  ports(broker: number): ProducerIdBlockPorts {
    const live = () => this.kept.filter((_, other) => this.up[other]);
    return {
      raiseCounterAbove: (floor) => Promise.resolve((this.counter = Math.max(this.counter, floor) + 1)),
      loadHighestBlock: () => Promise.resolve(Math.max(this.kept[broker], ...live())),
      saveHighestBlock: (block) => {
        this.kept[broker] = Math.max(this.kept[broker], block);
        return Promise.resolve();
      },
      replicateBlock: (block) => {
        if (!this.replicate) return Promise.resolve();
        this.kept.forEach((_, other) => {
          if (this.up[other]) this.kept[other] = Math.max(this.kept[other], block);
        });
        return Promise.resolve();
      },
    };
  }

  /** Redis came back empty; a live broker's controller restores it. */
  wipeAndRestore(): void {
    this.counter = 0;
    const floor = Math.max(0, ...this.kept.filter((_, broker) => this.up[broker]));
    if (floor > 0) this.counter = floor;
  }
}

type ClusterStep =
  { kind: 'allocate'; broker: number; ids: number } | { kind: 'stop' | 'start'; broker: number } | { kind: 'wipe' };

const clusterStep: fc.Arbitrary<ClusterStep> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('allocate' as const),
      broker: fc.integer({ min: 0, max: 2 }),
      ids: fc.constantFrom(1, 3, PRODUCER_ID_BLOCK_SIZE),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), broker: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('start' as const), broker: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wipe' as const) }) },
);

/** Runs the steps; returns whether some id was handed out twice. */
async function handsOutTwice(steps: ClusterStep[], replicate: boolean): Promise<boolean> {
  const cluster = new Cluster(3, replicate);
  const blocks = [0, 1, 2].map((broker) => new ProducerIdBlocks(cluster.ports(broker)));
  const seen = new Set<number>();
  for (const step of steps) {
    if (step.kind === 'wipe') {
      // a restore needs a live broker to act as controller
      if (cluster.up.some((up) => up)) cluster.wipeAndRestore();
    } else if (step.kind === 'stop') {
      // one broker down at a time: a restore then always has a live broker that was up when each block was taken
      // (with every broker that kept a block down, nothing can tell the restore of it)
      if (cluster.up.every((up) => up)) cluster.up[step.broker] = false;
    } else if (step.kind === 'start') {
      if (!cluster.up[step.broker]) blocks[step.broker] = new ProducerIdBlocks(cluster.ports(step.broker));
      cluster.up[step.broker] = true;
    } else if (step.kind === 'allocate' && cluster.up[step.broker]) {
      for (let i = 0; i < step.ids; i++) {
        const id = await blocks[step.broker].allocate();
        if (seen.has(id)) return true;
        seen.add(id);
      }
    }
  }
  return false;
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

  it('no id twice across brokers when the broker that took the highest block is down while Redis is restored', async () => {
    // the case itself: broker 2 takes the highest block and stops; Redis is wiped and restored; broker 0 goes on
    const steps: ClusterStep[] = [
      { kind: 'allocate', broker: 0, ids: 1 },
      { kind: 'allocate', broker: 2, ids: 1 },
      { kind: 'stop', broker: 2 },
      { kind: 'wipe' },
      { kind: 'allocate', broker: 1, ids: 1 },
      { kind: 'start', broker: 2 },
    ];
    expect(await handsOutTwice(steps, false)).toBe(true);
    expect(await handsOutTwice(steps, true)).toBe(false);
    await fc.assert(
      fc.asyncProperty(fc.array(clusterStep, { maxLength: 40 }), async (random) => {
        expect(await handsOutTwice(random, true)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
