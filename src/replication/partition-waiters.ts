// Long-poll waiters: requests parked until a partition's offset (its high watermark, or its leader's log end)
// passes theirs, their wait runs out (a Clock timer) or their signal aborts. OffsetWaiters holds one partition's;
// PartitionWaiters holds them by partition key. Bounded: the waiters sharing a WaiterBudget are at most its
// `max` (WAITERS_MAX by default); beyond that a wait returns at once.
import type { WaitSignal } from '../common/client-gone.js';
import type { Clock } from '../common/clock.js';

export const WAITERS_MAX = 10_000;

/** A bound shared by several waiter sets; `parked` counts the waiters parked in all of them. */
export class WaiterBudget {
  private count = 0;
  private readonly emptied = new Set<() => void>();

  constructor(readonly max = WAITERS_MAX) {}

  get parked(): number {
    return this.count;
  }

  get full(): boolean {
    return this.count >= this.max;
  }

  take(): void {
    this.count++;
  }

  release(): void {
    this.count--;
    if (this.count === 0) for (const wake of [...this.emptied]) wake();
  }

  /** Resolves once no waiter is parked, or after `waitMs` on `clock`. */
  untilEmpty(clock: Clock, waitMs: number): Promise<void> {
    if (this.count === 0 || waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        cancel();
        this.emptied.delete(wake);
        resolve();
      };
      const cancel = clock.setTimer(waitMs, wake);
      this.emptied.add(wake);
    });
  }
}

interface Waiter {
  offset: number;
  wake: () => void;
}

/** The waiters of one partition (their set made on the first wait: most partitions of a broker never have one). */
export class OffsetWaiters {
  private waiters: Set<Waiter> | undefined;

  constructor(
    private readonly clock: Clock,
    readonly budget: WaiterBudget,
  ) {}

  get parked(): number {
    return this.waiters?.size ?? 0;
  }

  /**
   * Resolves when `notify` reports an offset above `offset`, after `waitMs`, or when `signal` aborts. `onWoken` runs
   * synchronously when the waiter leaves the set, before the promise's reactions (PartitionWaiters forgets an
   * emptied set there, so that the waiter's caller resumes one reaction after the wake, not three).
   */
  wait(offset: number, waitMs: number, signal?: WaitSignal, onWoken?: () => void): Promise<void> {
    if (waitMs <= 0 || this.budget.full || signal?.aborted === true) return Promise.resolve();
    const waiters = (this.waiters ??= new Set());
    return new Promise<void>((resolve) => {
      const waiter: Waiter = {
        offset,
        wake: () => {
          cancel();
          signal?.removeEventListener('abort', waiter.wake);
          if (waiters.delete(waiter)) {
            this.budget.release();
            onWoken?.();
          }
          resolve();
        },
      };
      const cancel = this.clock.setTimer(waitMs, waiter.wake);
      signal?.addEventListener('abort', waiter.wake, { once: true });
      waiters.add(waiter);
      this.budget.take();
    });
  }

  /** Wakes the waiters below `offset` (Infinity: all of them). */
  notify(offset: number): void {
    if (this.waiters === undefined || this.waiters.size === 0) return;
    for (const waiter of [...this.waiters]) if (offset > waiter.offset) waiter.wake();
  }
}

/** Waiters by partition key, sharing one budget. */
export class PartitionWaiters {
  private readonly byKey = new Map<string, OffsetWaiters>();
  readonly budget: WaiterBudget;

  constructor(
    private readonly clock: Clock,
    budget?: WaiterBudget,
  ) {
    this.budget = budget ?? new WaiterBudget();
  }

  /** How many requests are parked now. */
  get parked(): number {
    return this.budget.parked;
  }

  /** How many partitions have a request parked (a partition's set is dropped once emptied). */
  get partitionsWaitedOn(): number {
    return this.byKey.size;
  }

  wait(key: string, offset: number, waitMs: number, signal?: WaitSignal): Promise<void> {
    let waiters = this.byKey.get(key);
    if (waiters === undefined) this.byKey.set(key, (waiters = new OffsetWaiters(this.clock, this.budget)));
    const parked = waiters;
    const forgetEmptied = () => {
      if (parked.parked === 0 && this.byKey.get(key) === parked) this.byKey.delete(key);
    };
    const waiting = parked.wait(offset, waitMs, signal, forgetEmptied);
    forgetEmptied(); // a wait that returned at once (no time, the budget full, aborted) parked nothing
    return waiting;
  }

  notify(key: string, offset: number): void {
    this.byKey.get(key)?.notify(offset);
  }

  /** Whether a request is parked on `key`. */
  hasParked(key: string): boolean {
    return (this.byKey.get(key)?.parked ?? 0) > 0;
  }
}
