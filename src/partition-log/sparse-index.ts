// What a segment's two indexes (offset-index.ts, time-index.ts) share: a sparse index file of fixed-width entries,
// big-endian, each a search key followed by an int32, with no header. Each index's file describes its entry layout.
//
// Entries are added in increasing key order as the segment grows (one per index.interval.bytes of log), at most
// maxEntries of them. The file is not checksummed: it is written whole when the segment is rolled, flushed or
// closed, checked against the index's ordering rules when loaded, and rebuilt from the log after an unclean
// shutdown. In memory an index is two growing typed arrays, one per field; lookups are binary searches on the key.
// An index without entries (most of them: a segment gets its first entry after index.interval.bytes of log) holds
// shared empty arrays, its own allocated on the first entry: ~1 KB a partition less on a broker with many idle ones.

export class CorruptIndexError extends Error {}

/** Typed arrays start this long (on the first entry) and double, up to maxEntries. */
const INITIAL_CAPACITY = 16;
/** The second field of every entry is an int32. */
const VALUE_BYTES = 4;

type KeyArray = Int32Array | Float64Array;

/** How an index holds and stores its key field. */
export interface IndexFormat<Keys extends KeyArray> {
  /** For error messages: "offset index", "time index". */
  name: string;
  keyBytes: 4 | 8;
  newKeys(capacity: number): Keys;
  /** A zero-length key array shared by the indexes without entries (never written: the first push grows). */
  noKeys: Keys;
  readKey(buffer: Buffer, at: number): number;
  writeKey(buffer: Buffer, key: number, at: number): void;
}

export function entryBytesOf(format: IndexFormat<KeyArray>): number {
  return format.keyBytes + VALUE_BYTES;
}

/** The value array of every index without entries (zero-length, never written). */
const NO_VALUES = new Int32Array(0);

export abstract class SparseIndex<Keys extends KeyArray> {
  protected keys: Keys;
  protected values = NO_VALUES;
  protected length = 0;

  protected constructor(
    readonly baseOffset: number,
    readonly maxEntries: number,
    private readonly format: IndexFormat<Keys>,
  ) {
    this.keys = format.noKeys;
  }

  get entries(): number {
    return this.length;
  }

  isFull(): boolean {
    return this.length >= this.maxEntries;
  }

  /** Drops every entry at or above `offset`. */
  truncateTo(offset: number): void {
    while (this.length > 0 && this.baseOffset + this.relativeOffsetAt(this.length - 1) >= offset) this.length--;
  }

  clear(): void {
    this.length = 0;
  }

  serialize(): Buffer {
    const entryBytes = entryBytesOf(this.format);
    const buffer = Buffer.allocUnsafe(this.length * entryBytes);
    for (let i = 0; i < this.length; i++) {
      this.format.writeKey(buffer, this.keys[i], i * entryBytes);
      buffer.writeInt32BE(this.values[i], i * entryBytes + this.format.keyBytes);
    }
    return buffer;
  }

  /** The offset (relative to the base offset) that entry `entry` names. */
  protected abstract relativeOffsetAt(entry: number): number;

  /** Adds an entry after the last one; the caller has checked its order and the bound. */
  protected push(key: number, value: number): void {
    if (this.length === this.keys.length) this.grow();
    this.keys[this.length] = key;
    this.values[this.length] = value;
    this.length++;
  }

  /** The entry with the largest key <= `target`; -1 when there is none. */
  protected floorEntry(target: number): number {
    let low = 0;
    let high = this.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle] <= target) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** Passes each entry of a serialized index to `add`, in file order (`add` checks and keeps it). */
  protected load(buffer: Buffer, add: (key: number, value: number) => void): void {
    const entryBytes = entryBytesOf(this.format);
    for (let at = 0; at < buffer.length; at += entryBytes) {
      add(this.format.readKey(buffer, at), buffer.readInt32BE(at + this.format.keyBytes));
    }
  }

  private grow(): void {
    const capacity = Math.min(
      Math.max(this.keys.length * 2, INITIAL_CAPACITY),
      Math.max(this.maxEntries, INITIAL_CAPACITY),
    );
    const keys = this.format.newKeys(capacity);
    const values = new Int32Array(capacity);
    keys.set(this.keys);
    values.set(this.values);
    this.keys = keys;
    this.values = values;
  }
}

/** The number of entries in a serialized index; throws CorruptIndexError unless its size is whole entries. */
export function entryCountOf(buffer: Buffer, format: IndexFormat<KeyArray>): number {
  const entryBytes = entryBytesOf(format);
  if (buffer.length % entryBytes !== 0) {
    throw new CorruptIndexError(`${format.name} size is not a whole number of entries`);
  }
  return buffer.length / entryBytes;
}
