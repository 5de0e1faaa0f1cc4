import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedBuffer } from './bounded-buffer';

describe('BoundedBuffer', () => {
  it('keeps the newest `capacity` items in order and counts the dropped ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.array(fc.nat(), { maxLength: 30 })),
        (capacity, batches) => {
          const buffer = new BoundedBuffer<number>(capacity);
          let kept: readonly number[] = [];
          for (const batch of batches) kept = buffer.push(batch);
          const all = batches.flat();
          expect(kept).toEqual(all.slice(Math.max(0, all.length - capacity)));
          expect(buffer.dropped).toBe(Math.max(0, all.length - capacity));
        },
      ),
    );
  });

  it('refuses a capacity that is no positive integer', () => {
    expect(() => new BoundedBuffer(0)).toThrow(/positive integer/);
  });
});
