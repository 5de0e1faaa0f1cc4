// Time as a port: state machines and policies take a Clock so tests drive time deterministically. Timers are part
// of the port: a wait that a timer ends (a long poll, an acks=all timeout, a periodic task) is set through the
// clock, so a ManualClock fires it when a test advances time.
export interface Clock {
  /** Wall-clock time, epoch milliseconds (record timestamps, retention). */
  nowMs(): number;
  /** Monotonic milliseconds for leases and timeouts; never goes backwards. */
  monotonicMs(): number;
  /**
   * Calls `fn` once, `ms` monotonic milliseconds from now; returns the function that cancels it (a no-op once it
   * fired). A `background` timer does not keep the process alive (Node's unref).
   */
  setTimer(ms: number, fn: () => void, options?: TimerOptions): CancelTimer;
}

export interface TimerOptions {
  background?: boolean;
}

export type CancelTimer = () => void;

/** Injection token for services that take a Clock (default: systemClock when nothing is provided). */
export const CLOCK = Symbol('Clock');

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimer: (ms, fn, options) => {
    const timer = setTimeout(fn, ms);
    if (options?.background === true) timer.unref();
    return () => clearTimeout(timer);
  },
};

/** Resolves after `ms` on `clock`'s timers, or at once when `signal` aborts (never rejects). */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const cancel = clock.setTimer(ms, done);
    function done() {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Calls `fn` every `intervalMs` on `clock`'s timers (background: it keeps no process alive) until cancelled. */
export function everyMs(clock: Clock, intervalMs: number, fn: () => void): CancelTimer {
  let cancelled = false;
  let cancel: CancelTimer = () => undefined;
  const schedule = () => {
    cancel = clock.setTimer(
      intervalMs,
      () => {
        if (cancelled) return;
        schedule();
        fn();
      },
      { background: true },
    );
  };
  schedule();
  return () => {
    cancelled = true;
    cancel();
  };
}

interface ManualTimer {
  dueMs: number;
  sequence: number;
  fn: () => void;
}

/** A clock that only moves when told to; for tests and simulations. Its timers fire as `advance` passes them. */
export class ManualClock implements Clock {
  private readonly timers = new Set<ManualTimer>();
  private sequence = 0;

  constructor(
    private wallMs = 1_700_000_000_000,
    private monoMs = 0,
  ) {}
  nowMs(): number {
    return this.wallMs;
  }
  monotonicMs(): number {
    return this.monoMs;
  }
  setTimer(ms: number, fn: () => void): CancelTimer {
    const timer: ManualTimer = { dueMs: this.monoMs + Math.max(0, ms), sequence: this.sequence++, fn };
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  }
  /** Timers set and not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.timers.size;
  }
  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way in due order (the clock reads each
   * timer's due time while it runs); timers set by those callbacks fire too when they fall within `ms`.
   */
  advance(ms: number): void {
    const targetMs = this.monoMs + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.timers) {
        if (timer.dueMs > targetMs) continue;
        if (
          next === undefined ||
          timer.dueMs < next.dueMs ||
          (timer.dueMs === next.dueMs && timer.sequence < next.sequence)
        )
          next = timer;
      }
      if (next === undefined) break;
      this.timers.delete(next);
      this.wallMs += next.dueMs - this.monoMs;
      this.monoMs = next.dueMs;
      next.fn();
    }
    this.wallMs += targetMs - this.monoMs;
    this.monoMs = targetMs;
  }
}
