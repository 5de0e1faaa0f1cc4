// Byte-for-byte and decode compatibility of Brook's v2 record-batch codec with @platformatic/kafka 1.35.0; kafkajs's
// is in record-batch.kafkajs.interop.spec.ts.
import {
  createRecordsBatch,
  type MessageRecord,
  type CreateRecordsBatchOptions,
  Reader,
  readRecordsBatch,
  type RecordsBatch,
} from '@platformatic/kafka';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionType } from './compression.js';
import { decodeRecords, encodeBatch, type RecordInput, validateBatch } from './record-batch.js';
import {
  compressionArb,
  expectedViews,
  expectSameBytes,
  type FullOptions,
  hex,
  optionsArb,
  PLATFORMATIC_SKEW,
  recordsArb,
  view,
} from '../../test/support/record-batch-interop.js';

// ---------------------------------------------------------------------------------------------------------------
// @platformatic/kafka

function platformaticMessages(records: RecordInput[]): MessageRecord[] {
  return records.map((r) => ({
    topic: 't',
    partition: 0,
    key: r.key ?? undefined,
    value: r.value as Buffer, // null is written as length -1, which is what we want
    timestamp: BigInt(r.timestamp),
    headers: new Map((r.headers ?? []).map((h) => [Buffer.from(h.key, 'utf8'), h.value as Buffer])),
  }));
}

function platformaticEncode(records: RecordInput[], options: FullOptions, compression: CompressionType): Buffer {
  const batchOptions: Partial<CreateRecordsBatchOptions> = {
    compression: compression === CompressionType.Gzip ? 'gzip' : 'none',
    producerId: BigInt(options.producerId),
    producerEpoch: options.producerEpoch,
    partitionLeaderEpoch: options.partitionLeaderEpoch,
    // platformatic looks the base sequence up per topic-partition in its own map type.
    sequences: { getWithDefault: () => options.baseSequence } as unknown as CreateRecordsBatchOptions['sequences'],
  };
  return createRecordsBatch(platformaticMessages(records), batchOptions).buffer;
}

const platformaticDecode = (batch: Buffer): RecordsBatch => readRecordsBatch(Reader.from(batch));

describe('@platformatic/kafka 1.35.0 compatibility', () => {
  // platformatic always writes baseOffset 0 and bases timestamps on the first record, so for byte equality the
  // first record is made the oldest and baseOffset is 0.
  it('property: batches are byte-identical to createRecordsBatch (none and gzip, null header values included)', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: true, maxSkew: PLATFORMATIC_SKEW }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const atZero = { ...options, baseOffset: 0 };
          const brook = encodeBatch(records, { ...atZero, compression });
          expectSameBytes(brook, platformaticEncode(records, atZero, compression));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: Brook decodes platformatic batches, including ones whose first record is not the oldest', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: false, maxSkew: PLATFORMATIC_SKEW }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const batch = platformaticEncode(records, options, compression);
          const header = validateBatch(batch);
          expect(header.baseTimestamp).toBe(records[0].timestamp);
          expect(header.maxTimestamp).toBe(Math.max(...records.map((r) => r.timestamp)));
          expect(header.baseSequence).toBe(options.baseSequence);
          expect(decodeRecords(batch).map(view)).toEqual(expectedViews(records, 0));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: platformatic decodes Brook batches (its varlong reader is right, so full-width deltas)', () => {
    fc.assert(
      fc.property(
        recordsArb({ nullHeaderValues: true, firstIsOldest: false }),
        optionsArb,
        compressionArb,
        (records, options, compression) => {
          const decoded = platformaticDecode(encodeBatch(records, { ...options, compression }));
          const baseTimestamp = Math.min(...records.map((r) => r.timestamp));
          expect(decoded).toMatchObject({
            firstOffset: BigInt(options.baseOffset),
            partitionLeaderEpoch: options.partitionLeaderEpoch,
            magic: 2,
            attributes: compression,
            lastOffsetDelta: records.length - 1,
            firstTimestamp: BigInt(baseTimestamp),
            producerId: BigInt(options.producerId),
            producerEpoch: options.producerEpoch,
            firstSequence: options.baseSequence,
          });
          expect(
            decoded.records.map((r) => ({
              offsetDelta: r.offsetDelta,
              timestamp: Number(BigInt(baseTimestamp) + r.timestampDelta),
              key: hex(r.key),
              value: hex(r.value),
              headers: r.headers.map(([key, value]) => ({ key: key?.toString('utf8'), value: hex(value) })),
            })),
          ).toEqual(
            records.map((r, i) => ({
              offsetDelta: i,
              timestamp: r.timestamp,
              key: hex(r.key),
              value: hex(r.value),
              headers: (r.headers ?? []).map((h) => ({ key: h.key, value: hex(h.value) })),
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
