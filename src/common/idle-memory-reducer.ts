// Hands memory back to the system once a busy broker has gone idle. After load (or start-up) V8 keeps its young
// generation at its largest (two semi-spaces of up to 16 MB, 32 under --max-semi-space-size=32), and glibc keeps the
// freed request bodies' pages in its arenas; a broker that then goes idle allocates too little to make either shrink
// soon (glibc never trims a fragmented heap). The reducer watches the main thread's busy time and V8's
// young-generation collections: a sample of `sampleMs` whose busy fraction is below `idleBusyFraction` and in which
// no scavenge ran is idle, any other is activity (a broker streaming 10,000 records a second to one subscriber may
// keep its loop under 10 % busy, but it allocates enough for a scavenge every half second; an idle one goes many
// seconds without). Once an idle stretch has lasted `idleAfterMs`, it calls `reduce` (a young-generation collection
// and malloc_trim, native/memory-reducer.cc), once per idle stretch, and only when the resident set grew by
// `minGrowthBytes` since the last reduction or the young generation is still larger than `idleYoungGenerationBytes`
// (else there is nothing to give back).
//
// With a full collection when the old generation grew by `fullCollectionGrowthBytes` since the last mark-compact
// (V8's own, seen through perf_hooks at the next sample, or the reducer's; the start counts as one at 0 bytes),
// ArrayBuffers' memory counted with it: a dead Buffer that was promoted keeps its memory, outside V8's heap, until a
// mark-compact, as a dead old object does (S1's holding broker, 4 s produce at 10,000 partitions, load 6: 13.5 MB of
// old space and 24 MB of ArrayBuffers since V8's last mark-compact under the load; its reductions, scavenges only,
// left 45 MB of ArrayBuffers and 243 MB resident 25 s into idleness, where one with a full collection reads 165-175).
// V8 counts them too: external memory's growth starts a mark-compact of its own under load.
// Garbage that reached the old generation waits for a mark-compact, and V8 starts one only when the old generation
// reaches its limit, which a busy start-up sets at up to 4x the live size: an idle broker then keeps it for good.
// Measured (S1, 10,000 partitions restarted after kill -9, 25 s idle): heap 239 MB of which 81 MB live, resident
// 330 MB; after the full collection 172 MB. The collection is a memory-reducing one with V8's growing factor pinned
// for it, so that the old-generation limit it leaves is not V8's idle floor (live x 1.1), which would put the next
// burst into back-to-back mark-compacts: see native/memory-reducer.cc. It costs a pause of about 0.2-0.9 s at
// 10,000 partitions (a request that arrives meanwhile waits), once per idle stretch at most.
// A reduction whose stretch followed growth of `startUpGrowthBytes` (128 MB) since the last mark-compact, of the old
// generation and ArrayBuffers' memory together, waits `startUpIdleAfterMs` (2 s) of idleness instead of `idleAfterMs`
// (a Buffer promoted to the old generation keeps its memory, outside V8's heap, until a mark-compact finds it dead).
// First seen at start-up (a recovery of every log, the metadata loads, the first reads: a broker restarted with
// 10,000 partitions holds 150 MB of it in the old generation and large objects, and 33 MB of young generation, for as
// long as it waits; S1 read 359-394 MB 5 s into idleness after its restart, before the reduction that took it to
// 170 MB at 5-7 s); the same after any busy stretch that promoted that much (S1's produce spread over 10,000
// partitions: 372 MB 5 s into idleness, again before the reduction; its request bodies and per-append promises live
// 0.1-1 s under that load, long enough to be promoted: 47-54 MB of old space and 27 MB of ArrayBuffers at 14-46 k
// records/s). Why this does not put full collections into a production broker's traffic: under steady load no
// sample is idle, so none runs; in traffic with lulls of 2-5 s, one runs only after 128 MB more since the last
// mark-compact (the reducer's own counts), at most one per 128 MB promoted, garbage that a mark-compact has to collect
// in any case (V8 would run it later, at its limit, inside the traffic); a stretch that grew less (a broker of a few
// hundred partitions starts with 30-60 MB) waits the full `idleAfterMs`, so an ordinary lull is not met by a full
// collection's pause. The same 2 s for a later stretch whose resident set grew by `startUpGrowthBytes` since the last
// reduction while the old generation grew less than `fullCollectionGrowthBytes`: that reduction is a scavenge and
// malloc_trim (milliseconds, no full collection, whatever ArrayBuffers grew; a full one waits for a follow-up), and
// what it gives back is the young generation and glibc's arenas (S1's holding broker after a 16 s produce: 333-367 MB
// 5 s into idleness, of it 130-150 MB outside V8's heap against 75-80 MB before the produce, and 33.6 MB of young
// generation; V8's own mark-compacts had run at its end).
// And the same 2 s for a stretch whose full collection is due (the old generation and ArrayBuffers grew
// `fullCollectionGrowthBytes`) when that growth is at least `earlyGarbageRatio` (0.5) of the old generation the last
// mark-compact left, once one has measured it. The full collection's pause is its marking (and compaction) of the
// live part, which that mark-compact's leftover stands for; what it gives back is the growth since (S1's holding
// broker, 10,000 partitions after a 4 s produce: 85 MB left by V8's last mark-compact under the load, then 42 MB of
// old space and 58 MB of ArrayBuffers, 1.2x it, under the 128 MB, so the reduction came 5-10 s into idleness: 313 MB
// at 5 s, 175 MB at 25 s). A ratio of 0.5 is a heap 1.5x what the last mark-compact left: V8's own growing factor at
// an idle allocation rate is its floor, 1.1, and its conservative one 1.3 (heap-controller.cc), so V8 would have
// called such a heap due had it set the limit while idle; the limit it set under load (a factor of up to 4) is what
// leaves it standing. The same bounds as above: never under steady load, once per idle stretch, at most one per
// half a live old generation promoted, and a stretch with less garbage (or none due for a full collection, or no
// mark-compact yet to measure the live part by) waits `idleAfterMs`.
//
// Why sometimes twice: V8 (heap.cc ShouldResizeNewSpace, V8 11.3) shrinks the semi-spaces at a scavenge only when
// its allocation throughput is under 1,000 bytes/ms, and it measures that (gc-tracer.cc, AverageSpeed over
// kThroughputTimeFrameMs = 5 s) from the allocation since the last GC, plus older GC-to-GC samples until 5 s are
// covered. The reducer's scavenge is often the first GC since the busy spell ended, so its sample holds the busy
// tail (up to a whole semi-space, 16-32 MB, allocated after the last busy scavenge) over the idle delay: 2-3 MB/s,
// no shrink. A second scavenge `followUpAfterMs` (more than V8's 5 s) after the first, the stretch still idle, is
// measured on idle allocation alone and shrinks, when that is under V8's bar: an idle broker with 1,000 partitions
// allocates 0.6-0.8 MB/s (its periodic controller pass, HW checkpoints, metadata reloads), near it, so a follow-up
// can miss too. So while the young generation is still above `idleYoungGenerationBytes` after a reduction, a
// follow-up runs `followUpAfterMs` later, at most `followUpsMax` of them in one idle stretch.
// The reductions' own busy time and scavenges are not counted as activity. Under load no sample is idle, so it
// never runs there.
//
// The price of the young-generation collection is paid when traffic comes back: it leaves the semi-spaces at V8's
// minimum (1 MB), and V8 grows them again only once the bytes that survived its scavenges since the last growth
// exceed their size, each time by --semi-space-growth-factor (2 by default: 1, 2, 4, 8, 16 MB; W5's 6 s run after
// an idle stretch got no further than about 4 MB). Meanwhile a stream scavenges 4-10 times a second instead of every
// few seconds, and its frames meet those pauses (W5 after an idle stretch: 22-40 scavenges in a 6 s run against 0-5
// with the reducer off). So once it has reduced, the reducer has V8 grow the young generation by
// YOUNG_GENERATION_FAST_GROWTH (1, 8, 16 MB) while its samples see activity, and by V8's default 2 while idle (an
// idle broker's rare survivors would otherwise grow it to 8 MB in one step: measured, +5.6 MB young generation 60 s
// after load). V8 reads the factor at each growth; setting it before the first reduction could stop that reduction's
// shrink (seen in a test script), so it is left alone until then.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { CancelTimer, Clock } from './clock.js';
import { everyMs } from './clock.js';
import { loadAddonFunction } from './native-addon.js';

