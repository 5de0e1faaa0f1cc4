// The compaction cleaner's key -> latest offset map over the dirty part of a log (Kafka's OffsetMap). It is bounded
// twice, by key count and by key bytes, as Kafka bounds its dedupe buffer: when the next new key does not fit, the
// map is full and this cleaning round ends at `latestOffset`; the next round maps on from there.
//
// Keys are held as latin1 strings, which map each byte to one character, so distinct byte strings stay distinct
// (no hashing, no collisions) and V8 stores them one byte per character.

/** Most distinct keys one cleaning round maps. */
export const OFFSET_MAP_KEYS_MAX = 1_000_000;
/** Most key bytes one cleaning round holds (Kafka's default log.cleaner.dedupe.buffer.size). */
export const OFFSET_MAP_KEY_BYTES_MAX = 128 * 1024 * 1024;

export interface OffsetMapBounds {
  keysMax: number;
  keyBytesMax: number;
}

export const DEFAULT_OFFSET_MAP_BOUNDS: Readonly<OffsetMapBounds> = Object.freeze({
  keysMax: OFFSET_MAP_KEYS_MAX,
  keyBytesMax: OFFSET_MAP_KEY_BYTES_MAX,
});

export class OffsetMap {
  private readonly offsets = new Map<string, number>();
  private keyBytes = 0;
  private latest = -1;

  constructor(readonly bounds: OffsetMapBounds = DEFAULT_OFFSET_MAP_BOUNDS) {
    if (!(bounds.keysMax >= 1 && bounds.keyBytesMax >= 1)) throw new RangeError('an offset map holds at least one key');
  }

  get size(): number {
    return this.offsets.size;
  }

  /** Every offset up to and including this one was looked at (mapped, keyless, or a gap); -1 before any. */
  get latestOffset(): number {
    return this.latest;
  }

  /**
   * Records `offset` as the latest offset of `key`. Offsets come in ascending order. Returns false, changing
   * nothing, when the key is new and would pass a bound: the map is full. An empty map takes any key, so every
   * round makes progress.
   */
  put(key: Buffer, offset: number): boolean {
    if (offset <= this.latest) throw new RangeError(`offset ${offset} put after ${this.latest}`);
    const text = key.toString('latin1');
    if (!this.offsets.has(text) && this.offsets.size > 0) {
      if (this.offsets.size + 1 > this.bounds.keysMax || this.keyBytes + key.length > this.bounds.keyBytesMax)
        return false;
    }
    if (!this.offsets.has(text)) this.keyBytes += key.length;
    this.offsets.set(text, offset);
    this.latest = offset;
    return true;
  }

  /** The latest offset mapped for `key`, or undefined when the key was not seen. */
  get(key: Buffer): number | undefined {
    return this.offsets.get(key.toString('latin1'));
  }

  /** Marks offsets up to `offset` as looked at (keyless records, the rest of a batch or segment, gaps). */
  markScannedThrough(offset: number): void {
    if (offset > this.latest) this.latest = offset;
  }
}
