// The sparse offset index of one segment: `.index` (a sparse index file, see sparse-index.ts).
//
// Entries of 8 bytes, big-endian: relative offset (int32, offset - segment base offset), then the byte position
// of the batch with that base offset in the `.log` file (int32). Entries are strictly increasing in both fields;
// one is added every `index.interval.bytes` of log. Lookups search the relative offsets.
import { CorruptIndexError, entryBytesOf, entryCountOf, SparseIndex, type IndexFormat } from './sparse-index.js';

export { CorruptIndexError } from './sparse-index.js';

const FORMAT: IndexFormat<Int32Array> = {
  name: 'offset index',
  keyBytes: 4,
  newKeys: (capacity) => new Int32Array(capacity),
  noKeys: new Int32Array(0),
  readKey: (buffer, at) => buffer.readInt32BE(at),
  writeKey: (buffer, key, at) => buffer.writeInt32BE(key, at),
};

export const OFFSET_INDEX_ENTRY_BYTES = entryBytesOf(FORMAT);

export interface OffsetPosition {
  offset: number;
  position: number;
}

/** Keys: relative offsets; values: byte positions in the log file. */
export class OffsetIndex extends SparseIndex<Int32Array> {
  constructor(baseOffset: number, maxEntries: number) {
    super(baseOffset, maxEntries, FORMAT);
  }

  lastOffset(): number {
    return this.length === 0 ? this.baseOffset : this.baseOffset + this.keys[this.length - 1];
  }

  append(offset: number, position: number): void {
    const relative = offset - this.baseOffset;
    if (this.length > 0 && (relative <= this.keys[this.length - 1] || position <= this.values[this.length - 1])) {
      throw new Error(`offset index entries must increase: ${offset}@${position} after ${this.lastOffset()}`);
    }
    if (this.isFull()) throw new Error('offset index is full');
    this.push(relative, position);
  }

  /** The entry with the largest offset <= target; the segment start when there is none. */
  lookup(targetOffset: number): OffsetPosition {
    const found = this.floorEntry(targetOffset - this.baseOffset);
    if (found === -1) return { offset: this.baseOffset, position: 0 };
    return { offset: this.baseOffset + this.keys[found], position: this.values[found] };
  }

  /** Loads a serialized index, checking its shape against the log it indexes. */
  static parse(buffer: Buffer, baseOffset: number, maxEntries: number, logSizeBytes: number): OffsetIndex {
    const index = new OffsetIndex(baseOffset, Math.max(maxEntries, entryCountOf(buffer, FORMAT)));
    index.load(buffer, (relative, position) => {
      if (relative < 0 || position < 0 || position >= logSizeBytes)
        throw new CorruptIndexError(`offset index entry ${relative}@${position} outside the log`);
      try {
        index.append(baseOffset + relative, position);
      } catch (error) {
        throw new CorruptIndexError((error as Error).message);
      }
    });
    return index;
  }

  protected relativeOffsetAt(entry: number): number {
    return this.keys[entry];
  }
}
