import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import {
  assignOffsetAndEpoch,
  BATCH_BYTES_MAX,
  BATCH_HEADER_BYTES,
  compressionOf,
  hasValidCrc,
  lastOffsetOf,
  LOG_OVERHEAD_BYTES,
  readBatchHeader,
  stampLogAppendTime,
  timestampTypeOf,
  TimestampType,
  validateBatch,
  writeCrc,
} from './record-batch-layout.js';
import { encodeBatch, encodeEmptyBatch } from './record-batch-builder.js';
import { batchesIn, decodeRecords } from './record-batch-reader.js';
import { crc32c } from '@node-rs/crc32';
import {
  AT,
  T0,
  record,
  header,
  expectedViews,
  decodedViews,
  fixCrc,
  withInt32,
  expectCorrupt,
  recordsArb,
} from '../../test/support/record-batch-fixtures.js';

describe('CRC', () => {
  const sample = () =>
    encodeBatch(
      [record({ headers: [header('h', 'v'), header('n', null)] }), record({ key: null, timestamp: T0 + 9 })],
      { baseOffset: 5, partitionLeaderEpoch: 3, producerId: 77, producerEpoch: 1, baseSequence: 12 },
    );

  it('is CRC-32C of bytes 21..end', () => {
    const batch = sample();
    expect(batch.readUInt32BE(AT.crc)).toBe(crc32c(batch.subarray(21)) >>> 0);
    expect(hasValidCrc(batch)).toBe(true);
  });

  it('property: flipping any bits of any byte from 21 to the end is caught by validateBatch', () => {
    for (const compression of [CompressionType.None, CompressionType.Gzip]) {
      const batch = encodeBatch([record({ headers: [header('h', 'v')] }), record({ key: null })], { compression });
      const positions = fc.integer({ min: AT.attributes, max: batch.length - 1 });
      fc.assert(
        fc.property(positions, fc.integer({ min: 1, max: 255 }), (position, mask) => {
          const damaged = Buffer.from(batch);
          damaged[position] ^= mask;
          expect(hasValidCrc(damaged)).toBe(false);
          expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
        }),
        { numRuns: 500 },
      );
    }
  });

  it('every single-byte flip in the CRC-covered range is caught (exhaustive over positions)', () => {
    const batch = sample();
    for (let position = AT.attributes; position < batch.length; position++) {
      const damaged = Buffer.from(batch);
      damaged[position] ^= 0x01;
      expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
    }
  });

  it('a damaged stored CRC is caught', () => {
    for (let position = AT.crc; position < AT.attributes; position++) {
      const damaged = Buffer.from(sample());
      damaged[position] ^= 0x80;
      expectCorrupt(() => validateBatch(damaged), /CRC mismatch/);
    }
  });

  it('baseOffset and partitionLeaderEpoch are outside the CRC', () => {
    const batch = sample();
    for (const position of [AT.baseOffset + 7, AT.leaderEpoch + 3]) {
      const changed = Buffer.from(batch);
      changed[position] ^= 0x01;
      expect(hasValidCrc(changed)).toBe(true);
    }
  });
});

describe('validateBatch and readBatchHeader reject malformed input', () => {
  const batch = encodeBatch([record(), record({ timestamp: T0 + 1 })], { baseOffset: 10 });

  it('every truncation of a batch is rejected with CorruptBatchError, by every reader', () => {
    for (const compression of [CompressionType.None, CompressionType.Gzip]) {
      const whole = encodeBatch([record({ headers: [header('a', 'b')] }), record({ value: null })], { compression });
      for (let length = 0; length < whole.length; length++) {
        const truncated = whole.subarray(0, length);
        expectCorrupt(() => validateBatch(truncated));
        expectCorrupt(() => decodeRecords(truncated));
        if (length < BATCH_HEADER_BYTES) expectCorrupt(() => readBatchHeader(truncated), /truncated batch header/);
        expect([...batchesIn(truncated)]).toEqual([]);
      }
    }
  });

  it('rejects a batch length that claims more or fewer bytes than there are', () => {
    const longer = withInt32(batch, AT.batchLength, batch.length - LOG_OVERHEAD_BYTES + 1);
    expectCorrupt(() => validateBatch(longer), /does not match/);
    expectCorrupt(() => decodeRecords(longer), /truncated/);

    const shorter = withInt32(batch, AT.batchLength, batch.length - LOG_OVERHEAD_BYTES - 1);
    expectCorrupt(() => validateBatch(shorter), /does not match/);
    expectCorrupt(() => decodeRecords(shorter));
  });

  it.each([
    ['negative', -1],
    ['smaller than the header', BATCH_HEADER_BYTES - LOG_OVERHEAD_BYTES - 1],
    ['above the maximum batch size', BATCH_BYTES_MAX - LOG_OVERHEAD_BYTES + 1],
    ['int32 max', 2 ** 31 - 1],
  ])('rejects a batch length that is %s', (_name, length) => {
    const lying = withInt32(batch, AT.batchLength, length);
    expectCorrupt(() => readBatchHeader(lying), /out of range/);
    expectCorrupt(() => validateBatch(lying), /out of range/);
    expectCorrupt(() => decodeRecords(lying), /out of range/);
    expectCorrupt(() => [...batchesIn(lying)], /out of range/);
  });

  it('rejects any magic but 2', () => {
    for (const magic of [0, 1, 3, -1]) {
      const other = Buffer.from(batch);
      other.writeInt8(magic, AT.magic);
      expectCorrupt(() => readBatchHeader(other), /magic/);
      expectCorrupt(() => validateBatch(other), /magic/);
    }
  });

  it('rejects record counts inconsistent with lastOffsetDelta (CRC fixed so the count check is reached)', () => {
    for (const count of [0, -1, 3]) {
      expectCorrupt(() => validateBatch(fixCrc(withInt32(batch, AT.recordCount, count))), /record count/);
    }
  });

  it('rejects negative base offsets and offsets past MAX_SAFE_INTEGER', () => {
    const negative = Buffer.from(batch);
    negative.writeBigInt64BE(-5n, AT.baseOffset);
    expectCorrupt(() => validateBatch(negative), /offsets out of range/);
    const huge = Buffer.from(batch);
    huge.writeBigInt64BE(BigInt(Number.MAX_SAFE_INTEGER), AT.baseOffset);
    expectCorrupt(() => validateBatch(huge), /offsets out of range/);
  });
});

