// Every broker's view of the cluster metadata (Kafka's MetadataCache), loaded from the coordination store.
// Store notifications are hints that trigger a reload; a periodic reconcile makes a lost hint only a delay.
// Listeners (the log manager, the replica manager) are told after a reload that changed what they were told last
// (a key, version or value of the three prefixes, or the incarnation), and also when: a caller asks to tell them
// again (`reload({ retell: true })`: a fenced follower, an ISR change's outcome, new broker config defaults), the
// last telling failed (a listener threw or answered false: some of its work is to be retried), or
// LISTENERS_RETELL_INTERVAL_MS passed since (a safety net for local work that went away unannounced), or the
// store's metadata incarnation changed; each of those is a retelling (`MetadataTelling.retell`). Unchanged
// reloads come every few seconds (this reconcile, the controller's passes) and telling re-walks every hosted
// partition: at 1,000 partitions that was about 4 MB of garbage a second on an idle broker, enough to keep V8 from
// ever shrinking its young generation again (it shrinks it only below about 1 MB/s).
//
// A process that did not run for longer than a broker session (SIGSTOP, a paused VM) may have slept through
// leadership changes: until a reload that began after the pause has been applied, mayBeStale() says so, and the
// replica manager serves nothing as leader (common/stall-detector.ts).
//
// What was applied is kept in the data dir (metadata-snapshot.ts). When the store has lost its data (the metadata
// incarnation this broker applied is gone), the broker keeps serving what it applied last, and deletes no log,
// until a controller has restored the store and written a new incarnation.
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { CLOCK, type CancelTimer, type Clock, everyMs, systemClock } from '../common/clock.js';
import { outsideRequest } from '../common/request-context.js';
import { StallDetector } from '../common/stall-detector.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import {
  METADATA_INCARNATION_KEY,
  PARTITION_STATE_PREFIX,
  TOPICS_PREFIX,
  TOPIC_CONFIGS_PREFIX,
} from '../coordination/cluster-keys.js';
import type { TopicMetadata } from './cluster-metadata.js';
import { IncrementalMetadataParser } from './incremental-metadata-parser.js';
import { type MetadataSnapshot, readSnapshot, serializeSnapshot, writeSnapshotText } from './metadata-snapshot.js';

export const METADATA_RECONCILE_INTERVAL_MS = 5_000;
/** The longest the listeners go untold while the metadata does not change (see the header). */
export const LISTENERS_RETELL_INTERVAL_MS = 30_000;
/** How often the stall detector beats (a gap longer than a broker session between beats is a stall). */
const STALL_BEAT_INTERVAL_MS_MAX = 250;

/**
 * Told the topics; answers false when some of its work failed and it wants to be told again on the next reload.
 * `telling.retell` is true when the listener is told again for any reason but a change (see the header): a
 * listener that acts only on what changed acts on everything then.
 */
export type MetadataListener = (
  topics: ReadonlyMap<string, TopicMetadata>,
  telling: MetadataTelling,
) => Promise<boolean | void> | boolean | void;

export interface MetadataTelling {
  retell: boolean;
}

@Injectable()
export class MetadataCache implements OnModuleDestroy {
  private readonly logger = new Logger(MetadataCache.name);
  private topics: ReadonlyMap<string, TopicMetadata> = new Map();
  private readonly listeners: MetadataListener[] = [];
  private logEpochSource: (() => Record<string, number>) | null = null;
  private unwatch: Array<() => void> = [];
  private cancelReconcile: CancelTimer | null = null;
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private retellRequested = false;
  /**
   * The incarnation the listeners were last told successfully, and when (monotonic); null until then or after a
   * failure. When set, what they were told is the parser's previous load.
   */
  private told: { incarnation: string | null; atMs: number } | null = null;
  /** Parses only what changed since the previous load (incremental-metadata-parser.ts). */
  private readonly parser = new IncrementalMetadataParser();
  private appliedIncarnation: string | null = null;
  private savedSnapshot = '';
  private holding = false;
  private readonly stall: StallDetector;
  private cancelStallBeat: CancelTimer | null = null;
  loaded = false;

  constructor(
    private readonly store: CoordinationStore,
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.stall = new StallDetector(clock, config.brokerSessionTimeoutMs);
  }

  async start(): Promise<void> {
    // The beat runs from here on, through the first reload: with thousands of partitions that reload opens every
    // log and may take longer than a broker session, which is no stall (the process ran all along). The time since
    // construction counts as one, cleared by the first reload, which starts after it.
    this.stall.beat();
    const beatMs = Math.min(STALL_BEAT_INTERVAL_MS_MAX, Math.floor(this.config.brokerSessionTimeoutMs / 4));
    this.cancelStallBeat = everyMs(this.clock, beatMs, () => {
      if (!this.stall.beat()) return;
      this.logger.warn('this process did not run for longer than a broker session; reloading the metadata');
      void this.reload({ retell: true });
    });
    const saved = await readSnapshot(this.config.dataDir);
    if (saved !== null) {
      this.topics = new Map(saved.topics.map((topic) => [topic.assignment.name, topic]));
      this.appliedIncarnation = saved.incarnation;
      this.savedSnapshot = serializeSnapshot(saved);
    }
    for (const prefix of [TOPICS_PREFIX, PARTITION_STATE_PREFIX, TOPIC_CONFIGS_PREFIX]) {
      this.unwatch.push(this.store.watch(prefix, () => void this.reload()));
    }
    await this.reload();
    this.cancelReconcile = everyMs(this.clock, METADATA_RECONCILE_INTERVAL_MS, () => void this.reload());
  }

