// A follower's fetch loop for one partition (Kafka's ReplicaFetcherThread, one partition per loop): fetch from the
// leader at this replica's log end offset with the epoch it believes the leader has, then
//   - a diverging answer: truncate to truncationOffset (KIP-101/279/595), never to the high watermark, and refetch;
//   - a fetch offset below the leader's log start: start the log over at the leader's log start;
//   - otherwise: append the batches as they are (the leader's offsets and epochs) and take the leader's high
//     watermark, capped at this log's end.
// A failed fetch waits the backoff and tries again; a fenced one (this broker's metadata is behind) also asks for a
// metadata reload, after which the replica manager starts a loop for the new leader or epoch. stop() returns once
// nothing more will be written to the log by this loop, so the caller may then lead or truncate it.
import { BrookError, FENCED_LEADER_EPOCH_CODE } from '../common/brook-error.js';
import { type Clock, sleep, systemClock } from '../common/clock.js';
import type { PartitionLog } from '../partition-log/partition-log.js';
import { truncationOffset } from './fetch-divergence.js';
import type { ReplicaFetchAnswer, ReplicaFetchRequest } from './replica-fetch-protocol.js';

export interface ReplicaFetcherSettings {
  brokerId: number;
  /** This process's incarnation, carried in every fetch (KIP-903). */
  brokerEpoch: number;
  maxBytes: number;
  waitMs: number;
  backoffMs: number;
  /** Whose timers the backoff waits on (default: the system clock). */
  clock?: Clock;
}

export interface ReplicaFetcherPorts {
  fetch(leaderId: number, request: ReplicaFetchRequest, signal: AbortSignal): Promise<ReplicaFetchAnswer>;
  onHighWatermark(highWatermark: number): void;
  onFenced(): void;
  onError(error: Error): void;
  /** The loop has ended (after stop): what it fetched over may be closed. */
  onStopped?(): void;
}

export class ReplicaFetcher {
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    readonly leaderId: number,
    readonly leaderEpoch: number,
    readonly log: PartitionLog,
    private readonly settings: ReplicaFetcherSettings,
    private readonly ports: ReplicaFetcherPorts,
  ) {
    this.done = this.run();
  }

  /** Stops the loop; resolves once its last write to the log is done. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        await this.fetchOnce(signal);
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof BrookError && error.errorCode === FENCED_LEADER_EPOCH_CODE) this.ports.onFenced();
        this.ports.onError(error as Error);
        await sleep(this.settings.clock ?? systemClock, this.settings.backoffMs, signal);
      }
    }
    this.ports.onStopped?.();
  }

  private async fetchOnce(signal: AbortSignal): Promise<void> {
    const log = this.log;
    const fetchOffset = log.logEndOffset;
    const answer = await this.ports.fetch(
      this.leaderId,
      {
        replicaId: this.settings.brokerId,
        brokerEpoch: this.settings.brokerEpoch,
        fetchOffset,
        lastFetchedEpoch: log.epochs.latestEpoch(),
        leaderEpoch: this.leaderEpoch,
        maxBytes: this.settings.maxBytes,
        waitMs: this.settings.waitMs,
      },
      signal,
    );
    if (signal.aborted) return;
    if (answer.leaderEpoch !== this.leaderEpoch) {
      throw new Error(`the leader answered with epoch ${answer.leaderEpoch}, not ${this.leaderEpoch}`);
    }
    if (answer.diverging !== null) {
      const offset = truncationOffset(answer.diverging, (epoch) => log.endOffsetForEpoch(epoch), log.logEndOffset);
      const epochBefore = log.epochs.latestEpoch();
      await log.truncateTo(offset);
      if (log.logEndOffset === fetchOffset && log.epochs.latestEpoch() === epochBefore) {
        throw new Error(`the leader reports divergence at ${fetchOffset} that truncation does not resolve`);
      }
      return;
    }
    if (fetchOffset < answer.logStartOffset) {
      await log.truncateFullyAndStartAt(answer.logStartOffset);
      return;
    }
    if (answer.batches.length > 0) await log.appendAsFollower(answer.batches);
    // written (or nothing to write): the batches' buffer may be reused; after a failed append it is not
    answer.release?.();
    this.ports.onHighWatermark(Math.min(answer.highWatermark, log.logEndOffset));
  }
}
