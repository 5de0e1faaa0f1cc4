// The sparse time index of one segment: `.timeindex`.
//
// Entries of 12 bytes, big-endian: a timestamp (int64, epoch ms) then a relative offset (int32). An entry says
// "every record before this offset has a timestamp below this one"; in Kafka's terms it maps the largest
// timestamp seen so far to the offset of the batch that carried it. Timestamps strictly increase from entry to
// entry. Like the offset index it is written whole on roll, flush and close, and rebuilt after a crash.

import { CorruptIndexError } from './offset-index.js';

export const TIME_INDEX_ENTRY_BYTES = 12;

export interface TimestampOffset {
  timestamp: number;
  offset: number;
}

export class TimeIndex {
  private timestamps = new Float64Array(16);
  private relativeOffsets = new Int32Array(16);
  private length = 0;

  constructor(
    readonly baseOffset: number,
    readonly maxEntries: number,
  ) {}

  get entries(): number {
    return this.length;
  }

  isFull(): boolean {
    return this.length >= this.maxEntries;
  }

  lastTimestamp(): number {
    return this.length === 0 ? -1 : this.timestamps[this.length - 1];
  }

  /** Adds an entry only when the timestamp moves past the last one (the index stays strictly increasing). */
  maybeAppend(timestamp: number, offset: number): void {
    if (this.length > 0 && timestamp <= this.timestamps[this.length - 1]) return;
    if (this.length > 0 && offset - this.baseOffset < this.relativeOffsets[this.length - 1]) return;
    if (this.isFull()) return;
    if (this.length === this.timestamps.length) this.grow();
    this.timestamps[this.length] = timestamp;
    this.relativeOffsets[this.length] = offset - this.baseOffset;
    this.length++;
  }

  /** The entry with the largest timestamp <= target; the segment start when there is none. */
  lookup(targetTimestamp: number): TimestampOffset {
    let low = 0;
    let high = this.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.timestamps[middle] <= targetTimestamp) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found === -1) return { timestamp: -1, offset: this.baseOffset };
    return { timestamp: this.timestamps[found], offset: this.baseOffset + this.relativeOffsets[found] };
  }

  truncateTo(offset: number): void {
    while (this.length > 0 && this.baseOffset + this.relativeOffsets[this.length - 1] >= offset) this.length--;
  }

  clear(): void {
    this.length = 0;
  }

  serialize(): Buffer {
    const buffer = Buffer.allocUnsafe(this.length * TIME_INDEX_ENTRY_BYTES);
    for (let i = 0; i < this.length; i++) {
      buffer.writeBigInt64BE(BigInt(this.timestamps[i]), i * TIME_INDEX_ENTRY_BYTES);
      buffer.writeInt32BE(this.relativeOffsets[i], i * TIME_INDEX_ENTRY_BYTES + 8);
    }
    return buffer;
  }

  static parse(buffer: Buffer, baseOffset: number, maxEntries: number): TimeIndex {
    if (buffer.length % TIME_INDEX_ENTRY_BYTES !== 0)
      throw new CorruptIndexError('time index size is not a whole number of entries');
    const index = new TimeIndex(baseOffset, Math.max(maxEntries, buffer.length / TIME_INDEX_ENTRY_BYTES));
    for (let at = 0; at < buffer.length; at += TIME_INDEX_ENTRY_BYTES) {
      const timestamp = Number(buffer.readBigInt64BE(at));
      const relative = buffer.readInt32BE(at + 8);
      const previousRelative = index.length === 0 ? 0 : index.relativeOffsets[index.length - 1];
      if (relative < previousRelative || timestamp <= index.lastTimestamp())
        throw new CorruptIndexError('time index entries out of order');
      index.maybeAppend(timestamp, baseOffset + relative);
    }
    return index;
  }

  private grow(): void {
    const capacity = Math.min(this.timestamps.length * 2, Math.max(this.maxEntries, 16));
    const timestamps = new Float64Array(capacity);
    const offsets = new Int32Array(capacity);
    timestamps.set(this.timestamps);
    offsets.set(this.relativeOffsets);
    this.timestamps = timestamps;
    this.relativeOffsets = offsets;
  }
}
