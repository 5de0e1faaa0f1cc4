// Keeps V8's old-generation limit at least OLD_GENERATION_BUDGET_BYTES above the live old generation, so that a
// broker under produce load does not fall into back-to-back mark-compacts (W1's "slow mode": 20-55 mark-compacts in
// a 6 s run instead of 2, main / base 0.60 instead of 0.88; W5's p99 frames all overlapping one).
//
// Why it happens (V8 11.3, heap.cc RecomputeLimits and heap-controller.cc, read with --trace-gc-verbose):
//   - After each mark-compact V8 sets the limit to max(live * factor, live + 8 MB) + the young generation's
//     capacity, and starts incremental marking once the old generation *plus the external memory allocated since
//     that mark-compact* comes within the young generation's capacity of it (Heap::OldGenerationSpaceAvailable).
//     So the budget between two mark-compacts is max(live * (factor - 1), 8 MB) of old-generation growth and
//     external memory together.
//   - The factor comes from the mark-compact's speed over the old generation's *on-heap* allocation rate of the
//     last 5 s (target mutator utilisation 0.97), within [1.1, 4]. A produce request allocates little on the old
//     heap (1.8-2.7 KB promoted a W1 request) but several ArrayBuffers outside it (socket reads, the body, the
//     batch: ~3x the body), which V8 counts as external memory and frees only at a young-generation collection
//     (up to 32 MB of them pile up between two, Heap::AllocateExternalBackingStore) or, once promoted, a
//     mark-compact.
//   - Start-up allocates fast on the heap, so its mark-compacts set a factor of 2-4 (budget 20-90 MB). The first
//     mark-compact under traffic, or after a quiet spell, sees 150-600 bytes/ms of old-heap allocation against
//     100-400 MB/s of marking: factor 1.1, budget 8 MB. The next ~20 requests' ArrayBuffers fill that before any
//     scavenge frees them, marking starts again at once, and every following mark-compact measures the same low
//     rate: the broker never leaves. A W1 keyed broker's trace (load 7):
//       15030 ms: [HeapController] factor 1.1 based on mu=0.970, speed_ratio=1479 (gc=244999, mutator=166)
//       15030 ms: [HeapController] Limit: old size: 30501 KB, new limit: 46746 KB (1.1)
//       15265 ms: [IncrementalMarking] Start (allocation limit): (size/limit/slack) v8: 29MB / 45MB / 16MB
//       20155 ms: ... factor 1.1 ..., 20301 ms: Start (task) 30MB / 46MB / 16MB, 20440 ms: Mark-Compact, ...
//     Base (5cf2ca5) falls in the same way; main more often, its old heap being 5-7 MB larger and promoting less.
//
// What this does: after each mark-compact it sets V8's --heap-growing-percent (read at every limit computation, so
// it takes effect at the next mark-compact) to the factor that leaves OLD_GENERATION_BUDGET_BYTES of room above the
// live old generation: 64 MB, the 32 MB of young ArrayBuffers V8 lets pile up plus as much for promoted ones (and
// V8's own external-memory trigger, 64 MB above the level at the last mark-compact, comes no sooner). At most
// GROWING_PERCENT_MAX (factor 4, V8's own ceiling on this machine), never below GROWING_PERCENT_MIN: an old
// generation larger than the budget (S1's 10,000 partitions) keeps V8's own factor (percent 0), which a fixed one
// could only lower. The room is a limit, not memory: the heap reaches it only when that much is allocated and
// survives, and an idle broker (whose memory V8's own reducer and the idle reducer give back) allocates nothing.
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { oldGenerationBytes } from './idle-memory-reducer.js';

/** Room above the live old generation (old-heap growth and external memory) before V8 marks again. */
export const OLD_GENERATION_BUDGET_BYTES = 64 * 1024 * 1024;
/** Highest growing percent set: factor 4, V8's own highest on a machine with memory to spare. */
export const GROWING_PERCENT_MAX = 300;
/** Below this (an old generation larger than the budget) V8's own factor applies. */
export const GROWING_PERCENT_MIN = 100;

/** V8's --heap-growing-percent for an old generation of `liveBytes`: 0 (V8's own factor) when that is larger than
 *  `budgetBytes`, else the percent whose growth covers the budget, at most GROWING_PERCENT_MAX. */
export function growingPercentFor(liveBytes: number, budgetBytes = OLD_GENERATION_BUDGET_BYTES): number {
  if (liveBytes <= 0) return GROWING_PERCENT_MAX;
  const percent = Math.ceil((100 * budgetBytes) / liveBytes);
  if (percent < GROWING_PERCENT_MIN) return 0;
  return Math.min(percent, GROWING_PERCENT_MAX);
}

export function growingPercentFlag(percent: number): string {
  return `--heap-growing-percent=${percent}`;
}

export interface OldGenerationProbes {
  /** The old generation's live bytes (every heap space but the young generation's and the read-only one). */
  oldGenerationBytes(): number;
  /** Sets V8's --heap-growing-percent (0: V8's own factor). */
  setGrowingPercent(percent: number): void;
}

export class OldGenerationBudget {
  /** The percent last set; null before the first. */
  private percent: number | null = null;

  constructor(
    private readonly probes: OldGenerationProbes,
    private readonly budgetBytes = OLD_GENERATION_BUDGET_BYTES,
  ) {}

  /** The percent in force (null before the first mark-compact was seen). */
  get growingPercent(): number | null {
    return this.percent;
  }

  /** After a mark-compact (and once at start): the old generation's size now decides the next limit's factor. */
  afterMarkCompact(): void {
    const percent = growingPercentFor(this.probes.oldGenerationBytes(), this.budgetBytes);
    if (percent === this.percent) return;
    this.percent = percent;
    this.probes.setGrowingPercent(percent);
  }
}

/**
 * The budget over this process's V8 heap, set now and after each mark-compact; null (V8's flag left to the operator)
 * when the process was launched with a --heap-growing-percent of its own (`launchGrowingPercent`, see
 * launchHeapGrowingPercent). The idle reducer's full collection pins the percent for its own call and sets back
 * the one in force here (budget.growingPercent), so that the budget's cache stays what V8 holds.
 */
export function processOldGenerationBudget(launchGrowingPercent: number): OldGenerationBudget | null {
  if (launchGrowingPercent > 0) return null;
  const budget = new OldGenerationBudget({
    oldGenerationBytes,
    // Node 20 leaves V8's flags writable after start (idle-memory-reducer.ts sets the young growth the same way)
    setGrowingPercent: (percent) => setFlagsFromString(growingPercentFlag(percent)),
  });
  budget.afterMarkCompact();
  const observer = new PerformanceObserver((list) => {
    const markCompacts = list
      .getEntries()
      .filter(
        (entry) =>
          (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
          constants.NODE_PERFORMANCE_GC_MAJOR,
      );
    if (markCompacts.length > 0) budget.afterMarkCompact();
  });
  observer.observe({ entryTypes: ['gc'] });
  return budget;
}
