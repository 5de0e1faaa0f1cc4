// The producer-state snapshot (Kafka's `.snapshot` file, ProducerStateManager.writeSnapshot): the producer state
// of a partition after every batch below an offset, so that opening the log replays only the batches after it.
// `<20-digit offset>.snapshot` in the partition folder (segment-files.ts); one is written when a segment rolls
// (the new segment's base offset) and at a clean close (the log end). Big-endian:
//
//   offset  size  field
//        0     2  version         1
//        2     4  crc             CRC-32C of every byte after this field, unsigned
//        6     4  entryCount
//       10     .  entries, the one changed longest ago first:
//                   8  producerId      int64 (a JavaScript safe integer)
//                   2  epoch           int16
//                   8  lastUpdateMs    int64, the broker's clock when the entry last changed
//                   1  batchCount      1..BATCHES_RETAINED_PER_PRODUCER
//                   per batch, oldest first, BATCH_BYTES each:
//                   4  firstSequence   int32
//                   4  lastSequence    int32
//                   8  firstOffset     int64
//                   4  lastOffsetDelta int32 (lastOffset - firstOffset)
//                   8  maxTimestampMs  int64
//                   8  baseTimestampMs int64
//
// A file that fails any check (version, CRC, counts, length, ranges) is refused whole: the loader deletes it and
// falls back to an older snapshot, or to the log itself. Pure: bytes in, bytes out.
import { crc32c } from './crc32c.js';
import {
  BATCHES_RETAINED_PER_PRODUCER,
  PRODUCER_ID_LIMIT,
  type BatchMetadata,
  type ProducerEntry,
} from './producer-state.js';

export const PRODUCER_SNAPSHOT_VERSION = 1;
const HEADER_BYTES = 10;
const ENTRY_HEAD_BYTES = 19;
const BATCH_BYTES = 36;
const CRC_AT = 2;
const COUNT_AT = 6;

export class CorruptProducerSnapshotError extends Error {}

export function encodeProducerSnapshot(entries: Iterable<ProducerEntry>): Buffer {
  const list = [...entries];
  let size = HEADER_BYTES;
  for (const entry of list) size += ENTRY_HEAD_BYTES + entry.batches.length * BATCH_BYTES;
  const buffer = Buffer.alloc(size);
  buffer.writeInt16BE(PRODUCER_SNAPSHOT_VERSION, 0);
  buffer.writeInt32BE(list.length, COUNT_AT);
  let at = HEADER_BYTES;
  for (const entry of list) {
    if (entry.batches.length < 1 || entry.batches.length > BATCHES_RETAINED_PER_PRODUCER) {
      throw new RangeError(`producer ${entry.producerId} has ${entry.batches.length} batches`);
    }
    buffer.writeBigInt64BE(BigInt(entry.producerId), at);
    buffer.writeInt16BE(entry.epoch, at + 8);
    buffer.writeBigInt64BE(BigInt(entry.lastUpdateMs), at + 10);
    buffer.writeInt8(entry.batches.length, at + 18);
    at += ENTRY_HEAD_BYTES;
    for (const batch of entry.batches) {
      buffer.writeInt32BE(batch.firstSequence, at);
      buffer.writeInt32BE(batch.lastSequence, at + 4);
      buffer.writeBigInt64BE(BigInt(batch.firstOffset), at + 8);
      buffer.writeInt32BE(batch.lastOffset - batch.firstOffset, at + 16);
      buffer.writeBigInt64BE(BigInt(batch.maxTimestampMs), at + 20);
      buffer.writeBigInt64BE(BigInt(batch.baseTimestampMs), at + 28);
      at += BATCH_BYTES;
    }
  }
  buffer.writeUInt32BE(crc32c(buffer.subarray(COUNT_AT)), CRC_AT);
  return buffer;
}

/** The entries of a snapshot, the one changed longest ago first; CorruptProducerSnapshotError for a bad file. */
export function decodeProducerSnapshot(buffer: Buffer): ProducerEntry[] {
  if (buffer.length < HEADER_BYTES) throw new CorruptProducerSnapshotError('truncated snapshot header');
  const version = buffer.readInt16BE(0);
  if (version !== PRODUCER_SNAPSHOT_VERSION) throw new CorruptProducerSnapshotError(`unknown version ${version}`);
  if (crc32c(buffer.subarray(COUNT_AT)) !== buffer.readUInt32BE(CRC_AT)) {
    throw new CorruptProducerSnapshotError('snapshot CRC mismatch');
  }
  const count = buffer.readInt32BE(COUNT_AT);
  if (count < 0 || count > (buffer.length - HEADER_BYTES) / (ENTRY_HEAD_BYTES + BATCH_BYTES)) {
    throw new CorruptProducerSnapshotError(`entry count ${count} does not fit the file`);
  }
  const entries: ProducerEntry[] = [];
  let at = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    if (at + ENTRY_HEAD_BYTES > buffer.length) throw new CorruptProducerSnapshotError('truncated entry');
    const producerId = safeInteger(buffer.readBigInt64BE(at));
    const epoch = buffer.readInt16BE(at + 8);
    const lastUpdateMs = safeInteger(buffer.readBigInt64BE(at + 10));
    const batchCount = buffer.readInt8(at + 18);
    at += ENTRY_HEAD_BYTES;
    if (producerId < 0 || producerId >= PRODUCER_ID_LIMIT || epoch < 0) {
      throw new CorruptProducerSnapshotError(`producer ${producerId} epoch ${epoch} out of range`);
    }
    if (batchCount < 1 || batchCount > BATCHES_RETAINED_PER_PRODUCER) {
      throw new CorruptProducerSnapshotError(`producer ${producerId} has ${batchCount} batches`);
    }
    if (at + batchCount * BATCH_BYTES > buffer.length) throw new CorruptProducerSnapshotError('truncated batches');
    const batches: BatchMetadata[] = [];
    for (let b = 0; b < batchCount; b++) {
      const firstOffset = safeInteger(buffer.readBigInt64BE(at + 8));
      const delta = buffer.readInt32BE(at + 16);
      if (firstOffset < 0 || delta < 0) throw new CorruptProducerSnapshotError('batch offsets out of range');
      batches.push({
        firstSequence: buffer.readInt32BE(at),
        lastSequence: buffer.readInt32BE(at + 4),
        firstOffset,
        lastOffset: firstOffset + delta,
        maxTimestampMs: safeInteger(buffer.readBigInt64BE(at + 20)),
        baseTimestampMs: safeInteger(buffer.readBigInt64BE(at + 28)),
      });
      at += BATCH_BYTES;
    }
    entries.push({ producerId, epoch, batches, lastUpdateMs });
  }
  if (at !== buffer.length) throw new CorruptProducerSnapshotError('bytes after the last entry');
  return entries;
}

function safeInteger(value: bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new CorruptProducerSnapshotError(`${value} is not a safe integer`);
  return number;
}
