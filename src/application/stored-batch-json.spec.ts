import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AWKWARD_TEXT_BYTES } from '../../test/support/awkward-text-bytes.js';
import { CompressionType } from '../partition-log/compression.js';
import {
  CorruptBatchError,
  decodeRecords,
  encodeBatch,
  stampLogAppendTime,
  BATCH_HEADER_BYTES,
  type RecordInput,
} from '../partition-log/record-batch.js';
import { ATTRIBUTES_AT, RECORD_COUNT_AT } from '../partition-log/record-batch-layout.js';
import { JsonTextBuffer, recordJson } from './record-json.js';
import { writeStoredBatchJson, type BytesFormat } from './stored-batch-json.js';

const bytes = fc.option(
  fc.oneof(
    fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array)),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => Buffer.from(text, 'utf8')),
    fc.string({ unit: 'binary', maxLength: 20 }).map((text) => Buffer.from(text, 'utf8')),
    fc.constantFrom(...AWKWARD_TEXT_BYTES),
  ),
  { freq: 4 },
);
const records = fc.array(
  fc.record({
    timestamp: fc.oneof(fc.integer({ min: -1, max: 2 ** 45 }), fc.constant(1_700_000_000_000)),
    key: bytes,
    value: bytes,
    headers: fc.oneof(
      fc.constant([]),
      fc.array(fc.record({ key: fc.string({ unit: 'grapheme', maxLength: 8 }), value: bytes }), { maxLength: 3 }),
    ),
  }),
  { minLength: 1, maxLength: 12 },
);
const compression = fc.constantFrom(
  CompressionType.None,
  CompressionType.Gzip,
  CompressionType.Snappy,
  CompressionType.Lz4,
  CompressionType.Zstd,
);

/** A stored batch as the log holds it: any codec, CreateTime or LogAppendTime, offsets anywhere, gaps. */
const storedBatch = fc
  .record({
    records,
    compression,
    baseOffset: fc.oneof(fc.nat(1000), fc.integer({ min: 0, max: 2 ** 50 })),
    logAppendTimeMs: fc.option(fc.integer({ min: 0, max: 2 ** 45 })),
    gaps: fc.boolean(),
  })
  .map(({ records: inputs, compression: codec, baseOffset, logAppendTimeMs, gaps }) => {
    const offsetDeltas = gaps ? inputs.map((_, i) => i * 3) : undefined;
    const batch = encodeBatch(inputs as RecordInput[], { baseOffset, compression: codec, offsetDeltas });
    if (logAppendTimeMs !== null) stampLogAppendTime(batch, logAppendTimeMs);
    return batch;
  });

const topic = fc.oneof(fc.constant('t'), fc.string({ unit: 'grapheme', maxLength: 12 }));
const format = fc.constantFrom<BytesFormat>('string', 'binary');

/** What the record JSON cache wrote before: each decoded record's recordJson, joined by commas. */
function decodedText(batch: Buffer, topicName: string, partition: number, bytesFormat: BytesFormat): string {
  return decodeRecords(batch)
    .map((record) => recordJson(record, partition, bytesFormat, topicName))
    .join(',');
}

function written(batch: Buffer, topicName: string, partition: number, bytesFormat: BytesFormat, prefix = '') {
  const out = new JsonTextBuffer(0);
  out.append(prefix);
  const { offsets, starts } = writeStoredBatchJson(out, batch, topicName, partition, bytesFormat);
  return { text: out.toBuffer().subarray(Buffer.byteLength(prefix)), offsets, starts };
}

describe('writeStoredBatchJson', () => {
  it('writes the bytes recordJson gives of each decoded record, joined by commas, for every codec', () => {
    fc.assert(
      fc.property(storedBatch, topic, fc.nat(1000), format, (batch, topicName, partition, bytesFormat) => {
        const expected = Buffer.from(decodedText(batch, topicName, partition, bytesFormat), 'utf8');
        expect(written(batch, topicName, partition, bytesFormat).text.equals(expected)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it("gives each record's offset and where its text starts, after whatever the buffer held", () => {
    fc.assert(
      fc.property(storedBatch, topic, format, fc.string({ maxLength: 5 }), (batch, topicName, bytesFormat, prefix) => {
        const decoded = decodeRecords(batch);
        const out = new JsonTextBuffer(0);
        out.append(prefix);
        const { offsets, starts } = writeStoredBatchJson(out, batch, topicName, 0, bytesFormat);
        const all = out.toBuffer();
        expect([...offsets]).toEqual(decoded.map((record) => record.offset));
        expect(starts.length).toBe(decoded.length + 1);
        expect(starts[decoded.length]).toBe(all.length + 1);
        decoded.forEach((record, i) => {
          const text = all.toString('utf8', starts[i], starts[i + 1] - 1);
          expect(text).toBe(recordJson(record, 0, bytesFormat, topicName));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a damaged uncompressed batch as decodeRecords does, with the same error, or writes the same text', () => {
    const damaged = fc
      .tuple(storedBatch, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), fc.boolean())
      .map(([batch, at, byte, cut, cutIt]) => {
        const copy = Buffer.from(batch);
        copy.writeInt16BE(copy.readInt16BE(ATTRIBUTES_AT) & ~0x07, ATTRIBUTES_AT); // uncompressed: the records section is the bytes
        const position = BATCH_HEADER_BYTES + (at % Math.max(1, copy.length - BATCH_HEADER_BYTES));
        if (position < copy.length) copy[position] = byte;
        return cutIt
          ? copy.subarray(0, BATCH_HEADER_BYTES + (cut % Math.max(1, copy.length - BATCH_HEADER_BYTES)))
          : copy;
      });
    let refused = 0;
    fc.assert(
      fc.property(damaged, format, (batch, bytesFormat) => {
        let expected: string | Error;
        try {
          expected = decodedText(batch, 't', 1, bytesFormat);
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) {
          refused++;
          expect(() => written(batch, 't', 1, bytesFormat)).toThrow(expected.constructor as typeof Error);
          expect(() => written(batch, 't', 1, bytesFormat)).toThrow(expected.message);
        } else {
          expect(written(batch, 't', 1, bytesFormat).text.toString('utf8')).toBe(expected);
        }
      }),
      { numRuns: 1500 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('refuses a record count larger than the records section, as decodeRecords does', () => {
    const batch = encodeBatch([{ key: null, value: Buffer.from('a'), timestamp: 1 }]);
    batch.writeInt32BE(5, RECORD_COUNT_AT);
    expect(() => decodeRecords(batch)).toThrow(CorruptBatchError);
    expect(() => written(batch, 't', 0, 'string')).toThrow(CorruptBatchError);
  });

  it('writes CreateTime and LogAppendTime timestamps and every digit count of an offset', () => {
    for (const baseOffset of [0, 9, 10, 99, 100, 2 ** 31, 2 ** 53 - 20]) {
      const batch = encodeBatch(
        [
          { key: Buffer.from('k'), value: null, timestamp: -1 },
          { key: null, value: Buffer.from('v'), timestamp: 1_700_000_000_123 },
        ],
        { baseOffset },
      );
      expect(written(batch, 't', 3, 'string').text.toString()).toBe(decodedText(batch, 't', 3, 'string'));
      stampLogAppendTime(batch, 42);
      expect(written(batch, 't', 3, 'string').text.toString()).toBe(decodedText(batch, 't', 3, 'string'));
    }
  });
});
