// Keeping a cache of one coordination-store prefix up to date (the ACLs, the dynamic broker configs, the client
// quotas): the cache is loaded once at start, reloaded on every watch event under the prefix, and reloaded every
// `intervalMs` in case an event was lost (watches are hints, coordination-store.ts), until stopped at shutdown. A
// failed reload after the first is reported to `onError` and left to the next event or interval; the first one's
// failure is the caller's (start-up fails). The timer is the injected Clock's, so a ManualClock drives it.
import { everyMs, type CancelTimer, type Clock } from '../common/clock.js';
import type { CoordinationStore } from './coordination-store.js';

export interface PrefixReconcilerOptions {
  /** Reads the prefix and applies it to the cache. */
  reload: () => Promise<void>;
  /** How often to reload without an event. */
  intervalMs: number;
  clock: Clock;
  /** Told of a reload that failed after start. */
  onError: (error: Error) => void;
}

export class PrefixReconciler {
  private stopWatch: (() => void) | null = null;
  private cancelTimer: CancelTimer | null = null;

  constructor(
    private readonly store: Pick<CoordinationStore, 'watch'>,
    private readonly prefix: string,
    private readonly options: PrefixReconcilerOptions,
  ) {}

  /** The first load, then a reload on every event under the prefix and every intervalMs. */
  async start(): Promise<void> {
    await this.options.reload();
    const reload = () => void this.options.reload().catch((error: Error) => this.options.onError(error));
    this.stopWatch = this.store.watch(this.prefix, reload);
    this.cancelTimer = everyMs(this.options.clock, this.options.intervalMs, reload);
  }

  /** No reload starts after this (one in flight finishes). Idempotent. */
  stop(): void {
    this.stopWatch?.();
    this.cancelTimer?.();
    this.stopWatch = null;
    this.cancelTimer = null;
  }
}
