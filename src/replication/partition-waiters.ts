// Long-poll waiters of one broker: readers parked until a partition's high watermark passes their offset or their
// wait runs out. Bounded: at most WAITERS_MAX parked readers; beyond that a read returns at once.

export const WAITERS_MAX = 10_000;

interface Waiter {
  offset: number;
  wake: () => void;
}

export class PartitionWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private count = 0;

  /** How many readers are parked now. */
  get parked(): number {
    return this.count;
  }

  /** Resolves when `notify` reports a high watermark above `offset`, or after `waitMs`. */
  wait(key: string, offset: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    if (waitMs <= 0 || this.count >= WAITERS_MAX || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(key);
      if (set === undefined) this.waiters.set(key, (set = new Set()));
      const waiter: Waiter = {
        offset,
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.wake);
          if (set!.delete(waiter)) this.count--;
          if (set!.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, waitMs);
      signal?.addEventListener('abort', waiter.wake, { once: true });
      set.add(waiter);
      this.count++;
    });
  }

  notify(key: string, highWatermark: number): void {
    const set = this.waiters.get(key);
    if (set === undefined) return;
    for (const waiter of [...set]) if (highWatermark > waiter.offset) waiter.wake();
  }
}