describe('assignOffsetAndEpoch', () => {
  it('property: stamps offsets and epoch, keeps the CRC valid and leaves the CRC-covered bytes alone', () => {
    fc.assert(
      fc.property(
        recordsArb,
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(CompressionType.None, CompressionType.Gzip),
        (records, baseOffset, epoch, compression) => {
          const batch = encodeBatch(records, { compression });
          const covered = Buffer.from(batch.subarray(AT.crc));
          assignOffsetAndEpoch(batch, baseOffset, epoch);
          expect(batch.subarray(AT.crc)).toEqual(covered);
          const header = validateBatch(batch);
          expect(header.baseOffset).toBe(baseOffset);
          expect(header.partitionLeaderEpoch).toBe(epoch);
          expect(lastOffsetOf(header)).toBe(baseOffset + records.length - 1);
          expect(decodeRecords(batch).map((r) => r.offset)).toEqual(records.map((_, i) => baseOffset + i));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('stampLogAppendTime', () => {
  it.each([
    ['uncompressed', CompressionType.None],
    ['gzip', CompressionType.Gzip],
  ])('makes every decoded record carry the append time and keeps the CRC valid (%s)', (_name, compression) => {
    const records = [record({ timestamp: T0 + 30 }), record({ timestamp: T0 }), record({ timestamp: T0 + 10 })];
    const batch = encodeBatch(records, { compression, baseOffset: 9 });
    const appendTime = T0 + 60_000;
    stampLogAppendTime(batch, appendTime);

    const header = validateBatch(batch);
    expect(timestampTypeOf(header)).toBe(TimestampType.LogAppendTime);
    expect(compressionOf(header)).toBe(compression);
    expect(header.maxTimestamp).toBe(appendTime);
    expect(header.baseTimestamp).toBe(T0); // the create times stay in the batch
    expect(decodedViews(batch)).toEqual(expectedViews(records, 9, undefined, appendTime));
  });

  it('is idempotent and can be followed by assignOffsetAndEpoch', () => {
    const batch = encodeBatch([record()]);
    stampLogAppendTime(batch, T0 + 1);
    stampLogAppendTime(batch, T0 + 2);
    assignOffsetAndEpoch(batch, 50, 4);
    expect(hasValidCrc(batch)).toBe(true);
    expect(decodeRecords(batch)).toMatchObject([{ offset: 50, timestamp: T0 + 2 }]);
  });
});

describe('readBatchHeader int64 fields', () => {
  it('property: reads what Number(readBigInt64BE) reads, over the whole int64 range', () => {
    const template = encodeBatch([{ key: null, value: Buffer.from('v'), timestamp: 0 }]);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
        fc.constantFrom(0, 27, 35, 43),
        (value, at) => {
          const batch = Buffer.from(template);
          batch.writeBigInt64BE(value, at);
          const header = readBatchHeader(batch);
          const read = {
            0: header.baseOffset,
            27: header.baseTimestamp,
            35: header.maxTimestamp,
            43: header.producerId,
          }[at];
          expect(read).toBe(Number(value));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the empty batch (an idempotency key's marker)", () => {
  const producer = { producerId: 2 ** 52 + 7, producerEpoch: 3, baseSequence: 12345 };

  it('takes one offset, holds no record, and validates', () => {
    const batch = encodeEmptyBatch(T0, producer);
    assignOffsetAndEpoch(batch, 40, 2);
    const header = validateBatch(batch);
    expect(header).toMatchObject({ baseOffset: 40, recordCount: 0, lastOffsetDelta: 0, maxTimestamp: T0 });
    expect(header).toMatchObject({ producerId: producer.producerId, producerEpoch: 3, baseSequence: 12345 });
    expect(header.sizeBytes).toBe(BATCH_HEADER_BYTES);
    expect(lastOffsetOf(header)).toBe(40);
    expect(decodeRecords(batch)).toEqual([]);
    expect([...batchesIn(Buffer.concat([batch, encodeBatch([record()])]))]).toHaveLength(2);
  });

  it('is refused with a last offset delta other than 0', () => {
    const batch = encodeEmptyBatch(T0, producer);
    batch.writeInt32BE(1, 23);
    writeCrc(batch);
    expect(() => validateBatch(batch)).toThrow(/record count 0/);
  });
});
