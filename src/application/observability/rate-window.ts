// Per-second rates of monotonically increasing counters (records and bytes produced and fetched per topic), from
// samples taken every RATE_SAMPLE_INTERVAL_MS: a rate is the growth between the newest sample and the oldest one
// kept, over the time between them. At most RATE_SAMPLES_MAX samples are kept (the window is their span). A
// counter that went down (a restart of the counting process cannot happen here, but a series can vanish) gives 0.
// Pure: the caller passes the time of each sample.
export const RATE_SAMPLE_INTERVAL_MS = 2_000;
/** 6 samples at 2 s: rates over the last 10 s. */
export const RATE_SAMPLES_MAX = 6;

interface Sample {
  atMs: number;
  values: ReadonlyMap<string, number>;
}

export class RateWindow {
  private readonly samples: Sample[] = [];

  constructor(private readonly samplesMax = RATE_SAMPLES_MAX) {
    if (!Number.isInteger(samplesMax) || samplesMax < 2) throw new Error('a rate window needs at least 2 samples');
  }

  /** Adds the counters' values at `atMs` (monotonic); a sample not after the newest is ignored. */
  add(atMs: number, values: ReadonlyMap<string, number>): void {
    const newest = this.samples.at(-1);
    if (newest !== undefined && atMs <= newest.atMs) return;
    this.samples.push({ atMs, values });
    if (this.samples.length > this.samplesMax) this.samples.shift();
  }

  /** The per-second rate of every counter in the newest sample; null until two samples are kept. */
  rates(): Map<string, number> | null {
    const oldest = this.samples[0];
    const newest = this.samples.at(-1);
    if (oldest === undefined || newest === undefined || newest === oldest) return null;
    const seconds = (newest.atMs - oldest.atMs) / 1000;
    const rates = new Map<string, number>();
    for (const [key, value] of newest.values) {
      const before = oldest.values.get(key) ?? 0;
      rates.set(key, Math.max(0, value - before) / seconds);
    }
    return rates;
  }
}
