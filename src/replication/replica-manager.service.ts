// The replica manager (Kafka's ReplicaManager and Partition): the leader side of every partition this broker
// hosts. Produce appends as leader with the partition's leader epoch and answers per `acks`; reads never go past
// the high watermark and long-poll until it moves. With one replica in the ISR the high watermark is the log end.
import { Inject, Injectable } from '@nestjs/common';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { LogManager } from '../partition-log/log-manager.service.js';
import { LogOfflineError, OffsetOutOfRangeError, RecordTooLargeError } from '../partition-log/log-errors.js';
import type { AppendInfo, ReadResult } from '../partition-log/partition-log.js';
import { PartitionLog } from '../partition-log/partition-log.js';
import { CorruptBatchError } from '../partition-log/record-batch.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { PartitionWaiters } from './partition-waiters.js';

export type Acks = '0' | '1' | 'all';

export interface PartitionRead extends ReadResult {
  highWatermark: number;
  logStartOffset: number;
}

@Injectable()
export class ReplicaManager {
  private readonly waiters = new PartitionWaiters();

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly logs: LogManager,
    private readonly metadata: MetadataCache,
  ) {
    logs.setHighWatermarkSource((topic, partition) => this.logs.log(topic, partition)?.logEndOffset);
  }

  /** Checks that the topic and partition exist and that this broker leads the partition; returns its log. */
  leaderLog(topic: string, partition: number): { log: PartitionLog; leaderEpoch: number } {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    const state = metadata.states[partition];
    if (!Number.isInteger(partition) || partition < 0 || state === undefined) throw errors.partitionNotFound(partition);
    if (state.leader !== this.config.brokerId) {
      throw errors.leaderNotAvailable(`Broker ${this.config.brokerId} does not lead ${topic}-${partition}.`);
    }
    const log = this.logs.log(topic, partition);
    if (log === undefined) throw errors.leaderNotAvailable(`The log of ${topic}-${partition} is not open yet; retry.`);
    return { log, leaderEpoch: state.leaderEpoch };
  }

  /** Appends one encoded batch (built by Brook, so its CRC is not re-checked). acks=0 does not wait for the write. */
  async produce(topic: string, partition: number, batch: Buffer, acks: Acks): Promise<AppendInfo | null> {
    const { log, leaderEpoch } = this.leaderLog(topic, partition);
    let appended: Promise<AppendInfo>;
    try {
      appended = log.appendAsLeader(batch, leaderEpoch, { verifyCrc: false });
    } catch (error) {
      throw translate(error);
    }
    const done = appended.then(
      (info) => {
        this.waiters.notify(`${topic}-${partition}`, this.highWatermark(log));
        return info;
      },
      (error: unknown) => {
        throw translate(error);
      },
    );
    if (acks === '0') {
      done.catch(() => undefined);
      return null;
    }
    return done;
  }

  highWatermark(log: PartitionLog): number {
    return log.logEndOffset;
  }

  /** Reads whole batches below the high watermark; waits up to `waitMs` when nothing is there yet. */
  async read(
    topic: string,
    partition: number,
    offset: number,
    options: { maxBytes: number; waitMs: number; signal?: AbortSignal },
  ): Promise<PartitionRead> {
    const { log } = this.leaderLog(topic, partition);
    const attempt = async (): Promise<PartitionRead> => {
      const highWatermark = this.highWatermark(log);
      try {
        const result = await log.read(offset, {
          maxBytes: options.maxBytes,
          maxOffsetExclusive: highWatermark,
          minOneBatch: true,
        });
        return { ...result, highWatermark, logStartOffset: log.logStartOffset };
      } catch (error) {
        throw translate(error);
      }
    };
    const first = await attempt();
    if (first.batches.length > 0 || options.waitMs <= 0 || offset < first.highWatermark) return first;
    await this.waiters.wait(
      `${topic}-${partition}`,
      offset,
      Math.min(options.waitMs, this.config.readWaitMsMax),
      options.signal,
    );
    return attempt();
  }

  /** Resolves when any of the partitions has data at or past its offset, after `waitMs`, or on abort. */
  async waitForAny(
    positions: ReadonlyArray<{ topic: string; partition: number; offset: number }>,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    if (positions.length === 0 || waitMs <= 0) return;
    for (const { topic, partition, offset } of positions) {
      const log = this.logs.log(topic, partition);
      if (log !== undefined && this.highWatermark(log) > offset) return; // arrived since the caller last read
    }
    const done = new AbortController();
    const onAbort = () => done.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race(
        positions.map(({ topic, partition, offset }) =>
          this.waiters.wait(`${topic}-${partition}`, offset, Math.min(waitMs, this.config.readWaitMsMax), done.signal),
        ),
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
      done.abort();
    }
  }

  offsets(topic: string, partition: number): { earliest: number; latest: number } {
    const { log } = this.leaderLog(topic, partition);
    return { earliest: log.logStartOffset, latest: this.highWatermark(log) };
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number> {
    const { log } = this.leaderLog(topic, partition);
    const found = await log.offsetForTimestamp(timestampMs);
    return Math.min(found ?? this.highWatermark(log), this.highWatermark(log));
  }
}

function translate(error: unknown): Error {
  if (error instanceof BrookError) return error;
  if (error instanceof RecordTooLargeError) return errors.recordTooLarge(error.message);
  if (error instanceof OffsetOutOfRangeError) return errors.invalidRequest(error.message);
  if (error instanceof CorruptBatchError) return errors.invalidPayload(error.message);
  if (error instanceof LogOfflineError) return errors.kafkaError(error.message);
  return error as Error;
}
