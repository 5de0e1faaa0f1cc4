// The sparse time index of one segment: `.timeindex` (a sparse index file, see sparse-index.ts).
//
// Entries of 12 bytes, big-endian: a timestamp (int64, epoch ms) then a relative offset (int32). An entry says
// "every record before this offset has a timestamp below this one"; in Kafka's terms it maps the largest
// timestamp seen so far to the offset of the batch that carried it. Timestamps strictly increase from entry to
// entry, offsets never decrease. Lookups search the timestamps.
import { CorruptIndexError, entryBytesOf, entryCountOf, SparseIndex, type IndexFormat } from './sparse-index.js';

const FORMAT: IndexFormat<Float64Array> = {
  name: 'time index',
  keyBytes: 8,
  newKeys: (capacity) => new Float64Array(capacity),
  noKeys: new Float64Array(0),
  readKey: (buffer, at) => Number(buffer.readBigInt64BE(at)),
  writeKey: (buffer, key, at) => buffer.writeBigInt64BE(BigInt(key), at),
};

export const TIME_INDEX_ENTRY_BYTES = entryBytesOf(FORMAT);

export interface TimestampOffset {
  timestamp: number;
  offset: number;
}

/** Keys: timestamps; values: relative offsets. */
export class TimeIndex extends SparseIndex<Float64Array> {
  constructor(baseOffset: number, maxEntries: number) {
    super(baseOffset, maxEntries, FORMAT);
  }

  lastTimestamp(): number {
    return this.length === 0 ? -1 : this.keys[this.length - 1];
  }

  /** Adds an entry only when the timestamp moves past the last one (the index stays strictly increasing). */
  maybeAppend(timestamp: number, offset: number): void {
    if (this.length > 0 && timestamp <= this.keys[this.length - 1]) return;
    if (this.length > 0 && offset - this.baseOffset < this.values[this.length - 1]) return;
    if (this.isFull()) return;
    this.push(timestamp, offset - this.baseOffset);
  }

  /** The entry with the largest timestamp <= target; the segment start when there is none. */
  lookup(targetTimestamp: number): TimestampOffset {
    const found = this.floorEntry(targetTimestamp);
    if (found === -1) return { timestamp: -1, offset: this.baseOffset };
    return { timestamp: this.keys[found], offset: this.baseOffset + this.values[found] };
  }

  static parse(buffer: Buffer, baseOffset: number, maxEntries: number): TimeIndex {
    const index = new TimeIndex(baseOffset, Math.max(maxEntries, entryCountOf(buffer, FORMAT)));
    index.load(buffer, (timestamp, relative) => {
      const previousRelative = index.length === 0 ? 0 : index.values[index.length - 1];
      if (relative < previousRelative || timestamp <= index.lastTimestamp())
        throw new CorruptIndexError('time index entries out of order');
      index.maybeAppend(timestamp, baseOffset + relative);
    });
    return index;
  }

  protected relativeOffsetAt(entry: number): number {
    return this.values[entry];
  }
}
