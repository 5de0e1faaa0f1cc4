// Time as a port: state machines and policies take a Clock so tests drive time deterministically.
export interface Clock {
  /** Wall-clock time, epoch milliseconds (record timestamps, retention). */
  nowMs(): number;
  /** Monotonic milliseconds for leases and timeouts; never goes backwards. */
  monotonicMs(): number;
}

/** Injection token for services that take a Clock (default: systemClock when nothing is provided). */
export const CLOCK = Symbol('Clock');

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
};

/** A clock that only moves when told to; for tests and simulations. */
export class ManualClock implements Clock {
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
  advance(ms: number): void {
    this.wallMs += ms;
    this.monoMs += ms;
  }
}
