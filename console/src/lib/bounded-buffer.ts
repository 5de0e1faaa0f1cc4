// The live tail's memory: the newest `capacity` records, oldest dropped first, so that a tail at thousands of
// records a second keeps a fixed amount of memory and a list the virtualiser can draw.
export class BoundedBuffer<T> {
  private items: T[] = [];
  private droppedCount = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`capacity must be a positive integer: ${capacity}`);
  }

  /** Appends, dropping the oldest beyond the capacity; returns a new array (React state stays immutable). */
  push(batch: readonly T[]): readonly T[] {
    const next = this.items.concat(batch);
    const excess = next.length - this.capacity;
    if (excess > 0) {
      this.droppedCount += excess;
      this.items = next.slice(excess);
    } else {
      this.items = next;
    }
    return this.items;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  clear(): readonly T[] {
    this.items = [];
    this.droppedCount = 0;
    return this.items;
  }
}