/** What one reduction did: its duration (monotonic ms) and the resident set before and after, bytes. */
export interface MemoryReduction {
  durationMs: number;
  /** Whether this was a follow-up in its idle stretch (V8 had not shrunk the young generation at the one before). */
  followUp: boolean;
  /** Whether it collected the old generation too (a full collection, see fullCollectionGrowthBytes). */
  fullCollection: boolean;
  /** V8's young generation (new space) committed after the reduction, bytes. */
  youngGenerationAfterBytes: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
}

export interface IdleMemoryReducerOptions {
  /** How long the main thread must have been idle before the reduction. */
  idleAfterMs: number;
  /** Length of one sample of the main thread's busy time. */
  sampleMs: number;
  /** A sample busier than this fraction of its length is activity. */
  idleBusyFraction: number;
  /** The resident set must have grown by this much since the last reduction (or since start) for another one. */
  minGrowthBytes: number;
  /** A young generation committed above this after a reduction was not shrunk by V8 (its minimum is ~1 MB). */
  idleYoungGenerationBytes: number;
  /** Idle time after a reduction that left the young generation large before the follow-up (> V8's 5 s window). */
  followUpAfterMs: number;
  /** Follow-ups at most in one idle stretch. */
  followUpsMax: number;
  /** Growth of V8's old generation and ArrayBuffers' memory since the last mark-compact above which a reduction
   *  collects the old generation too (a promoted Buffer's memory waits for a mark-compact as an old object does). */
  fullCollectionGrowthBytes: number;
  /** The idle time before a reduction when the old generation grew by `startUpGrowthBytes` since the last
   *  mark-compact (start-up's garbage, or a busy stretch's, see the header); the shorter of this and `idleAfterMs`. */
  startUpIdleAfterMs: number;
  /** See startUpIdleAfterMs: growth of the old generation plus ArrayBuffers' memory (see the header). */
  startUpGrowthBytes: number;
  /** The same sooner reduction when a full collection is due and that growth is at least this fraction of the old
   *  generation the last mark-compact left (what the full collection marks, its pause): see the header. */
  earlyGarbageRatio: number;
}