  onModuleDestroy(): void {
    for (const stop of this.unwatch) stop();
    this.cancelReconcile?.();
    this.cancelStallBeat?.();
  }

  /** True when this process may have slept through metadata changes and has not applied a reload since. */
  mayBeStale(): boolean {
    return this.stall.suspect();
  }

  onChange(listener: MetadataListener): void {
    this.listeners.push(listener);
  }

  topic(name: string): TopicMetadata | undefined {
    return this.topics.get(name);
  }

  allTopics(): ReadonlyMap<string, TopicMetadata> {
    return this.topics;
  }

  /** What this broker applied last (also in its data dir), for a controller restoring the store. */
  snapshot(): MetadataSnapshot {
    return {
      incarnation: this.appliedIncarnation,
      topics: completeTopics(this.topics),
      logEpochs: this.logEpochSource?.() ?? {},
    };
  }

  /** Where snapshots read the local replicas' latest leader epochs (the log manager, wired at start-up). */
  setLogEpochSource(source: () => Record<string, number>): void {
    this.logEpochSource = source;
  }

  /**
   * Reloads from the store; concurrent calls coalesce into at most one more reload. `retell` tells the listeners
   * even when nothing changed.
   */
  reload(options: { retell?: boolean } = {}): Promise<void> {
    if (options.retell === true) this.retellRequested = true;
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    // shared by every caller and starting long-lived work (fetchers, timers): not part of any one request
    this.reloading = outsideRequest(async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.loadOnce();
        } while (this.reloadAgain);
      } catch (error) {
        this.logger.error(`metadata reload failed: ${(error as Error).message}`);
      } finally {
        this.reloading = null;
      }
    });
    return this.reloading;
  }

  private async loadOnce(): Promise<void> {
    const token = this.stall.refreshStarting();
    const incarnation = (await this.store.get(METADATA_INCARNATION_KEY))?.value ?? null;
    if (incarnation === null && this.appliedIncarnation !== null) {
      if (!this.holding) {
        this.logger.warn('the coordination store lost the cluster metadata; keeping the last applied until restored');
      }
      this.holding = true;
      if (!this.loaded) {
        this.loaded = true;
        await this.tell(this.topics, { retell: true });
      }
      this.stall.refreshed(token);
      return;
    }
    this.holding = false;
    const [assignments, states, configs] = await Promise.all([
      this.store.list(TOPICS_PREFIX),
      this.store.list(PARTITION_STATE_PREFIX),
      this.store.list(TOPIC_CONFIGS_PREFIX),
    ]);
    // The store serves commands in order, so if the incarnation is unchanged after the lists, the store did not
    // lose its data while they ran: an emptied store is never taken for a cluster without topics (whose logs
    // the log manager would delete).
    const after = (await this.store.get(METADATA_INCARNATION_KEY))?.value ?? null;
    if (after !== incarnation) {
      this.reloadAgain = true;
      return;
    }
    const { topics, changed } = this.parser.load(assignments, states, configs);
    const retell = this.retellRequested;
    this.retellRequested = false;
    const toldRecently = this.toldRecently(incarnation);
    // unchanged since the previous load, which is the one the listeners were told when `told` is set
    if (!retell && toldRecently && !changed) {
      this.stall.refreshed(token);
      return;
    }
    this.topics = topics;
    this.appliedIncarnation = incarnation;
    this.loaded = true;
    this.told = null;
    const settled = await this.tell(topics, { retell: retell || !toldRecently });
    if (settled) this.told = { incarnation, atMs: this.clock.monotonicMs() };
    this.stall.refreshed(token);
    await this.persist();
  }

  /** Tells every listener; whether none failed (a listener that throws stops the telling: the reload fails). */
  private async tell(topics: ReadonlyMap<string, TopicMetadata>, telling: MetadataTelling): Promise<boolean> {
    let settled = true;
    for (const listener of this.listeners) if ((await listener(topics, telling)) === false) settled = false;
    return settled;
  }

  /** Whether the listeners were told, successfully, in this incarnation and recently enough not to be told again. */
  private toldRecently(incarnation: string | null): boolean {
    const told = this.told;
    if (told === null || told.incarnation !== incarnation) return false;
    return this.clock.monotonicMs() - told.atMs < LISTENERS_RETELL_INTERVAL_MS;
  }

  private async persist(): Promise<void> {
    const text = serializeSnapshot(this.snapshot());
    if (text === this.savedSnapshot) return;
    await writeSnapshotText(this.config.dataDir, text);
    this.savedSnapshot = text;
  }
}

/** Topics whose every partition has a state: what a snapshot may hold. */
function completeTopics(topics: ReadonlyMap<string, TopicMetadata>): TopicMetadata[] {
  return [...topics.values()].filter(
    (topic) =>
      topic.states.length === topic.assignment.replicas.length &&
      topic.assignment.replicas.every((_, partition) => topic.states[partition] !== undefined),
  );
}
