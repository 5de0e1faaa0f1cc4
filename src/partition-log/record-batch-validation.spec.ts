import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import { encodeBatch, encodeEmptyBatch } from './record-batch-builder.js';
import { ATTRIBUTES_AT, BATCH_BYTES_MAX, CorruptBatchError, readBatchHeader } from './record-batch-layout.js';
import { decodeRecords } from './record-batch-reader.js';
import { nativeWalkRecords, validateClientRecords, walkRecords } from './record-batch-validation.js';
import { AT, record, recordsArb, withInt32 } from '../../test/support/record-batch-fixtures.js';

const lenient = { keysRequired: false, maxDecompressedBytes: BATCH_BYTES_MAX };
const validate = (batch: Buffer, options = lenient) => validateClientRecords(batch, readBatchHeader(batch), options);

/** A batch whose records section is `records`, uncompressed, one record claimed. */
function withRecordsSection(records: Buffer, count = 1): Buffer {
  const template = encodeBatch([record()]);
  const batch = Buffer.concat([template.subarray(0, AT.records), records]);
  batch.writeInt32BE(batch.length - 12, AT.batchLength);
  batch.writeInt32BE(count, AT.recordCount);
  batch.writeInt32BE(count - 1, AT.lastOffsetDelta);
  return batch;
}

describe('validateClientRecords', () => {
  it('takes every batch Brook writes, with every codec, and those are what it decodes', () => {
    const codecs = [
      CompressionType.None,
      CompressionType.Gzip,
      CompressionType.Snappy,
      CompressionType.Lz4,
      CompressionType.Zstd,
    ];
    fc.assert(
      fc.property(recordsArb, fc.constantFrom(...codecs), (records, compression) => {
        const batch = encodeBatch(records, { compression });
        expect(() => validate(batch)).not.toThrow();
        expect(decodeRecords(batch)).toHaveLength(records.length);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a keyless record for a compacted topic, naming it', () => {
    const batch = encodeBatch([record({ key: Buffer.from('k') }), record({ key: null })]);
    expect(() => validate(batch)).not.toThrow();
    expect(() => validate(batch, { ...lenient, keysRequired: true })).toThrow(/record 1 has no key/);
  });

  it('refuses offset deltas other than 0..n-1, control and transactional batches', () => {
    const gapped = encodeBatch([record(), record()], { offsetDeltas: [0, 2], lastOffsetDelta: 2 });
    expect(() => validate(gapped)).toThrow(CorruptBatchError);
    const control = encodeBatch([record()]);
    control.writeInt16BE(0x20, ATTRIBUTES_AT);
    expect(() => validate(control)).toThrow(/control/);
    const transactional = encodeBatch([record()]);
    transactional.writeInt16BE(0x10, ATTRIBUTES_AT);
    expect(() => validate(transactional)).toThrow(/transactional/);
    expect(() => validate(withInt32(encodeBatch([record(), record()]), AT.recordCount, 3))).toThrow(CorruptBatchError);
  });

  it('refuses lengths that leave their record, trailing bytes, and an unknown codec', () => {
    // length 8: attributes 0, timestamp delta 0, offset delta 0, key length 5 (past the record), ...
    expect(() => validate(withRecordsSection(Buffer.from([16, 0, 0, 0, 10, 1, 1, 0, 0])))).toThrow(/key length/);
    // a valid record of 6 bytes (no key, no value, no headers) then a stray byte
    expect(() => validate(withRecordsSection(Buffer.from([12, 0, 0, 0, 1, 1, 0, 9])))).toThrow(/after its 1 records/);
    // a null header key
    expect(() => validate(withRecordsSection(Buffer.from([16, 0, 0, 0, 1, 1, 2, 1, 1])))).toThrow(/header key/);
    const unknownCodec = encodeBatch([record()]);
    unknownCodec.writeInt16BE(6, ATTRIBUTES_AT);
    expect(() => validate(unknownCodec)).toThrow(/compression type 6/);
  });

  it('property: random damage to the records section is refused as CorruptBatchError or still decodes', () => {
    fc.assert(
      fc.property(recordsArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (records, at, value) => {
        const batch = encodeBatch(records);
        const position = AT.records + (at % Math.max(1, batch.length - AT.records));
        batch[position] = value;
        let valid = true;
        try {
          validate(batch);
        } catch (error) {
          expect(error).toBeInstanceOf(CorruptBatchError);
          valid = false;
        }
        // what the validation takes, a reader can read
        if (valid) expect(() => decodeRecords(batch)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe.runIf(nativeWalkRecords !== null)('the native record walk (native/record-walk.c)', () => {
  /** The JavaScript walk's verdict: null when it takes the records, else the index its error names. */
  const jsVerdict = (body: Buffer, count: number, keysRequired: boolean): number | null => {
    try {
      walkRecords(body, count, keysRequired);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(CorruptBatchError);
      const named = /^record (\d+)/.exec((error as Error).message);
      return named === null ? Math.max(0, count) : Number(named[1]); // the bytes after the last record
    }
  };

  it('property: takes and refuses what the JavaScript walk does, at the same record', () => {
    const damage = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 });
    fc.assert(
      fc.property(
        recordsArb,
        damage,
        fc.integer({ min: -2, max: 2 }),
        fc.nat(),
        fc.boolean(),
        (records, changes, countDelta, cut, keysRequired) => {
          const batch = encodeBatch(records);
          let body = Buffer.from(batch.subarray(AT.records));
          for (const [at, value] of changes) if (body.length > 0) body[at % body.length] = value;
          if (cut % 4 === 0) body = body.subarray(0, cut % (body.length + 1));
          const count = records.length + countDelta;
          const native = nativeWalkRecords!(body, count, keysRequired);
          const js = jsVerdict(body, count, keysRequired);
          expect(native < 0 ? null : native).toBe(js);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses the hand-made cases at the record the JavaScript walk names', () => {
    const cases: Array<[number[], number]> = [
      [[16, 0, 0, 0, 10, 1, 1, 0, 0], 1], // a key length past the record
      [[12, 0, 0, 0, 1, 1, 0, 9], 1], // a stray byte after the last record
      [[16, 0, 0, 0, 1, 1, 2, 1, 1], 1], // a null header key
      [[0xff, 0xff, 0xff, 0xff, 0xff, 0x01], 1], // a length varint of six bytes
      [[12, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0], 1], // a timestamp delta of 11 bytes
      [[], 1], // a record claimed, none there
      [[12, 0, 0, 0, 1, 1, 0], 2], // one record of two
    ];
    for (const [bytes, count] of cases) {
      const body = Buffer.from(bytes);
      expect(nativeWalkRecords!(body, count, false)).toBe(jsVerdict(body, count, false));
      expect(nativeWalkRecords!(body, count, false)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('an empty batch from a client', () => {
  it("is refused: only Brook writes one, as an idempotency key's marker", () => {
    const batch = encodeEmptyBatch(0, { producerId: 5, producerEpoch: 0, baseSequence: 0 });
    const options = { keysRequired: false, maxDecompressedBytes: BATCH_BYTES_MAX };
    expect(() => validateClientRecords(batch, readBatchHeader(batch), options)).toThrow(CorruptBatchError);
  });
});
