// The broker's logs (Kafka's LogManager): opens a PartitionLog for every partition this broker hosts (up to
// LOG_OPENS_CONCURRENT_MAX at a time, like Kafka's recovery threads), keeps
// their configs current, deletes the logs of deleted topics, and runs the periodic work: retention every
// log.retention.check.interval.ms, the cleaner every log.cleaner.backoff.ms, flush.ms checks. Each partition
// folder holds `partition.metadata` with its topic id, so a folder left from a deleted topic of the same name is
// removed instead of served (KIP-516).
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../common/file-modes.js';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CancelTimer, CLOCK, everyMs, systemClock, type Clock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { resolveTopicConfig } from '../config/topic-config.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import { forEachBounded } from '../common/bounded-concurrency.js';
import { FileHandlePool } from './file-handle-pool.js';
import { INLINE_WRITE_PAUSE_MS, INLINE_WRITE_SLOW_MS, InlineWriteGate, processLoopMeter } from './inline-write-gate.js';
import { readSmallFile } from './folder-metadata-reads.js';
import type { LogConfig } from './log-config.js';
import { toLogConfig } from './log-config-mapping.js';
import { cleanLog } from './log-cleaner.js';
import { PartitionLog } from './partition-log.js';
import { parsePartitionDirName, partitionDirName } from './segment-files.js';

const PARTITION_METADATA_FILE = 'partition.metadata';
export const LOGS_SUBDIR = 'logs';
/**
 * Logs opened (or deleted) at once by a reconcile: start-up after a crash and a topic of many partitions overlap
 * their reads and fsyncs this many at a time; each open holds at most one pooled handle while it reads.
 */
export const LOG_OPENS_CONCURRENT_MAX = 16;

export type HighWatermarkSource = (topic: string, partition: number) => number | undefined;

