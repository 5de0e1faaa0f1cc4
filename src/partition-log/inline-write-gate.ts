// Whether a leader's append is written on the JavaScript thread (log-write-pipeline.ts) instead of as a job in
// libuv's thread pool. Measured on this 2-core machine (a file on the data disk, 400 writes each): a writev into the
// page cache takes 7 us (16 KiB), 18 us (64 KiB) and 22 us (256 KiB) at the median, 20-97 us at p99, while a pool
// job's round trip for the same write took 76-155 us at the median and 0.7-4 ms at p99 (the job queued to a worker,
// its completion back to the loop: two thread switches, each waiting for a core). A write that needs no check (a
// batch Brook built) and finds no other write of the log in flight is written here, when small: the loop pays less
// for the copy than for handing it off, and the append is answered, and its readers woken, without the wait.
//
// The prices, and the gate's answers to them:
// - A write the kernel holds (dirty-page throttling, a journal commit) holds the whole loop, not one pool thread. So
//   one inline write slower than `slowMs` closes the gate for `pauseMs`, broker-wide: the writes go to the pool
//   until then, and the loop has paid for one slow write, not one per partition. Kafka's request handlers write to
//   the page cache in the same way, on their own threads.
// - A loop with no time to spare (a saturating produce load) is slowed by every copy it takes on, where the pool's
//   thread would have made it on the other core: W1 (8 connections of 110 KB batches, the loop saturated) read 0.82-0.98
//   of the build without inline writes. So the gate also asks how busy the loop was (its event-loop utilization,
//   sampled at most every LOOP_SAMPLE_MS while writes come): above INLINE_LOOP_UTILIZATION_MAX, writes go to the pool.
import { performance } from 'node:perf_hooks';
import type { Clock } from '../common/clock.js';

/** The largest leader write done on the JavaScript thread. */
export const INLINE_LEADER_WRITE_BYTES_MAX = 256 * 1024;
/** An inline write slower than this closes the gate. */
export const INLINE_WRITE_SLOW_MS = 20;
/** How long the gate stays closed after a slow inline write. */
export const INLINE_WRITE_PAUSE_MS = 60_000;
/** Above this event-loop utilization (since the last sample) the loop has no time to spare for writes. */
export const INLINE_LOOP_UTILIZATION_MAX = 0.5;
/** The loop's utilization is sampled at most this often (while writes ask). */
export const LOOP_SAMPLE_MS = 100;

/** How busy the JavaScript thread's loop has been. */
export interface LoopMeter {
  /** The loop's busy fraction (0-1) since the last call (or since the meter was made). */
  utilizationSinceLast(): number;
}

/** This process's loop, from Node's event-loop utilization. */
export function processLoopMeter(): LoopMeter {
  let last = performance.eventLoopUtilization();
  return {
    utilizationSinceLast() {
      const now = performance.eventLoopUtilization();
      const utilization = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return utilization;
    },
  };
}

export class InlineWriteGate {
  private closedUntilMs = Number.NEGATIVE_INFINITY;
  private loopSampledAtMs = Number.NEGATIVE_INFINITY;
  private loopBusy = false;

  constructor(
    private readonly clock: Clock,
    /** The loop's meter; null: the loop is not asked (a log opened alone, tests). */
    private readonly loop: LoopMeter | null = null,
    readonly slowMs = INLINE_WRITE_SLOW_MS,
    readonly pauseMs = INLINE_WRITE_PAUSE_MS,
    /** Told when a slow write closes the gate (the broker logs it): how long that write took, ms. */
    private readonly onClosed: (tookMs: number) => void = () => {},
  ) {}

  /** Whether a write of `bytes` may be done inline now. */
  allows(bytes: number): boolean {
    if (bytes > INLINE_LEADER_WRITE_BYTES_MAX) return false;
    const nowMs = this.clock.monotonicMs();
    if (nowMs < this.closedUntilMs) return false;
    if (this.loop !== null && nowMs - this.loopSampledAtMs >= LOOP_SAMPLE_MS) {
      this.loopBusy = this.loop.utilizationSinceLast() > INLINE_LOOP_UTILIZATION_MAX;
      this.loopSampledAtMs = nowMs;
    }
    return !this.loopBusy;
  }

  /** Runs `write` (a synchronous write on this thread) and closes the gate when it took longer than `slowMs`. */
  timed<T>(write: () => T): T {
    const startedMs = this.clock.monotonicMs();
    try {
      return write();
    } finally {
      const endedMs = this.clock.monotonicMs();
      if (endedMs - startedMs > this.slowMs) {
        this.closedUntilMs = endedMs + this.pauseMs;
        this.onClosed(endedMs - startedMs);
      }
    }
  }
}
