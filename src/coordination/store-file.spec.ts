// The store file's text built from per-entry parts must be exactly serializeSnapshot's (the file's definition),
// for any keys, values (quotes, backslashes, control and non-ASCII characters), versions and counters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareCoordinationKeys } from './coordination-store.js';
import { entryFileText, serializeSnapshot, storeFileText } from './store-file.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 2_000 : 200;
const textArb = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', 'é', '😀'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
  ),
});

describe('storeFileText', () => {
  it('is serializeSnapshot of the same entries and counters', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ key: textArb, value: textArb, version: fc.integer({ min: 1 }) }), {
          selector: (entry) => entry.key,
          maxLength: 8,
        }),
        fc.uniqueArray(fc.record({ key: textArb, value: fc.integer({ min: 0 }) }), {
          selector: (counter) => counter.key,
          maxLength: 4,
        }),
        (unsortedEntries, unsortedCounters) => {
          const entries = [...unsortedEntries].sort((a, b) => compareCoordinationKeys(a.key, b.key));
          const counters = [...unsortedCounters].sort((a, b) => compareCoordinationKeys(a.key, b.key));
          expect(storeFileText(entries.map(entryFileText), counters)).toBe(serializeSnapshot({ entries, counters }));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
