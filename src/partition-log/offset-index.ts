// The sparse offset index of one segment: `.index`.
//
// Entries of 8 bytes, big-endian: relative offset (int32, offset - segment base offset), then the byte position
// of the batch with that base offset in the `.log` file (int32). Entries are strictly increasing in both fields;
// one is added every `index.interval.bytes` of log. The file is not checksummed: it is written whole when the
// segment is rolled, flushed or closed, checked when loaded, and rebuilt from the log after an unclean shutdown.
// In memory it is two growing typed arrays; lookups are binary searches.

export const OFFSET_INDEX_ENTRY_BYTES = 8;

export interface OffsetPosition {
  offset: number;
  position: number;
}

export class CorruptIndexError extends Error {}

export class OffsetIndex {
  private relativeOffsets = new Int32Array(16);
  private positions = new Int32Array(16);
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

  lastOffset(): number {
    return this.length === 0 ? this.baseOffset : this.baseOffset + this.relativeOffsets[this.length - 1];
  }

  append(offset: number, position: number): void {
    const relative = offset - this.baseOffset;
    if (
      this.length > 0 &&
      (relative <= this.relativeOffsets[this.length - 1] || position <= this.positions[this.length - 1])
    ) {
      throw new Error(`offset index entries must increase: ${offset}@${position} after ${this.lastOffset()}`);
    }
    if (this.isFull()) throw new Error('offset index is full');
    if (this.length === this.relativeOffsets.length) this.grow();
    this.relativeOffsets[this.length] = relative;
    this.positions[this.length] = position;
    this.length++;
  }

  /** The entry with the largest offset <= target; the segment start when there is none. */
  lookup(targetOffset: number): OffsetPosition {
    const relative = targetOffset - this.baseOffset;
    let low = 0;
    let high = this.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.relativeOffsets[middle] <= relative) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found === -1) return { offset: this.baseOffset, position: 0 };
    return { offset: this.baseOffset + this.relativeOffsets[found], position: this.positions[found] };
  }

  /** Drops every entry at or above `offset`. */
  truncateTo(offset: number): void {
    while (this.length > 0 && this.baseOffset + this.relativeOffsets[this.length - 1] >= offset) this.length--;
  }

  clear(): void {
    this.length = 0;
  }

  serialize(): Buffer {
    const buffer = Buffer.allocUnsafe(this.length * OFFSET_INDEX_ENTRY_BYTES);
    for (let i = 0; i < this.length; i++) {
      buffer.writeInt32BE(this.relativeOffsets[i], i * OFFSET_INDEX_ENTRY_BYTES);
      buffer.writeInt32BE(this.positions[i], i * OFFSET_INDEX_ENTRY_BYTES + 4);
    }
    return buffer;
  }

  /** Loads a serialized index, checking its shape against the log it indexes. */
  static parse(buffer: Buffer, baseOffset: number, maxEntries: number, logSizeBytes: number): OffsetIndex {
    if (buffer.length % OFFSET_INDEX_ENTRY_BYTES !== 0)
      throw new CorruptIndexError('offset index size is not a whole number of entries');
    const index = new OffsetIndex(baseOffset, Math.max(maxEntries, buffer.length / OFFSET_INDEX_ENTRY_BYTES));
    for (let at = 0; at < buffer.length; at += OFFSET_INDEX_ENTRY_BYTES) {
      const relative = buffer.readInt32BE(at);
      const position = buffer.readInt32BE(at + 4);
      if (relative < 0 || position < 0 || position >= logSizeBytes)
        throw new CorruptIndexError(`offset index entry ${relative}@${position} outside the log`);
      try {
        index.append(baseOffset + relative, position);
      } catch (error) {
        throw new CorruptIndexError((error as Error).message);
      }
    }
    return index;
  }

  private grow(): void {
    const capacity = Math.min(this.relativeOffsets.length * 2, Math.max(this.maxEntries, 16));
    const offsets = new Int32Array(capacity);
    const positions = new Int32Array(capacity);
    offsets.set(this.relativeOffsets);
    positions.set(this.positions);
    this.relativeOffsets = offsets;
    this.positions = positions;
  }
}
