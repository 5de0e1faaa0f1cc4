import { describe, expect, it } from 'vitest';
import { forEachBounded } from './bounded-concurrency.js';

describe('forEachBounded', () => {
  it('runs every item, never more than the limit at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachBounded([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 8 - item));
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('lets every item run when one fails, then rejects with the first failure', async () => {
    const done: number[] = [];
    const run = forEachBounded([1, 2, 3, 4], 2, async (item) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (item === 2) throw new Error('two');
      if (item === 3) throw new Error('three');
      done.push(item);
    });
    await expect(run).rejects.toThrow('two');
    expect(done.sort()).toEqual([1, 4]);
  });

  it('takes any iterable, an empty one included, and refuses a limit below one', async () => {
    const seen: string[] = [];
    await forEachBounded(
      new Map([
        ['a', 1],
        ['b', 2],
      ]).keys(),
      8,
      async (key) => {
        seen.push(key);
      },
    );
    expect(seen).toEqual(['a', 'b']);
    await forEachBounded([], 1, async () => undefined);
    await expect(forEachBounded([1], 0, async () => undefined)).rejects.toThrow(RangeError);
  });
});
