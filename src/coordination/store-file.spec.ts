// The store file's chunks built from per-entry parts must join to exactly serializeSnapshot's text (the file's definition),
// for any keys, values (quotes, backslashes, control and non-ASCII characters), versions and counters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareCoordinationKeys } from './coordination-store.js';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';
import { entryFileText, serializeSnapshot, storeFileChunks } from './store-file.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 2_000 : 200;
const textArb = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', 'é', '😀'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
  ),
});

describe('storeFileChunks', () => {
  it('cuts a large store into chunks of about 32 K characters, together its serializeSnapshot text', () => {
    const entries = Array.from({ length: 3_000 }, (_, i) => ({
      key: `brook/partition-state/t/${String(i).padStart(5, '0')}`,
      value: JSON.stringify({ leader: 1, leaderEpoch: i, isr: [1] }),
      version: 1 + (i % 7),
    }));
    const chunks = [...storeFileChunks(entries.map(entryFileText), [{ key: 'c', value: 3 }])];
    expect(chunks.join('')).toBe(serializeSnapshot({ entries, counters: [{ key: 'c', value: 3 }] }));
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(33_000);
  });

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
          const chunks = [...storeFileChunks(entries.map(entryFileText), counters)];
          expect(chunks.join('')).toBe(serializeSnapshot({ entries, counters }));
          expect(chunks.every((chunk) => chunk.length > 0)).toBe(true);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('entryFileText', () => {
  // the store keeps each persistent entry's part (one per partition state: 10,000 on S1's broker)
  it('keeps one flat string alive per entry, not a tree of its pieces', () => {
    const value = JSON.stringify({ leader: 1, leaderEpoch: 3, isr: [1], isrBrokerEpochs: { 1: 5 }, version: 4 });
    const each = retainedBytesEach(10_000, (i) =>
      entryFileText({ key: `brook/partition-state/s1-${String(i % 100).padStart(3, '0')}/${i}`, value, version: i }),
    );
    // about 16 bytes of header and one byte a character (~170 characters); a template literal's tree kept ~480
    expect(each).toBeLessThan(300);
  });
});
