// One WebSocket connection to /v3/ws: dispatches the client's frames (ws-protocol.ts) and owns the socket's
// subscriptions. Every record sent is paid for by a credit (CreditWindow per subscription) and nothing is read
// from the log while the socket's send queue is past its pause mark (SendPressure per socket); a socket paused
// too long, or with too much queued, is closed with 4001. Produce frames of one socket are appended concurrently
// up to BROOK_WS_PRODUCE_IN_FLIGHT_MAX; beyond that, and while the socket is paused, its frames are not read.
// Each error is an `error` frame; the socket stays open (except for the closes above and the library's 1009).
import type { WebSocket } from 'ws';
import { BrookError, errors } from '../../common/brook-error.js';
import type { Clock } from '../../common/clock.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { ProduceService } from '../produce.service.js';
import { CreditWindow, SendPressure } from './flow-control.js';
import { streamPartition, type SharedReads, type StreamSink } from './partition-stream.js';
import type { EncodedRun, RecordJsonCache } from './record-json-cache.js';
import { CLOSE_CODES, DEFAULT_CREDITS, type WsLimits } from './ws-limits.js';
import {
  errorFrame,
  errorFrameCode,
  parseClientFrame,
  type CommitFrame,
  type CreditFrame,
  type FrameId,
  type PartitionStart,
  type ProduceFrame,
  type SubscribeFrame,
  type UnsubscribeFrame,
} from './ws-protocol.js';

const RECORDS_FRAME_END = Buffer.from(']}');

export const GROUPS_UNAVAILABLE = 'Consumer groups over WebSocket are not available yet on this broker';

export interface SessionDeps {
  replicas: ReplicaManager;
  producer: ProduceService;
  limits: WsLimits;
  produceRecordsMax: number;
  clock: Clock;
  cache: RecordJsonCache;
  reads: SharedReads;
}

class Subscription implements StreamSink {
  readonly abort = new AbortController();
  private readonly wakers = new Set<() => void>();
  private readonly framePrefix: Buffer;

  constructor(
    readonly id: FrameId,
    readonly credits: CreditWindow,
    private readonly session: WsSession,
  ) {
    this.framePrefix = Buffer.from(`{"op":"records","id":${JSON.stringify(id)},"records":[`);
  }

  room(): number {
    return this.session.flowing ? this.credits.available : 0;
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
    this.session.sendRecords(this.framePrefix, run.joinedJson);
  }

