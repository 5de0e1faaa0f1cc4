import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBatch, type LogRecord } from '../partition-log/record-batch.js';
import { toApiRecord, type ReadFormat } from './record-format.js';
import { JsonTextBuffer, recordJson, recordsJsonFromBatches } from './record-json.js';

const bytes = fc.option(
  fc.oneof(
    fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array)),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => Buffer.from(text, 'utf8')),
    fc.constantFrom(Buffer.from('"quoted"\\n'), Buffer.from([0xff, 0xfe, 0x22, 0x5c])),
  ),
);
const record: fc.Arbitrary<LogRecord> = fc.record({
  offset: fc.maxSafeNat(),
  timestamp: fc.integer({ min: -1, max: 2 ** 50 }),
  key: bytes,
  value: bytes,
  headers: fc.array(fc.record({ key: fc.string({ unit: 'grapheme', maxLength: 8 }), value: bytes }), {
    maxLength: 3,
  }),
});

describe('recordJson', () => {
  it('is the text JSON.stringify gives of toApiRecord, for every format it writes itself and with a topic', () => {
    fc.assert(
      fc.property(
        record,
        fc.nat(1000),
        fc.constantFrom<ReadFormat>('binary', 'string', 'json'),
        fc.option(fc.string({ unit: 'grapheme', maxLength: 12 }), { nil: undefined }),
        (stored, partition, format, topic) => {
          expect(recordJson(stored, partition, format, topic)).toBe(
            JSON.stringify(toApiRecord(stored, partition, format, topic)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('recordsJsonFromBatches', () => {
  it('writes the records from the offset on, at most maxRecords, and says where it stopped', () => {
    const batch = encodeBatch(
      ['a', 'b', 'c'].map((value) => ({ key: null, value: Buffer.from(value), headers: [], timestamp: 5 })),
    );
    const out = new JsonTextBuffer(0);
    const { count, nextOffset } = recordsJsonFromBatches(out, batch, 2, 'string', 1, 1);
    expect(JSON.parse(`[${out.toBuffer().toString()}]`)).toEqual([
      { partition: 2, offset: 1, timestamp: 5, key: null, value: 'b', headers: [] },
    ]);
    expect([count, nextOffset]).toEqual([1, 2]);
    const all = recordsJsonFromBatches(new JsonTextBuffer(0), batch, 2, 'binary', 0, 10);
    expect(all).toEqual({ count: 3, nextOffset: null });
  });
});

describe('JsonTextBuffer', () => {
  it('grows past its first size and keeps every piece, multi-byte characters included', () => {
    const out = new JsonTextBuffer(0);
    const pieces = Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? `"é😀${i}"` : `${i}`));
    for (const piece of pieces) out.append(piece);
    expect(out.toBuffer().toString('utf8')).toBe(pieces.join(''));
  });

  it('keeps what was written when room is reserved, and the reserved room takes the next pieces', () => {
    const out = new JsonTextBuffer(0);
    out.append('[1,');
    out.reserve(5000);
    const pieces = Array.from({ length: 1000 }, (_, i) => `"ü${i}",`);
    for (const piece of pieces) out.append(piece);
    expect(out.toBuffer().toString('utf8')).toBe('[1,' + pieces.join(''));
  });
});