export interface IdleMemoryProbes {
  /** The main thread's busy milliseconds so far (monotonic; the event loop's active time). */
  busyMs(): number;
  /** Young-generation collections (scavenges) so far. */
  scavenges(): number;
  /** The process's resident set, bytes. */
  rssBytes(): number;
  /** V8's young generation (new space), committed bytes. */
  youngGenerationBytes(): number;
  /** V8's old generation (every space but the young generation's), bytes of objects, live or not yet collected. */
  oldGenerationBytes(): number;
  /** Bytes of ArrayBuffers (Buffers' memory outside V8's heap, freed with their owners: a mark-compact frees those
   *  of promoted ones); without it the sooner reduction counts the old generation alone. */
  arrayBufferBytes?(): number;
  /** V8's mark-compacts (full collections) so far, the reducer's own included. */
  markCompacts(): number;
  /** Gives memory back (with `full`, the old generation's garbage too); its duration is not counted as activity. */
  reduce(full: boolean): void;
  /** Sets the young generation's growth factor (V8's --semi-space-growth-factor); called only after a reduction. */
  youngGrowth?(factor: number): void;
}

/** V8's --semi-space-growth-factor while a reduced broker is active (see the header), and V8's own default. */
export const YOUNG_GENERATION_FAST_GROWTH = 8;
export const YOUNG_GENERATION_DEFAULT_GROWTH = 2;

/** The addon's reduceMemory (native/memory-reducer.cc). */
export type ReduceMemory = (
  gcExposed: boolean,
  full?: boolean,
  growingPercent?: number,
  launchGrowingPercent?: number,
) => boolean;

/** V8's growing factor pinned for the reducer's full collection: 1 + 300 % = 4, V8's largest (heap-controller.cc's
 *  kMaxGrowingFactor), the factor its mark-compacts chose during every traced broker's start-up. */
export const FULL_COLLECTION_GROWING_PERCENT = 300;

