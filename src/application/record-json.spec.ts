import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AWKWARD_TEXT_BYTES } from '../../test/support/awkward-text-bytes.js';
import { encodeBatch, type LogRecord } from '../partition-log/record-batch.js';
import { toApiRecord, type ReadFormat } from './record-format.js';
import { isPlainJsonText, JsonTextBuffer, recordJson, recordsJsonFromBatches, writeRecordJson } from './record-json.js';

const bytes = fc.option(
  fc.oneof(
    fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array)),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => Buffer.from(text, 'utf8')),
    fc.constantFrom(...AWKWARD_TEXT_BYTES),
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

/** A stored record, its partition, a format the writers handle themselves, and maybe a topic. */
const recordArguments = [
  record,
  fc.nat(1000),
  fc.constantFrom<ReadFormat>('binary', 'string', 'json'),
  fc.option(fc.string({ unit: 'grapheme', maxLength: 12 }), { nil: undefined }),
] as const;

describe('recordJson', () => {
  it('is the text JSON.stringify gives of toApiRecord, for every format it writes itself and with a topic', () => {
    fc.assert(
      fc.property(...recordArguments, (stored, partition, format, topic) => {
        expect(recordJson(stored, partition, format, topic)).toBe(
          JSON.stringify(toApiRecord(stored, partition, format, topic)),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('writeRecordJson', () => {
  it("writes recordJson's text into the buffer, for every format and with a topic, after what is there", () => {
    fc.assert(
      fc.property(...recordArguments, (stored, partition, format, topic) => {
        const out = new JsonTextBuffer(0);
        out.append('[');
        writeRecordJson(out, stored, partition, format, topic);
        expect(out.toBuffer().toString('utf8')).toBe(`[${recordJson(stored, partition, format, topic)}`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isPlainJsonText', () => {
  it('holds for valid UTF-8 with nothing JSON.stringify escapes, and only then', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 16 }),
          fc.string({ unit: 'grapheme', maxLength: 16 }).map((text) => Buffer.from(text)),
        ),
        (array) => {
          const bytes = Buffer.from(array);
          const text = bytes.toString('utf8');
          const plain = Buffer.from(text, 'utf8').equals(bytes) && JSON.stringify(text) === `"${text}"`;
          expect(isPlainJsonText(bytes)).toBe(plain);
        },
      ),
      { numRuns: 2000 },
    );
    expect(isPlainJsonText(Buffer.from('1234.567|xxxx'))).toBe(true);
    expect(isPlainJsonText(Buffer.from('a"b'))).toBe(false);
    expect(isPlainJsonText(Buffer.from('a\\b'))).toBe(false);
    expect(isPlainJsonText(Buffer.from('a\nb'))).toBe(false);
    expect(isPlainJsonText(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(false);
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
  it('appends bytes between quotes as they are, growing when they do not fit', () => {
    const out = new JsonTextBuffer(0);
    out.append('[');
    const value = Buffer.from('x'.repeat(3000) + 'é');
    out.appendQuoted(value);
    out.append(']');
    expect(JSON.parse(out.toBuffer().toString('utf8'))).toEqual([value.toString('utf8')]);
  });

  it('grows past its first size and keeps every piece, multi-byte characters included', () => {
    const out = new JsonTextBuffer(0);
    const pieces = Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? `"é😀${i}"` : `${i}`));
    for (const piece of pieces) out.append(piece);
    expect(out.toBuffer().toString('utf8')).toBe(pieces.join(''));
  });

  it('appends a range between quotes exactly when isPlainJsonText holds for it, at any alignment of source and buffer', () => {
    // bytes JSON escapes, the bytes next to them, and UTF-8 (valid or not) in every lane of a four-byte word
    const byte = fc.oneof(
      fc.constantFrom(0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xc3, 0xa9, 0xed, 0xff),
      fc.integer({ min: 0x20, max: 0x7e }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 1, arbitrary: byte }, { weight: 6, arbitrary: fc.constant(0x78) }), {
          maxLength: 70,
        }),
        fc.nat(7),
        fc.nat(7),
        fc.nat(5),
        (values, sourceOffset, start, written) => {
          const memory = new Uint8Array(sourceOffset + start + values.length + 3).fill(0x22);
          const source = memory.subarray(sourceOffset);
          source.set(values, start);
          const range = Buffer.from(values);
          const out = new JsonTextBuffer(0);
          out.append('['.repeat(written));
          const plain = isPlainJsonText(range);
          expect(out.appendPlainJsonRange(source, start, values.length)).toBe(plain);
          const expected = plain ? `"${range.toString('latin1')}"` : '';
          expect(out.toBuffer().toString('latin1')).toBe('['.repeat(written) + expected);
        },
      ),
      { numRuns: 3000 },
    );
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
