// Every broker's view of the cluster metadata (Kafka's MetadataCache), loaded from the coordination store.
// Store notifications are hints that trigger a reload; a periodic reconcile makes a lost hint only a delay.
// Listeners (the log manager, the replica manager) are told after each reload that changed something.
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { PARTITION_STATE_PREFIX, TOPICS_PREFIX, TOPIC_CONFIGS_PREFIX } from '../coordination/cluster-keys.js';
import type { PartitionState, TopicAssignment, TopicMetadata } from './cluster-metadata.js';

export const METADATA_RECONCILE_INTERVAL_MS = 5_000;

export type MetadataListener = (topics: ReadonlyMap<string, TopicMetadata>) => Promise<void> | void;

@Injectable()
export class MetadataCache implements OnModuleDestroy {
  private readonly logger = new Logger(MetadataCache.name);
  private topics: ReadonlyMap<string, TopicMetadata> = new Map();
  private readonly listeners: MetadataListener[] = [];
  private unwatch: Array<() => void> = [];
  private reconcileTimer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  loaded = false;

  constructor(private readonly store: CoordinationStore) {}

  async start(): Promise<void> {
    for (const prefix of [TOPICS_PREFIX, PARTITION_STATE_PREFIX, TOPIC_CONFIGS_PREFIX]) {
      this.unwatch.push(this.store.watch(prefix, () => void this.reload()));
    }
    await this.reload();
    this.reconcileTimer = setInterval(() => void this.reload(), METADATA_RECONCILE_INTERVAL_MS);
    this.reconcileTimer.unref();
  }

  onModuleDestroy(): void {
    for (const stop of this.unwatch) stop();
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
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

  /** Reloads from the store; concurrent calls coalesce into at most one more reload. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
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
    })();
    return this.reloading;
  }

  private async loadOnce(): Promise<void> {
    const [assignments, states, configs] = await Promise.all([
      this.store.list(TOPICS_PREFIX),
      this.store.list(PARTITION_STATE_PREFIX),
      this.store.list(TOPIC_CONFIGS_PREFIX),
    ]);
    const topics = new Map<string, TopicMetadata>();
    for (const entry of assignments) {
      const assignment = JSON.parse(entry.value) as TopicAssignment;
      topics.set(assignment.name, { assignment, states: [], stateVersions: [], configs: {} });
    }
    for (const entry of states) {
      const [topic, partition] = splitStateKey(entry.key);
      const metadata = topics.get(topic);
      if (metadata === undefined) continue;
      metadata.states[partition] = JSON.parse(entry.value) as PartitionState;
      metadata.stateVersions[partition] = entry.version;
    }
    for (const entry of configs) {
      const metadata = topics.get(entry.key.slice(TOPIC_CONFIGS_PREFIX.length));
      if (metadata !== undefined) metadata.configs = JSON.parse(entry.value) as Record<string, string>;
    }
    this.topics = topics;
    this.loaded = true;
    for (const listener of this.listeners) await listener(topics);
  }
}

function splitStateKey(key: string): [string, number] {
  const rest = key.slice(PARTITION_STATE_PREFIX.length);
  const slash = rest.lastIndexOf('/');
  return [rest.slice(0, slash), Number(rest.slice(slash + 1))];
}