const NOT_OLD_GENERATION = new Set(['new_space', 'new_large_object_space', 'read_only_space']);

/** V8's old generation in this process: the bytes of objects (live or not yet collected) in every heap space but
 *  the young generation's and the read-only one. Read by the reducer and by the old-generation budget. */
export function oldGenerationBytes(): number {
  return getHeapSpaceStatistics()
    .filter((space) => !NOT_OLD_GENERATION.has(space.space_name))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/** The --heap-growing-percent this process was launched with (its flags, then NODE_OPTIONS'); 0 (V8's own dynamic
 *  factor) when none: what the addon sets back after its full collection. */
export function launchHeapGrowingPercent(execArgv: readonly string[], nodeOptions = ''): number {
  let percent = 0;
  for (const arg of [...nodeOptions.split(/\s+/), ...execArgv]) {
    const match = /^--heap[-_]growing[-_]percent=(\d+)$/.exec(arg);
    if (match) percent = Number(match[1]);
  }
  return percent;
}

export function youngGrowthFlag(factor: number): string {
  return `--semi-space-growth-factor=${factor}`;
}

export const IDLE_MEMORY_REDUCER_DEFAULTS: Omit<IdleMemoryReducerOptions, 'idleAfterMs'> = {
  sampleMs: 1_000,
  idleBusyFraction: 0.1,
  minGrowthBytes: 16 * 1024 * 1024,
  idleYoungGenerationBytes: 8 * 1024 * 1024,
  followUpAfterMs: 6_000,
  followUpsMax: 2,
  fullCollectionGrowthBytes: 32 * 1024 * 1024,
  startUpIdleAfterMs: 2_000,
  startUpGrowthBytes: 128 * 1024 * 1024,
  earlyGarbageRatio: 0.5,
};

export class IdleMemoryReducer {
  private lastSampleMs: number;
  private lastBusyMs: number;
  private lastScavenges: number;
  /** The reduction's own scavenge is reported after it returns (gc entries come asynchronously): the sample after
   *  a reduction does not count a scavenge as activity. */
  private scavengeOfReduction = false;
  /** When the current idle stretch began (monotonic ms), null while active. */
  private idleSinceMs: number | null = null;
  /** Whether this idle stretch has had its reduction (or was judged to need none). */
  private reducedThisStretch = false;
  /** When this stretch's reduction left the young generation large: when it ran (monotonic ms), else null. */
  private followUpFromMs: number | null = null;
  private followUpsThisStretch = 0;
  private rssAfterLastReduction: number;
  private cancel: CancelTimer | null = null;
  private reductionCount = 0;
  /** The growth factor last set through the probes; null before the first reduction. */
  private growth: number | null = null;
  private lastMarkCompacts: number;
  /** V8's old generation after the last mark-compact (read at the sample after it); 0 at the start. */
  private oldGenerationAfterMarkCompact = 0;
  /** ArrayBuffer bytes read at the same moments as oldGenerationAfterMarkCompact; 0 at the start. */
  private arrayBuffersAfterMarkCompact = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: IdleMemoryReducerOptions,
    private readonly probes: IdleMemoryProbes,
    private readonly onReduced: (reduction: MemoryReduction) => void = () => undefined,
  ) {
    this.lastSampleMs = clock.monotonicMs();
    this.lastBusyMs = probes.busyMs();
    this.lastScavenges = probes.scavenges();
    this.lastMarkCompacts = probes.markCompacts();
    // what the process holds when it starts counts as the base: start-up's own memory is reduced once it is idle
    this.rssAfterLastReduction = 0;
  }

  start(): void {
    if (this.cancel !== null) return;
    this.lastSampleMs = this.clock.monotonicMs();
    this.lastBusyMs = this.probes.busyMs();
    this.lastScavenges = this.probes.scavenges();
    this.cancel = everyMs(this.clock, this.options.sampleMs, () => this.sample());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  private setGrowth(factor: number): void {
    if (this.growth === factor) return;
    this.growth = factor;
    this.probes.youngGrowth?.(factor);
  }

  /** Reductions run so far. */
  get reductions(): number {
    return this.reductionCount;
  }

  /** One sample: called every sampleMs by start()'s timer (tests may call it through the clock). */
  sample(): void {
    const nowMs = this.clock.monotonicMs();
    const busyMs = this.probes.busyMs();
    const elapsedMs = nowMs - this.lastSampleMs;
    const busyFraction = elapsedMs > 0 ? (busyMs - this.lastBusyMs) / elapsedMs : 1;
    const scavenges = this.probes.scavenges();
    const allocating = scavenges !== this.lastScavenges && !this.scavengeOfReduction;
    this.scavengeOfReduction = false;
    this.lastSampleMs = nowMs;
    this.lastBusyMs = busyMs;
    this.lastScavenges = scavenges;
    const markCompacts = this.probes.markCompacts();
    if (markCompacts !== this.lastMarkCompacts) {
      this.lastMarkCompacts = markCompacts;
      this.noteMarkCompact();
    }
    const active = busyFraction > this.options.idleBusyFraction || allocating;
    if (this.growth !== null) this.setGrowth(active ? YOUNG_GENERATION_FAST_GROWTH : YOUNG_GENERATION_DEFAULT_GROWTH);
    if (active) {
      this.idleSinceMs = null;
      this.reducedThisStretch = false;
      this.followUpFromMs = null;
      this.followUpsThisStretch = 0;
      return;
    }
    // an idle stretch starts at the beginning of its first idle sample
    this.idleSinceMs ??= nowMs - elapsedMs;
    if (this.followUpFromMs !== null) {
      if (nowMs - this.followUpFromMs < this.options.followUpAfterMs) return;
      this.followUpFromMs = null;
      this.followUpsThisStretch++;
      this.reduce(nowMs, this.probes.rssBytes(), true);
      return;
    }
    if (this.reducedThisStretch) return;
    const wait = this.idleWait();
    if (nowMs - this.idleSinceMs < wait.afterMs) return;
    this.reducedThisStretch = true;
    const rssBeforeBytes = this.probes.rssBytes();
    if (
      rssBeforeBytes - this.rssAfterLastReduction < this.options.minGrowthBytes &&
      this.probes.youngGenerationBytes() <= this.options.idleYoungGenerationBytes
    )
      return;
    // the resident-growth rule's early reduction is a scavenge and malloc_trim, whatever ArrayBuffers grew
    this.reduce(nowMs, rssBeforeBytes, false, wait.youngOnly && nowMs - this.idleSinceMs < this.options.idleAfterMs);
  }

  /** How long this idle stretch waits for its reduction: sooner after large old-generation growth (see the header);
   *  `youngOnly` when the sooner wait is the resident-growth rule's (no full collection before idleAfterMs). */
  private idleWait(): { afterMs: number; youngOnly: boolean } {
    const { idleAfterMs, startUpIdleAfterMs } = this.options;
    if (startUpIdleAfterMs >= idleAfterMs) return { afterMs: idleAfterMs, youngOnly: false };
    const { startUpGrowthBytes, fullCollectionGrowthBytes } = this.options;
    const oldGrowth = this.oldGenerationGrowth();
    const garbage = oldGrowth + this.arrayBufferGrowth();
    if (garbage >= startUpGrowthBytes) return { afterMs: startUpIdleAfterMs, youngOnly: false };
    // garbage large next to the live old generation that the due full collection marks (see the header); only once a
    // mark-compact has measured that live part (the start's 0 bytes are not a measure)
    if (
      this.oldGenerationAfterMarkCompact > 0 &&
      garbage >= fullCollectionGrowthBytes &&
      garbage >= this.oldGenerationAfterMarkCompact * this.options.earlyGarbageRatio
    )
      return { afterMs: startUpIdleAfterMs, youngOnly: false };
    // a later stretch whose resident set grew with no full collection due: a scavenge and malloc_trim (see the header)
    const residentGrowth = this.reductionCount > 0 ? this.probes.rssBytes() - this.rssAfterLastReduction : 0;
    return residentGrowth >= startUpGrowthBytes && oldGrowth < fullCollectionGrowthBytes
      ? { afterMs: startUpIdleAfterMs, youngOnly: true }
      : { afterMs: idleAfterMs, youngOnly: false };
  }

  private noteMarkCompact(): void {
    this.oldGenerationAfterMarkCompact = this.probes.oldGenerationBytes();
    this.arrayBuffersAfterMarkCompact = this.probes.arrayBufferBytes?.() ?? 0;
  }

  private arrayBufferGrowth(): number {
    const bytes = this.probes.arrayBufferBytes?.();
    return bytes === undefined ? 0 : Math.max(0, bytes - this.arrayBuffersAfterMarkCompact);
  }

  private oldGenerationGrowth(): number {
    return this.probes.oldGenerationBytes() - this.oldGenerationAfterMarkCompact;
  }

  private reduce(nowMs: number, rssBeforeBytes: number, followUp: boolean, youngOnly = false): void {
    const fullCollection =
      !youngOnly && this.oldGenerationGrowth() + this.arrayBufferGrowth() >= this.options.fullCollectionGrowthBytes;
    this.probes.reduce(fullCollection);
    this.reductionCount++;
    if (fullCollection) {
      this.lastMarkCompacts = this.probes.markCompacts();
      this.noteMarkCompact();
    }
    this.rssAfterLastReduction = this.probes.rssBytes();
    const youngGenerationAfterBytes = this.probes.youngGenerationBytes();
    // the reduction's own time and scavenge are not activity: the next sample starts after it
    this.lastSampleMs = this.clock.monotonicMs();
    this.lastBusyMs = this.probes.busyMs();
    this.lastScavenges = this.probes.scavenges();
    this.scavengeOfReduction = true;
    this.setGrowth(YOUNG_GENERATION_DEFAULT_GROWTH);
    if (
      youngGenerationAfterBytes > this.options.idleYoungGenerationBytes &&
      this.followUpsThisStretch < this.options.followUpsMax
    )
      this.followUpFromMs = this.lastSampleMs;
    this.onReduced({
      durationMs: this.lastSampleMs - nowMs,
      followUp,
      fullCollection,
      rssBeforeBytes,
      rssAfterBytes: this.rssAfterLastReduction,
      youngGenerationAfterBytes,
    });
  }
}

/** The reducer over this process (the event loop's busy time, the resident set, native/memory-reducer.cc); null
 *  when `idleAfterMs` is 0 (off) or the addon is not built here (or BROOK_NATIVE_MEMORY_REDUCER=false). */
export function processIdleMemoryReducer(
  clock: Clock,
  idleAfterMs: number,
  onReduced?: (reduction: MemoryReduction) => void,
  /** The --heap-growing-percent to set back after the full collection's pinned one: the process's launch value,
   *  or what the old-generation budget (old-generation-budget.ts) has in force when the broker runs one. */
  growingPercentAfterFull: () => number = () => launchHeapGrowingPercent(process.execArgv, process.env.NODE_OPTIONS),
): IdleMemoryReducer | null {
  if (idleAfterMs <= 0) return null;
  const reduceMemory = loadAddonFunction<ReduceMemory>('memory-reducer', 'reduceMemory', 'BROOK_NATIVE_MEMORY_REDUCER');
  if (reduceMemory === null) return null;
  let scavenges = 0;
  let markCompacts = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) markCompacts++;
    }
  }).observe({ entryTypes: ['gc'] });
  return new IdleMemoryReducer(
    clock,
    { ...IDLE_MEMORY_REDUCER_DEFAULTS, idleAfterMs },
    {
      busyMs: () => performance.eventLoopUtilization().active,
      scavenges: () => scavenges,
      rssBytes: () => process.memoryUsage.rss(),
      youngGenerationBytes: () =>
        getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0,
      oldGenerationBytes,
      arrayBufferBytes: () => process.memoryUsage().arrayBuffers,
      // the reducer's own mark-compacts are counted by the observer too, once their entries are delivered
      markCompacts: () => markCompacts,
      // under --expose-gc the addon leaves the flag set
      reduce: (full) =>
        void reduceMemory(
          typeof globalThis.gc === 'function',
          full,
          FULL_COLLECTION_GROWING_PERCENT,
          growingPercentAfterFull(),
        ),
      // Node 20 leaves V8's flags writable after start (the addon sets --expose-gc the same way)
      youngGrowth: (factor) => setFlagsFromString(youngGrowthFlag(factor)),
    },
    onReduced,
  );
}
