// One subscription of a WebSocket: its credit window and the partition streams it runs (PartitionStreams, started
// all at once for `assign`, per rebalance for a group member). Every record it sends is paid for by a credit, and
// the records of a run go out as one `records` frame.
import { BrookError } from '../common/brook-error.js';
import type { ReadFormat } from '../application/record-format.js';
import type { StreamSink } from '../application/streaming/partition-stream.js';
import { PartitionStreams, type StreamDeps } from '../application/streaming/partition-streams.js';
import type { EncodedRun } from '../application/streaming/record-json-cache.js';
import { CreditWindow } from './flow-control.js';
import type { FrameId } from './ws-protocol.js';

/** What a subscription needs from its socket. */
export interface SubscriptionOwner {
  readonly flowing: boolean;
  sendRecords(prefix: Buffer, joinedJson: Buffer): void;
  sendError(error: BrookError, id?: FrameId): void;
}

export class Subscription implements StreamSink {
  private readonly wakers = new Set<() => void>();
  private readonly framePrefix: Buffer;
  /** The partitions this subscription streams; every one delivers to this subscription's credits. */
  readonly streams: PartitionStreams<null>;

  constructor(
    readonly id: FrameId,
    readonly credits: CreditWindow,
    format: ReadFormat,
    private readonly owner: SubscriptionOwner,
    deps: StreamDeps,
  ) {
    this.framePrefix = Buffer.from(`{"op":"records","id":${JSON.stringify(id)},"records":[`);
    this.streams = new PartitionStreams(format, deps, { progress: () => null, sinkFor: () => this });
  }

  room(): number {
    return this.owner.flowing ? this.credits.available : 0;
  }

  waitForRoom(signal: AbortSignal): Promise<void> {
    if (this.room() > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
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

  deliver(_topic: string, _partition: number, run: EncodedRun): void {
    const count = run.records.length;
    const taken = this.credits.take(count);
    if (taken !== count) throw new Error(`delivered ${count} records with ${taken} credits`);
    this.owner.sendRecords(this.framePrefix, run.joinedJson);
  }

  fail(topic: string, partition: number, error: BrookError): void {
    this.owner.sendError(
      new BrookError(error.status, error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`),
      this.id,
    );
  }
}
