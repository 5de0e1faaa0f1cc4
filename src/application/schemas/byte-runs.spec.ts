// copyRun against Buffer#copy: runs of every length around its thresholds, at every alignment of both buffers,
// ending with their buffer or not, with the DataViews it keeps switching between buffers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyRun } from './byte-runs.js';

describe('copyRun', () => {
  it('copies what Buffer#copy copies, and answers the end', () => {
    const sources = [0, 1, 2, 3].map((shift) => {
      const memory = Buffer.alloc(2200 + shift);
      for (let i = 0; i < memory.length; i++) memory[i] = (i * 37 + shift) & 0xff;
      return memory.subarray(shift);
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.nat(40),
        fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1000, max: 1100 })),
        fc.nat(3),
        fc.nat(40),
        fc.boolean(),
        (from, start, length, shift, toAt, atEnd) => {
          // a run that ends with its buffer, or one with bytes after it
          const at = atEnd ? from.length - length : start;
          const to = Buffer.alloc(shift + 1200, 0xee).subarray(shift);
          const expected = Buffer.from(to);
          from.copy(expected, toAt, at, at + length);
          expect(copyRun(from, at, at + length, to, toAt)).toBe(toAt + length);
          expect(to.equals(expected)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
