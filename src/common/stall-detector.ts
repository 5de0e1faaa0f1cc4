// Notices that this process did not run for a while (SIGSTOP, a VM paused, a long GC pause), pure: a timer calls
// beat() every few hundred milliseconds; a gap between beats longer than the bound means the process may have
// slept through a broker session, so what it learnt before the gap (who leads what) may be out of date, and it
// must not act on it until it has looked again. The gap shows even before the timer runs again after the wake-up:
// suspect() compares the clock with the last beat, so the first request served after a pause already sees it.
//
// Suspicion is cleared by refreshed(token) with the token refreshStarting() gave when the refresh began: a refresh
// begun before (or during) a stall does not clear it.
import type { Clock } from './clock.js';

export class StallDetector {
  private lastBeatMs: number;
  private stalls = 0;
  private clearedUpTo = 0;

  constructor(
    private readonly clock: Clock,
    /** A gap longer than this is a stall (a broker session: others may have acted on this process's absence). */
    private readonly boundMs: number,
  ) {
    this.lastBeatMs = clock.monotonicMs();
  }

  /** The timer's beat; true when a stall ended just now (the caller then refreshes what it knows). */
  beat(): boolean {
    const nowMs = this.clock.monotonicMs();
    const stalled = nowMs - this.lastBeatMs > this.boundMs;
    this.lastBeatMs = nowMs;
    if (stalled) this.stalls++;
    return stalled;
  }

  /** Whether what was learnt before now may be stale: a stall not yet followed by a refresh, or one under way. */
  suspect(): boolean {
    return this.clock.monotonicMs() - this.lastBeatMs > this.boundMs || this.clearedUpTo < this.stalls;
  }

  /** A refresh starts: the token to give refreshed() once it has completed. */
  refreshStarting(): number {
    return this.stalls;
  }

  /** A refresh that started with `token` completed: the stalls before it are cleared. */
  refreshed(token: number): void {
    if (token > this.clearedUpTo) this.clearedUpTo = token;
  }
}
