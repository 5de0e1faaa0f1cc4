// Shared helpers of the record batch's interop specs (src/partition-log/record-batch.*.interop.spec.ts, against
// kafkajs and @platformatic/kafka): fast-check arbitraries of records and batch options, comparable views of
// decoded records (those of record-batch-fixtures.ts), and a byte comparison that names the first difference.
import fc from 'fast-check';
import { expect } from 'vitest';
import { CompressionType } from '../../src/partition-log/compression.js';
import type { BatchOptions, RecordInput } from '../../src/partition-log/record-batch.js';

export { expectedViews, hex, T0, view } from './record-batch-fixtures.js';

/** Batch options with every producer and epoch field given, as both encoders take them. */
export type FullOptions = Required<
  Pick<BatchOptions, 'baseOffset' | 'partitionLeaderEpoch' | 'producerId' | 'producerEpoch' | 'baseSequence'>
>;

/** Header keys kafkajs's decoder can represent: its header object is a plain {}, so Object.prototype names clash. */
export const headerKeyArb = fc.string({ unit: 'binary', maxLength: 10 }).filter((key) => !(key in {}));
export const bufferArb = (maxLength: number) => fc.uint8Array({ maxLength }).map((array) => Buffer.from(array));
export const nullableBufferArb = (maxLength: number) => fc.option(bufferArb(maxLength), { nil: null, freq: 4 });

/** Default spread of timestamps within a batch: ±2^40 ms, so deltas need more than 32 bits (varlong, not varint). */
export const WIDE_SKEW = 2 ** 40;

/**
 * @platformatic/kafka 1.35.0 (through @platformatic/dynamic-buffer 0.3.1) zig-zags varlongs with `value >> 31n`
 * where Kafka's ByteUtils.writeVarlong uses `value >> 63`, so it writes timestamp deltas of 2^31 ms or more wrongly
 * (2^31 comes out as -1). Brook, kafkajs and Kafka agree; platformatic is only compared below that.
 */
export const PLATFORMATIC_SKEW = 2 ** 30 - 1;

export const recordsArb = (options: { nullHeaderValues: boolean; firstIsOldest: boolean; maxSkew?: number }) =>
  fc
    .tuple(
      fc.integer({ min: 2 ** 40, max: 2 ** 42 }),
      fc.array(
        fc.record({
          key: nullableBufferArb(40),
          value: nullableBufferArb(300),
          headers: fc.array(
            fc.record({ key: headerKeyArb, value: options.nullHeaderValues ? nullableBufferArb(20) : bufferArb(20) }),
            { maxLength: 4 },
          ),
          skew: fc.oneof(
            fc.integer({ min: -1000, max: 1000 }),
            fc.integer({ min: -(options.maxSkew ?? WIDE_SKEW), max: options.maxSkew ?? WIDE_SKEW }),
          ),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    )
    .map(([base, drafts]): RecordInput[] => {
      const records = drafts.map(({ skew, ...rest }) => ({ ...rest, timestamp: base + skew }));
      if (options.firstIsOldest) {
        const oldest = Math.min(...records.map((r) => r.timestamp));
        records[0] = { ...records[0], timestamp: oldest };
      }
      return records;
    });

export const optionsArb: fc.Arbitrary<FullOptions> = fc.record({
  baseOffset: fc.integer({ min: 0, max: 2 ** 50 }),
  partitionLeaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
  producerId: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 2 ** 50 })),
  producerEpoch: fc.integer({ min: -1, max: 2 ** 15 - 1 }),
  baseSequence: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
});

export const compressionArb = fc.constantFrom(CompressionType.None, CompressionType.Gzip);

/** Locates the first differing byte, so a failure names the field instead of dumping two buffers. */
export function firstDifference(a: Buffer, b: Buffer): string {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return `byte ${i}: brook ${a[i].toString(16)} vs other ${b[i].toString(16)}`;
  }
  return a.length === b.length ? 'identical' : `lengths ${a.length} vs ${b.length}`;
}

export function expectSameBytes(brook: Buffer, other: Buffer): void {
  expect(firstDifference(brook, other)).toBe('identical');
}
