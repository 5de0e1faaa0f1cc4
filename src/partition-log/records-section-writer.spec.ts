// The records section written in place (RecordsSectionWriter) against encodeBatch of the same records: keys and
// values of random lengths around the varint boundaries (63/64, 8191/8192 bytes), so that the lengths' reserved
// places are too small or too large and the bytes move, and values given up and written again (abandonField).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBatch, frameSpansBatch, type RecordInput } from './record-batch-builder.js';
import { BATCH_HEADER_BYTES } from './record-batch-layout.js';
import { RecordsSectionWriter } from './records-section-writer.js';

const T0 = 1_700_000_000_000;

const length = fc.oneof(
  fc.constant(-1),
  fc.integer({ min: 0, max: 70 }),
  fc.integer({ min: 8185, max: 8200 }),
  fc.integer({ min: 0, max: 300 }),
);
const field = length.map((n) => (n < 0 ? null : Buffer.alloc(n, n % 251)));
const records = fc.array(fc.record({ key: field, value: field, abandoned: fc.boolean() }), {
  minLength: 1,
  maxLength: 30,
});

/** Writes the fields with the writer as a produce encoder does; answers the batch and each field's place. */
function written(fields: Array<{ key: Buffer | null; value: Buffer | null; abandoned: boolean }>, expected: number) {
  const writer = new RecordsSectionWriter(expected);
  const places: Array<[number, number]> = [];
  const write = (bytes: Buffer | null, slot: 0 | 1, abandoned: boolean): [number, number] => {
    if (bytes === null) {
      writer.nullField();
      return [writer.at, -1];
    }
    if (abandoned) {
      // a first try that writes something, then gives up
      writer.beginField(slot);
      writer.ensure(9);
      writer.data.fill(0xee, writer.at, writer.at + 9);
      writer.at += 9;
      writer.abandonField();
    }
    const start = writer.beginField(slot);
    writer.ensure(bytes.length);
    writer.at += bytes.copy(writer.data, writer.at);
    return [writer.endField(start), bytes.length];
  };
  fields.forEach(({ key, value, abandoned }, i) => {
    writer.beginRecord(i);
    const keyPlace = write(key, 0, false);
    const valuePlace = write(value, 1, abandoned);
    const moved = writer.endRecord();
    places.push([keyPlace[0] + moved, keyPlace[1]], [valuePlace[0] + moved, valuePlace[1]]);
  });
  return { batch: frameSpansBatch(writer.data, writer.at, fields.length, T0), places };
}

describe('RecordsSectionWriter', () => {
  it('writes the records section encodeBatch writes, each field where it says, whatever the buffer expected', () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 0, max: 20_000 }), (fields, expected) => {
        const { batch, places } = written(fields, expected);
        const inputs: RecordInput[] = fields.map(({ key, value }) => ({ key, value, timestamp: T0 }));
        expect(batch.equals(encodeBatch(inputs))).toBe(true);
        const given = fields.flatMap(({ key, value }) => [key, value]);
        // (Buffer#equals: a deep comparison of 8 KB fields byte by byte is slow)
        const misplaced = places.filter(([at, n], k) =>
          n < 0 ? given[k] !== null : given[k] === null || !batch.subarray(at, at + n).equals(given[k]),
        );
        expect(misplaced).toEqual([]);
        expect(places.every(([at]) => at >= BATCH_HEADER_BYTES)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