  fail(topic: string, partition: number, error: BrookError): void {
    this.session.sendError(
      new BrookError(error.status, error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`),
      this.id,
    );
  }
}

export class WsSession {
  /** False once this session closed the socket or saw it close. */
  private open = true;
  private produceInFlight = 0;
  private readingPaused = false;
  /** Set on every pong; cleared at every ping. */
  alive = true;
  private readonly subscriptions = new Map<FrameId, Subscription>();
  readonly pressure: SendPressure;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: SessionDeps,
  ) {
    this.pressure = new SendPressure(
      {
        pauseBytes: deps.limits.bufferedBytesPause,
        maxBytes: deps.limits.bufferedBytesMax,
        slowTimeoutMs: deps.limits.slowConsumerTimeoutMs,
      },
      deps.clock,
    );
    socket.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.closed());
    socket.on('error', () => this.closed());
  }

  get flowing(): boolean {
    return this.open && this.pressure.state === 'flowing';
  }

  /** Whether this session stopped reading the socket itself (liveness is then judged by the send pressure). */
  get readingPausedByBroker(): boolean {
    return this.readingPaused;
  }

  send(text: string): void {
    if (!this.open) return;
    this.socket.send(text, () => this.observePressure());
    this.observePressure();
  }

  /**
   * A `records` frame as one text message in three fragments: the subscription's prefix, the records' JSON (one
   * Buffer shared by every subscriber of the same run, not copied) and the closing brackets.
   */
  sendRecords(prefix: Buffer, joinedJson: Buffer): void {
    if (!this.open) return;
    this.socket.send(prefix, { binary: false, fin: false });
    this.socket.send(joinedJson, { binary: false, fin: false });
    this.socket.send(RECORDS_FRAME_END, { binary: false, fin: true }, () => this.observePressure());
    this.observePressure();
  }

  sendError(error: BrookError, id?: FrameId): void {
    this.send(errorFrame(error, id));
  }

  /** Periodic check: closes the socket once it has been paused for the slow-consumer timeout. */
  checkPressure(): void {
    if (this.open && this.pressure.check() === 'closed') this.closeSlow();
  }

  close(code: number, reason: string): void {
    if (!this.open) return;
    this.socket.close(code, reason);
    // Read again so that the client's closing frame completes the handshake (otherwise ws waits 30 s).
    if (this.readingPaused) this.socket.resume();
    this.closed();
  }

  private observePressure(): void {
    if (!this.open) return;
    const state = this.pressure.observe(this.socket.bufferedAmount);
    if (state === 'closed') this.closeSlow();
    else this.updateReading();
    if (state === 'flowing') for (const subscription of this.subscriptions.values()) subscription.wake();
  }

  private closeSlow(): void {
    this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
  }

  private updateReading(): void {
    const pause = this.pressure.state !== 'flowing' || this.produceInFlight >= this.deps.limits.produceInFlightMax;
    if (pause === this.readingPaused || !this.open) return;
    this.readingPaused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    for (const subscription of this.subscriptions.values()) subscription.abort.abort();
    this.subscriptions.clear();
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (!this.open) return;
    if (isBinary) {
      this.sendError(errors.invalidRequest('Binary frames are not accepted; send JSON text frames.'));
      return;
    }
    const parsed = parseClientFrame(
      data.toString('utf8'),
      {
        produceRecordsMax: this.deps.produceRecordsMax,
        creditsMax: this.deps.limits.creditsMax,
        defaultCredits: DEFAULT_CREDITS,
        assignPartitionsMax: this.deps.limits.assignPartitionsMax,
      },
      this.deps.clock.nowMs(),
    );
    if (!parsed.ok) {
      this.sendError(parsed.error, parsed.id);
      return;
    }
    const frame = parsed.frame;
    switch (frame.op) {
      case 'produce':
        void this.produce(frame);
        return;
      case 'subscribe':
        void this.subscribe(frame);
        return;
      case 'credit':
        this.credit(frame);
        return;
      case 'unsubscribe':
        this.unsubscribe(frame);
        return;
      case 'commit':
        this.commit(frame);
        return;
    }
  }

  private async produce(frame: ProduceFrame): Promise<void> {
    this.produceInFlight++;
    this.updateReading();
    try {
      const outcomes = await this.deps.producer.produce(frame.topic, frame.records, frame.acks);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      if (failed.length === outcomes.length && !failed[0].ok) {
        this.sendError(failed[0].error, frame.id);
        return;
      }
      const offsets = outcomes.map((outcome) =>
        outcome.ok
          ? { partition: outcome.partition, offset: outcome.offset }
          : {
              partition: outcome.partition,
              offset: null,
              error_code: errorFrameCode(outcome.error),
              message: outcome.error.message,
            },
      );
      this.send(JSON.stringify({ op: 'ack', id: frame.id, offsets }));
    } catch (error) {
      this.sendError(asBrookError(error), frame.id);
    } finally {
      this.produceInFlight--;
      this.updateReading();
    }
  }

  private async subscribe(frame: SubscribeFrame): Promise<void> {
    if (this.subscriptions.has(frame.id)) {
      this.sendError(new BrookError(409, 40901, `Subscription ${frame.id} already exists on this socket.`), frame.id);
      return;
    }
    if (this.subscriptions.size >= this.deps.limits.subscriptionsMax) {
      this.sendError(
        new BrookError(429, 42901, `At most ${this.deps.limits.subscriptionsMax} subscriptions per socket.`),
        frame.id,
      );
      return;
    }
    if (frame.assign === null) {
      this.sendError(errors.invalidRequest(`${GROUPS_UNAVAILABLE}; subscribe with assign.`), frame.id);
      return;
    }
    const subscription = new Subscription(frame.id, new CreditWindow(frame.credits, this.deps.limits.creditsMax), this);
    this.subscriptions.set(frame.id, subscription);
    let starts: Array<PartitionStart & { offset: number }>;
    try {
      starts = await Promise.all(frame.assign.map((start) => this.startOffset(start, frame)));
    } catch (error) {
      if (this.subscriptions.get(frame.id) === subscription) this.subscriptions.delete(frame.id);
      this.sendError(asBrookError(error), frame.id);
      return;
    }
    if (subscription.abort.signal.aborted) return;
    this.send(JSON.stringify({ op: 'subscribed', id: frame.id, partitions: starts }));
    for (const start of starts) {
      void streamPartition(this.deps.replicas, subscription, {
        ...start,
        format: frame.format,
        fetchBytes: this.deps.limits.fetchBytesMax,
        cache: this.deps.cache,
        reads: this.deps.reads,
        signal: subscription.abort.signal,
      });
    }
  }

  private async startOffset(
    start: PartitionStart,
    frame: SubscribeFrame,
  ): Promise<PartitionStart & { offset: number }> {
    const { topic, partition } = start;
    const { earliest, latest } = this.deps.replicas.offsets(topic, partition);
    if (start.offset !== null) {
      if (start.offset < earliest || start.offset > latest) {
        throw errors.invalidRequest(
          `Offset ${start.offset} of ${topic}-${partition} is out of range [${earliest}, ${latest}].`,
        );
      }
      return { topic, partition, offset: start.offset };
    }
    if (frame.from === 'earliest') return { topic, partition, offset: earliest };
    if (frame.from === 'latest') return { topic, partition, offset: latest };
    const offset = await this.deps.replicas.offsetForTimestamp(topic, partition, frame.timestampMs!);
    return { topic, partition, offset };
  }

  private credit(frame: CreditFrame): void {
    const subscription = this.subscriptions.get(frame.id);
    if (subscription === undefined) {
      this.sendError(errors.invalidRequest(`No subscription ${frame.id} on this socket.`), frame.id);
      return;
    }
    if (!subscription.credits.grant(frame.n)) {
      this.sendError(
        errors.invalidRequest(
          `Credit of ${frame.n} refused: subscription ${frame.id} would hold more than ${subscription.credits.max} credits (it has ${subscription.credits.available}).`,
        ),
        frame.id,
      );
      return;
    }
    subscription.wake();
  }

  private unsubscribe(frame: UnsubscribeFrame): void {
    const subscription = this.subscriptions.get(frame.id);
    if (subscription === undefined) {
      this.sendError(errors.invalidRequest(`No subscription ${frame.id} on this socket.`), frame.id);
      return;
    }
    subscription.abort.abort();
    this.subscriptions.delete(frame.id);
  }

  private commit(frame: CommitFrame): void {
    this.sendError(errors.invalidRequest(`${GROUPS_UNAVAILABLE}; commit needs a group.`), frame.id);
  }
}

function asBrookError(error: unknown): BrookError {
  return error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
}
