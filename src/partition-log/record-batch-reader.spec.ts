import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType, UnsupportedCompressionError } from './compression.js';
import { CorruptBatchError } from './record-batch-layout.js';
import { encodeBatch } from './record-batch-builder.js';
import { batchesIn, batchesSummary, decodeRecords } from './record-batch-reader.js';
import {
  AT,
  T0,
  bytes,
  record,
  header,
  fixCrc,
  withInt32,
  expectCorrupt,
} from '../../test/support/record-batch-fixtures.js';

describe('decodeRecords rejects lying lengths and counts with CorruptBatchError', () => {
  // One uncompressed record whose layout is known: length, attributes, tsDelta, offsetDelta, key, value, headers.
  const single = () => encodeBatch([record({ key: bytes('kk'), value: bytes('vvv'), headers: [header('h', 'x')] })]);
  const RECORD_LENGTH_AT = AT.records;
  const KEY_LENGTH_AT = AT.records + 4; // length(1) attributes(1) timestampDelta(1) offsetDelta(1)

  it.each([
    ['larger than the batch', 0x7e], // zig-zag 63: runs past the end
    ['one byte short', null],
    ['negative', 0x03], // zig-zag -2
  ])('record length %s', (_name, replacement) => {
    const batch = single();
    batch[RECORD_LENGTH_AT] = replacement ?? batch[RECORD_LENGTH_AT] - 2; // length n -> n - 1 (zig-zag step 2)
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('key length running past the record', () => {
    const batch = single();
    batch[KEY_LENGTH_AT] = 0x20; // 16 bytes of key in a 16-byte record
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('record count larger than the records present, or absurd', () => {
    for (const count of [2, 1000, 2 ** 31 - 1, -1, -(2 ** 31)]) {
      expectCorrupt(() => decodeRecords(fixCrc(withInt32(single(), AT.recordCount, count))));
    }
  });

  it('record count smaller than the records present', () => {
    const two = encodeBatch([record(), record()]);
    expectCorrupt(() => decodeRecords(fixCrc(withInt32(two, AT.recordCount, 1))), /after its last record/);
  });

  it('a varint that never ends', () => {
    const batch = single();
    batch.fill(0xff, AT.records);
    expectCorrupt(() => decodeRecords(fixCrc(batch)));
  });

  it('property: random damage to the records section never escapes as anything but CorruptBatchError', () => {
    const batches = [
      encodeBatch([record({ headers: [header('a', 'b'), header('c', null)] }), record({ key: null, value: null })]),
      encodeBatch([record({ value: Buffer.alloc(300, 7) }), record()], { compression: CompressionType.Gzip }),
    ];
    const damage = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 });
    for (const batch of batches) {
      fc.assert(
        fc.property(damage, (edits) => {
          const damaged = Buffer.from(batch);
          for (const [at, value] of edits) damaged[AT.records + (at % (batch.length - AT.records))] = value;
          fixCrc(damaged);
          try {
            decodeRecords(damaged);
          } catch (error) {
            expect(error).toBeInstanceOf(CorruptBatchError);
          }
        }),
        { numRuns: 500 },
      );
    }
  });

  it('property: random damage to the header fields gives a result or a CorruptBatch/UnsupportedCompression error', () => {
    const batch = encodeBatch([record(), record({ timestamp: T0 + 1 })]);
    const damage = fc.tuple(fc.integer({ min: AT.batchLength, max: AT.records - 1 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(damage, ([at, value]) => {
        const damaged = Buffer.from(batch);
        damaged[at] = value;
        try {
          decodeRecords(fixCrc(damaged));
        } catch (error) {
          expect([CorruptBatchError, UnsupportedCompressionError]).toContain((error as Error).constructor);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('batchesIn', () => {
  const batchOf = (count: number, baseOffset: number, compression = CompressionType.None) =>
    encodeBatch(
      Array.from({ length: count }, (_, i) => record({ value: bytes(`v${baseOffset + i}`), timestamp: T0 + i })),
      { baseOffset, compression },
    );

  it('walks concatenated batches in order with their positions', () => {
    const batches = [batchOf(1, 0), batchOf(3, 1, CompressionType.Gzip), batchOf(2, 4)];
    const log = Buffer.concat(batches);
    const walked = [...batchesIn(log)];
    expect(walked.map(({ position }) => position)).toEqual([
      0,
      batches[0].length,
      batches[0].length + batches[1].length,
    ]);
    expect(walked.map(({ header }) => header.baseOffset)).toEqual([0, 1, 4]);
    expect(walked.map(({ header }) => header.sizeBytes)).toEqual(batches.map((b) => b.length));
    const offsets = walked.flatMap(({ header, position }) =>
      decodeRecords(log.subarray(position, position + header.sizeBytes)).map((r) => r.offset),
    );
    expect(offsets).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('yields nothing for an empty buffer', () => {
    expect([...batchesIn(Buffer.alloc(0))]).toEqual([]);
  });

  it('property: stops before a partial tail wherever the buffer is cut', () => {
    const batchList = fc.array(
      fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(CompressionType.None, CompressionType.Gzip)),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(batchList, fc.double({ min: 0, max: 1, noNaN: true }), (specs, cutFraction) => {
        let nextOffset = 0;
        const batches = specs.map(([count, compression]) => {
          const batch = batchOf(count, nextOffset, compression);
          nextOffset += count;
          return batch;
        });
        const log = Buffer.concat(batches);
        const cut = Math.floor(cutFraction * log.length);
        const whole: number[] = [];
        let end = 0;
        for (const batch of batches) {
          if (end + batch.length > cut) break;
          whole.push(end);
          end += batch.length;
        }
        expect([...batchesIn(log.subarray(0, cut))].map(({ position }) => position)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('property: batchesSummary gives the offset after the last whole batch and the records batchesIn walks', () => {
    const batchList = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 5 })), // a gap before, then the count
      { minLength: 0, maxLength: 6 },
    );
    fc.assert(
      fc.property(batchList, fc.double({ min: 0, max: 1, noNaN: true }), (specs, cutFraction) => {
        let nextOffset = 7;
        const batches = specs.map(([gap, count]) => {
          const batch = batchOf(count, nextOffset + gap);
          nextOffset += gap + count;
          return batch;
        });
        const log = Buffer.concat(batches);
        const cut = log.subarray(0, Math.floor(cutFraction * log.length));
        let expectedNext = 3;
        let expectedRecords = 0;
        for (const { header } of batchesIn(cut)) {
          expectedNext = header.baseOffset + header.lastOffsetDelta + 1;
          expectedRecords += header.recordCount;
        }
        expect(batchesSummary(cut, 3)).toEqual({ nextOffset: expectedNext, recordCount: expectedRecords });
      }),
      { numRuns: 200 },
    );
  });
});
