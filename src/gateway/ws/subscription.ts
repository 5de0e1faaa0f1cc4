// One subscription of a WebSocket: its credit window and the partition streams it runs. Partitions are started
// and stopped one by one (all at once for `assign`, per rebalance for a group member); a stopped partition sends
// nothing more, since a stream checks its signal after every read and delivers synchronously. Before each delivery
// the socket's principal must still have READ on the topic (security's one read check), else the subscription is
// ended (40301); what it delivers is charged to the principal's consumer quota, and while that is in debt it
// delivers nothing (DeliveryThrottle: delivery delayed, a `throttled` notice at the start of each throttle).
import { BrookError, errors } from '../../common/brook-error.js';
import type { DeliveryThrottle } from '../../security/stream-quota.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import type { ReadFormat } from '../record-format.js';
import { CreditWindow } from './flow-control.js';
import { streamPartition, type SharedReads, type StreamSink } from './partition-stream.js';
import type { EncodedRun, RecordJsonCache } from './record-json-cache.js';
import type { FrameId, PartitionStart, StartFrom } from './ws-protocol.js';

/** What a subscription needs from its socket. */
export interface SubscriptionOwner {
  readonly flowing: boolean;
  sendRecords(prefix: Buffer, joinedJson: Buffer): void;
  sendError(error: BrookError, id?: FrameId): void;
  /** The principal may no longer READ `topic`: end the subscription with 40301. */
  readRefused(id: FrameId, topic: string): void;
}

export interface StreamDeps {
  replicas: PartitionRouter;
  cache: RecordJsonCache;
  reads: SharedReads;
  fetchBytes: number;
  /** Security's one read check for the socket's principal. */
  mayRead: (topic: string) => boolean;
  /** The principal's consumer quota, for this subscription. */
  throttle: DeliveryThrottle;
}

interface RunningPartition {
  abort: AbortController;
  /** The group generation the partition was assigned in (0 for `assign`). */
  generation: number;
}

export class Subscription implements StreamSink {
  private readonly abort = new AbortController();
  private readonly wakers = new Set<() => void>();
  private readonly framePrefix: Buffer;
  private readonly running = new Map<string, RunningPartition>();

  constructor(
    readonly id: FrameId,
    readonly credits: CreditWindow,
    private readonly format: ReadFormat,
    private readonly owner: SubscriptionOwner,
    private readonly deps: StreamDeps,
  ) {
    this.framePrefix = Buffer.from(`{"op":"records","id":${JSON.stringify(id)},"records":[`);
  }

  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /** The generation each running partition was assigned in, by topicPartitionKey. */
  generations(): Map<string, number> {
    return new Map([...this.running].map(([key, running]) => [key, running.generation]));
  }

  startPartition(topic: string, partition: number, offset: number, generation = 0): void {
    if (this.closed) return;
    const key = partitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    const abort = new AbortController();
    this.running.set(key, { abort, generation });
    const signal = AbortSignal.any([this.abort.signal, abort.signal]);
    void streamPartition(this.deps.replicas, this, {
      topic,
      partition,
      offset,
      format: this.format,
      fetchBytes: this.deps.fetchBytes,
      cache: this.deps.cache,
      reads: this.deps.reads,
      signal,
    });
  }

  stopPartition(topic: string, partition: number): void {
    const key = partitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    this.running.delete(key);
  }

  close(): void {
    this.abort.abort();
    this.running.clear();
  }

  room(): number {
    return this.owner.flowing ? this.deps.throttle.records(this.credits.available) : 0;
  }

  waitForRoom(signal: AbortSignal): Promise<void> {
    if (this.room() > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const throttleMs = this.deps.throttle.waitMs();
      const timer = throttleMs > 0 ? setTimeout(() => wake(), throttleMs) : null;
      const wake = () => {
        if (timer !== null) clearTimeout(timer);
        this.wakers.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.wakers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  wake(): void {
    for (const wake of [...this.wakers]) wake();
  }

  deliver(topic: string, _partition: number, run: EncodedRun): void {
    if (!this.deps.mayRead(topic)) {
      this.owner.readRefused(this.id, topic);
      return;
    }
    const count = run.records.length;
    const taken = this.credits.take(count);
    if (taken !== count) throw new Error(`delivered ${count} records with ${taken} credits`);
    this.owner.sendRecords(this.framePrefix, run.joinedJson);
    this.deps.throttle.delivered(count, this.framePrefix.length + run.joinedJson.length + RECORDS_FRAME_END_BYTES);
  }

  fail(topic: string, partition: number, error: BrookError): void {
    this.running.delete(partitionKey(topic, partition));
    this.owner.sendError(
      new BrookError(error.status, error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`),
      this.id,
    );
  }
}

/** The `]}` that closes a records frame (ws-session.ts sends it). */
const RECORDS_FRAME_END_BYTES = 2;

/** Same key as the group coordinator's topicPartitionKey. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** Where each partition of an `assign` starts: its offset (checked against the log), else where `from` says. */
export function assignedStarts(
  replicas: PartitionRouter,
  assign: PartitionStart[],
  from: StartFrom,
  timestampMs: number | null,
): Promise<Array<{ topic: string; partition: number; offset: number }>> {
  return Promise.all(
    assign.map(async ({ topic, partition, offset }) => {
      if (offset === null)
        return { topic, partition, offset: await startOffsetFor(replicas, topic, partition, from, timestampMs) };
      const { earliest, latest } = await replicas.offsets(topic, partition);
      if (offset < earliest || offset > latest)
        throw errors.invalidRequest(
          `Offset ${offset} of ${topic}-${partition} is out of range [${earliest}, ${latest}].`,
        );
      return { topic, partition, offset };
    }),
  );
}

/** Where a partition starts without an explicit offset: the log start, the high watermark, or a timestamp. */
export async function startOffsetFor(
  replicas: PartitionRouter,
  topic: string,
  partition: number,
  from: StartFrom,
  timestampMs: number | null,
): Promise<number> {
  const { earliest, latest } = await replicas.offsets(topic, partition);
  if (from === 'earliest') return earliest;
  if (from === 'latest') return latest;
  return replicas.offsetForTimestamp(topic, partition, timestampMs!);
}
