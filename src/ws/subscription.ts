// One subscription of a WebSocket: its credit window and the partition streams it runs (PartitionStreams, started
// all at once for `assign`, per rebalance for a group member). Every record it sends is paid for by a credit, and
// the records of a run go out as one `records` frame. Before each delivery the socket's principal must still have
// READ on the topic (security's one read check), else the subscription is ended (40301); what it delivers is
// charged to the principal's consumer quota, and while that is in debt it delivers nothing (DeliveryThrottle:
// delivery delayed, a `throttled` notice at the start of each throttle).
import { BrookError, errors } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import type { DeliveryThrottle } from '../security/stream-quota.js';
import type { ReadFormat } from '../application/record-format.js';
import type { StreamSink } from '../application/streaming/partition-stream.js';
import { PartitionStreams, type StreamDeps } from '../application/streaming/partition-streams.js';
import type { EncodedRun } from '../application/streaming/record-json-cache.js';
import { CreditWindow } from './flow-control.js';
import type { FrameId, PartitionStart, StartFrom } from './ws-protocol.js';
import type { PartitionRouter } from '../replication/partition-router.service.js';
import { startOffsetFor } from '../application/streaming/start-offset.js';

/** What a subscription needs from its socket. */
export interface SubscriptionOwner {
  readonly flowing: boolean;
  sendRecords(prefix: Buffer, joinedJson: Buffer): void;
  sendError(error: BrookError, id?: FrameId): void;
  /** The principal may no longer READ `topic`: end the subscription with 40301. */
  readRefused(id: FrameId, topic: string): void;
}

/** What security asks of a subscription's deliveries (socket-security.ts). */
export interface DeliveryChecks {
  /** Security's one read check for the socket's principal. */
  mayRead: (topic: string) => boolean;
  /** The principal's consumer quota, for this subscription. */
  throttle: DeliveryThrottle;
}

export class Subscription implements StreamSink {
  private readonly wakers = new Set<() => void>();
  private readonly framePrefix: Buffer;
  /** The partitions this subscription streams; every one delivers to this subscription's credits. */
  readonly streams: PartitionStreams<null>;
  private readonly clock: Clock;

  constructor(
    readonly id: FrameId,
    readonly credits: CreditWindow,
    format: ReadFormat,
    private readonly owner: SubscriptionOwner,
    deps: StreamDeps,
    private readonly checks: DeliveryChecks,
  ) {
    this.clock = deps.reads.clock;
    this.framePrefix = Buffer.from(`{"op":"records","id":${JSON.stringify(id)},"records":[`);
    this.streams = new PartitionStreams(format, deps, { progress: () => null, sinkFor: () => this });
  }

  room(): number {
    return this.owner.flowing ? this.checks.throttle.records(this.credits.available) : 0;
  }

  waitForRoom(signal: AbortSignal): Promise<void> {
    // The quota's wait is read before the room: read after it, a debt paid in between left no timer, and a
    // subscription with credits and a flowing socket waited for a wake-up nothing sent (a stall seen in CI).
    const throttleMs = this.checks.throttle.waitMs();
    if (this.room() > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const cancelTimer = throttleMs > 0 ? this.clock.setTimer(throttleMs, () => wake()) : null;
      const wake = () => {
        cancelTimer?.();
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
    if (!this.checks.mayRead(topic)) {
      this.owner.readRefused(this.id, topic);
      return;
    }
    const count = run.count;
    const taken = this.credits.take(count);
    if (taken !== count) throw new Error(`delivered ${count} records with ${taken} credits`);
    this.owner.sendRecords(this.framePrefix, run.joinedJson);
    this.checks.throttle.delivered(count, this.framePrefix.length + run.joinedJson.length + RECORDS_FRAME_END_BYTES);
  }

  fail(topic: string, partition: number, error: BrookError): void {
    this.owner.sendError(
      new BrookError(error.status, error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`),
      this.id,
    );
  }
}

/** The `]}` that closes a records frame (ws-session.ts sends it). */
const RECORDS_FRAME_END_BYTES = 2;

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