@Injectable()
export class LogManager {
  private readonly logger = new Logger(LogManager.name);
  private readonly logs = new Map<string, PartitionLog>();
  private readonly opening = new Map<string, Promise<PartitionLog>>();
  private readonly pool: FileHandlePool;
  /** One for the broker: a slow inline write sends every log's writes to the thread pool for a while. */
  private readonly inlineWrites: InlineWriteGate;
  private readonly timers: CancelTimer[] = [];
  private highWatermarkOf: HighWatermarkSource = () => undefined;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.pool = new FileHandlePool(config.maxOpenFiles);
    this.inlineWrites = new InlineWriteGate(
      this.clock,
      processLoopMeter(),
      INLINE_WRITE_SLOW_MS,
      INLINE_WRITE_PAUSE_MS,
      (tookMs) =>
        this.logger.warn(
          `a leader write on the JavaScript thread took ${tookMs.toFixed(0)} ms (the disk is slow to take writes): ` +
            `writes go to the thread pool for ${INLINE_WRITE_PAUSE_MS / 1000} s`,
        ),
    );
  }

  get logsDir(): string {
    return join(this.config.dataDir, LOGS_SUBDIR);
  }

  setHighWatermarkSource(source: HighWatermarkSource): void {
    this.highWatermarkOf = source;
  }

  startScheduler(): void {
    const every = (intervalMs: number, work: () => Promise<void>) => {
      this.timers.push(
        everyMs(
          this.clock,
          intervalMs,
          () => void work().catch((error) => this.logger.error((error as Error).message)),
        ),
      );
    };
    every(this.config.logRetentionCheckIntervalMs, () => this.applyRetention());
    every(this.config.logCleanerBackoffMs, () => this.cleanCompactedLogs());
    every(this.config.producerIdExpirationCheckIntervalMs, () => this.expireProducers());
    // Every log, every second: a log with nothing to flush costs no promise (at 1,000 idle partitions, awaiting one
    // each was most of the garbage an idle broker made once the metadata stopped being re-applied). When no log is
    // due, the walk is Map.forEach, which makes nothing per log: the for-of below, awaiting inside, made an iterator
    // result for each (10,000 idle partitions: ~0.5 MB a second, enough to keep the broker from counting as idle).
    every(this.config.logFlushSchedulerIntervalMs, async () => {
      const nowMs = this.clock.monotonicMs();
      if (!this.anyLog((log) => log.flushDueByTime(nowMs))) return;
      for (const log of this.logs.values()) {
        const flushing = log.flushIfTimeElapsed();
        if (flushing !== null) await flushing;
      }
    });
  }

  log(topic: string, partition: number): PartitionLog | undefined {
    return this.logs.get(partitionDirName(topic, partition));
  }

  /** The log in folder `name` (`<topic>-<partition>`, partitionDirName's form). */
  logNamed(name: string): PartitionLog | undefined {
    return this.logs.get(name);
  }

  /** Opens, reconfigures or deletes logs so that they match the metadata for the partitions this broker hosts. */
  async reconcile(
    topics: ReadonlyMap<string, TopicMetadata>,
    topicConfigDefaults: Readonly<Record<string, string>> = this.config.topicConfigDefaults,
  ): Promise<void> {
    const wanted = new Map<string, { topicId: string; logConfig: LogConfig }>();
    for (const topic of topics.values()) {
      // one resolved config per topic: its partitions share it
      let logConfig: LogConfig | null = null;
      topic.assignment.replicas.forEach((replicas, partition) => {
        if (!replicas.includes(this.config.brokerId)) return;
        logConfig ??= toLogConfig(resolveTopicConfig(topic.configs, topicConfigDefaults));
        wanted.set(partitionDirName(topic.assignment.name, partition), {
          topicId: topic.assignment.topicId,
          logConfig,
        });
      });
    }
    const doomed = [...this.logs].filter(([name]) => !wanted.has(name));
    for (const [name] of doomed) this.logs.delete(name);
    await forEachBounded(doomed, LOG_OPENS_CONCURRENT_MAX, async ([name, log]) => {
      await log.delete();
      this.logger.log(`deleted log ${name}`);
    });
    const toOpen: Array<[string, { topicId: string; logConfig: LogConfig }]> = [];
    for (const entry of wanted) {
      const existing = this.logs.get(entry[0]);
      if (existing === undefined) toOpen.push(entry);
      else existing.updateConfig(entry[1].logConfig);
    }
    await forEachBounded(toOpen, LOG_OPENS_CONCURRENT_MAX, async ([name, { topicId, logConfig }]) => {
      await this.open(name, topicId, logConfig);
    });
  }

  /** Removes partition folders on disk that no hosted partition claims (deleted while this broker was down). */
  async removeStrayLogs(topics: ReadonlyMap<string, TopicMetadata>): Promise<void> {
    await mkdir(this.logsDir, { recursive: true, mode: DATA_DIR_MODE });
    for (const entry of await readdir(this.logsDir)) {
      const parsed = parsePartitionDirName(entry);
      if (parsed === null || this.logs.has(entry)) continue;
      const topic = topics.get(parsed.topic);
      const hosted = topic?.assignment.replicas[parsed.partition]?.includes(this.config.brokerId) ?? false;
      if (!hosted) {
        this.logger.warn(`removing stray log folder ${entry}`);
        await rm(join(this.logsDir, entry), { recursive: true, force: true });
      }
    }
  }

  /** The latest leader epoch in each hosted log's epoch checkpoint, by log folder name (`<topic>-<partition>`). */
  latestEpochs(): Record<string, number> {
    const epochs: Record<string, number> = {};
    for (const [name, log] of this.logs) epochs[name] = log.epochs.latestEpoch();
    return epochs;
  }

  private open(name: string, topicId: string, logConfig: LogConfig): Promise<PartitionLog> {
    const pending = this.opening.get(name);
    if (pending) return pending;
    const opening = (async () => {
      const dir = join(this.logsDir, name);
      await this.checkTopicId(dir, topicId);
      const log = await PartitionLog.open(dir, logConfig, {
        clock: this.clock,
        pool: this.pool,
        inlineWrites: this.inlineWrites,
        producerState: {
          producerIdExpirationMs: this.config.producerIdExpirationMs,
          idempotencyRetentionMs: this.config.idempotencyRetentionMs,
          producerIdsMax: this.config.producerIdsPerPartitionMax,
        },
      });
      this.logs.set(name, log);
      return log;
    })().finally(() => this.opening.delete(name));
    this.opening.set(name, opening);
    return opening;
  }

  private async checkTopicId(dir: string, topicId: string): Promise<void> {
    const path = join(dir, PARTITION_METADATA_FILE);
    // read synchronously, as the log's own state files (folder-metadata-reads.ts)
    const text = readSmallFile(path);
    let stored = text === null ? null : (JSON.parse(text) as { topicId: string }).topicId;
    if (stored !== null && stored !== topicId) {
      this.logger.warn(`${dir} belongs to an older topic of the same name (id ${stored}); removing it`);
      await rm(dir, { recursive: true, force: true });
      stored = null;
    }
    if (stored === null) {
      await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
      await writeFile(path, JSON.stringify({ version: 0, topicId }), { mode: DATA_FILE_MODE });
    }
  }

  async applyRetention(): Promise<void> {
    for (const [name, log] of this.logs) {
      const parsed = parsePartitionDirName(name)!;
      const highWatermark = this.highWatermarkOf(parsed.topic, parsed.partition) ?? log.logStartOffset;
      const decision = await log.applyRetention(highWatermark);
      if (decision.deleteBaseOffsets.length > 0) {
        this.logger.log(
          `retention (${decision.reason}) deleted ${decision.deleteBaseOffsets.length} segment(s) of ${name}`,
        );
      }
    }
  }

  /** Forgets, in every log, the producer ids whose producer.id.expiration.ms (or idempotency retention) ran out. */
  async expireProducers(): Promise<void> {
    for (const log of this.logs.values()) await log.expireProducers();
  }

  /** One cleaner round on each compacted log whose dirty ratio calls for it. */
  async cleanCompactedLogs(): Promise<void> {
    // without a compacted log (the usual idle broker) nothing is walked with an entry pair per log
    if (!this.anyLog(compactedAndOpen)) return;
    for (const [name, log] of this.logs) {
      if (!compactedAndOpen(log)) continue;
      const parsed = parsePartitionDirName(name)!;
      const highWatermark = this.highWatermarkOf(parsed.topic, parsed.partition) ?? log.logStartOffset;
      const result = await cleanLog(log, { nowMs: this.clock.nowMs(), highWatermark });
      if (result.outcome === 'cleaned') this.logger.log(`cleaned ${result.segmentsRewritten} segment(s) of ${name}`);
    }
  }

  /** Whether `test` holds for a hosted log; walks them with Map.forEach (no allocation per log). */
  private anyLog(test: (log: PartitionLog) => boolean): boolean {
    let found = false;
    this.logs.forEach((log) => {
      if (!found && test(log)) found = true;
    });
    return found;
  }

  async closeAll(): Promise<void> {
    for (const cancel of this.timers) cancel();
    // bounded: each close replaces small files beside its log (descriptors outside the pool)
    await forEachBounded(this.logs.values(), LOG_OPENS_CONCURRENT_MAX, (log) => log.close());
    await this.pool.closeAll();
  }
}

function compactedAndOpen(log: PartitionLog): boolean {
  return log.logConfig.cleanupPolicyCompact && !log.isClosed;
}
