// One WebSocket connection to /v3/ws: dispatches the client's frames (ws-protocol.ts) and owns the socket's
// subscriptions (subscription.ts), explicit (`assign`) or as group members (application/streaming/group-member.ts,
// heartbeated by the socket's pongs). Every record sent is paid for by a credit (CreditWindow per subscription) and
// nothing is read from the log while the socket's send queue is past its pause mark (SendPressure per socket); a
// socket paused too long, or with too much queued, is closed with 4001. Produce frames of one socket are appended
// concurrently up to BROOK_WS_PRODUCE_IN_FLIGHT_MAX; beyond that, and while the socket is paused, its frames are not
// read. Each error is an `error` frame; the socket stays open (except for the closes above and the library's 1009).
// Security during its life is socket-security.ts: a revoked right ends a subscription (40301), a revoked
// credential closes the socket (4003), a quota in debt stops the reading of frames (a `throttled` notice).
import type { WebSocket } from 'ws';
import { BrookError, errors } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import { ProduceService } from '../application/produce/produce.service.js';
import { CreditWindow, SendPressure } from './flow-control.js';
import { GroupMember, type MemberEvent, type MemberOwner } from '../application/streaming/group-member.js';
import type { StreamGroupPort } from '../application/streaming/group-port.js';
import type { SharedReads } from '../application/streaming/partition-stream.js';
import type { RecordJsonCache } from '../application/streaming/record-json-cache.js';
import { SocketSecurity, type SocketSecurityDeps } from './socket-security.js';
import { assignedStarts, Subscription, type SubscriptionOwner } from './subscription.js';
import type { WsLimits } from '../config/stream-limits.js';
import { CLOSE_CODES, DEFAULT_CREDITS } from './ws-limits.js';
import {
  ackFrame,
  errorFrame,
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

export interface SessionDeps extends SocketSecurityDeps {
  replicas: PartitionRouter;
  producer: ProduceService;
  limits: WsLimits;
  produceRecordsMax: number;
  clock: Clock;
  cache: RecordJsonCache;
  reads: SharedReads;
  groups: StreamGroupPort;
  topicExists: (topic: string) => boolean;
  /** Throws (403, 40301) when the socket's principal may not do what the frame asks (ACLs, issue 9). */
  authorize: (frame: Record<string, unknown>, subscriptionGroup: string | null) => void;
}

interface Entry {
  subscription: Subscription;
  member: GroupMember | null;
  unguard: () => void;
}

export class WsSession implements SubscriptionOwner, MemberOwner {
  /** False once this session closed the socket or saw it close. */
  private open = true;
  private produceInFlight = 0;
  private readingPaused = false;
  private readonly security: SocketSecurity;
  /** Set on every pong; cleared at every ping. */
  alive = true;
  private readonly subscriptions = new Map<FrameId, Entry>();
  readonly pressure: SendPressure;

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

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
    this.security = new SocketSecurity(deps, {
      send: (text) => this.send(text),
      revoke: (error) => {
        for (const id of this.subscriptions.keys()) this.sendError(error, id);
        this.close(CLOSE_CODES.credentialRevoked, 'credential no longer valid');
      },
      endSubscription: (id, error) => {
        this.sendError(error, id);
        this.end(id);
      },
      pauseFrames: () => this.updateReading(),
    });
    socket.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    socket.on('pong', () => this.onPong());
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

  /** A group member's `revoked` or `assigned`, as a frame of its subscription. */
  announce(event: MemberEvent, id: FrameId): void {
    this.send(
      JSON.stringify(
        event.op === 'revoked'
          ? { op: 'revoked', id, partitions: event.partitions }
          : { op: 'assigned', id, partitions: event.partitions, generation: event.generation },
      ),
    );
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
    if (state === 'flowing') for (const { subscription } of this.subscriptions.values()) subscription.wake();
  }

  private closeSlow(): void {
    this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
  }

  private updateReading(): void {
    const pause =
      this.pressure.state !== 'flowing' ||
      this.produceInFlight >= this.deps.limits.produceInFlightMax ||
      this.security.framesPaused;
    if (pause === this.readingPaused || !this.open) return;
    this.readingPaused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.security.close();
    for (const id of [...this.subscriptions.keys()]) this.end(id);
  }

  readRefused(id: FrameId, topic: string): void {
    const message = `${this.security.principal} is no longer authorized to READ topic '${topic}'; the subscription is ended.`;
    this.sendError(new BrookError(403, 40301, message), id);
    this.end(id);
  }

  /** A group member is gone: forget its subscription. */
  ended(id: FrameId): void {
    this.subscriptions.get(id)?.unguard();
    this.subscriptions.delete(id);
  }

  private end(id: FrameId): void {
    const entry = this.subscriptions.get(id);
    if (entry === undefined) return;
    this.subscriptions.delete(id);
    entry.unguard();
    entry.subscription.streams.close();
    entry.member?.close();
  }

  private onPong(): void {
    this.alive = true;
    for (const { member } of this.subscriptions.values()) void member?.heartbeat();
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
    this.security.frameArrived(data.length, parsed.ok && parsed.frame.op === 'produce');
    if (!parsed.ok) {
      this.sendError(parsed.error, parsed.id);
      return;
    }
    const frame = parsed.frame;
    try {
      const group = frame.op === 'commit' ? (this.subscriptions.get(frame.id)?.member?.group ?? null) : null;
      this.deps.authorize(frame as unknown as Record<string, unknown>, group);
    } catch (error) {
      this.sendError(asBrookError(error), frame.id);
      return;
    }
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
        void this.commit(frame);
        return;
    }
  }

  private async produce(frame: ProduceFrame): Promise<void> {
    this.produceInFlight++;
    this.updateReading();
    try {
      const outcomes = await this.deps.producer.produce(frame.topic, frame.records, frame.acks, frame.producer);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      if (failed.length === outcomes.length && !failed[0].ok) {
        this.sendError(failed[0].error, frame.id);
        return;
      }
      this.send(ackFrame(frame.id, outcomes));
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
    const subscription = new Subscription(
      frame.id,
      new CreditWindow(frame.credits, this.deps.limits.creditsMax),
      frame.format,
      this,
      {
        replicas: this.deps.replicas,
        cache: this.deps.cache,
        reads: this.deps.reads,
        fetchBytes: this.deps.limits.fetchBytesMax,
      },
      this.security.subscriptionChecks(frame.id),
    );
    const entry: Entry = { subscription, member: null, unguard: this.security.guardSubscription(frame) };
    this.subscriptions.set(frame.id, entry);
    try {
      if (frame.assign !== null) await this.startAssigned(frame, frame.assign, subscription);
      else await this.joinGroup(frame, entry);
    } catch (error) {
      if (this.subscriptions.get(frame.id) === entry) this.end(frame.id);
      this.sendError(asBrookError(error), frame.id);
    }
  }

  private async startAssigned(frame: SubscribeFrame, assign: PartitionStart[], subscription: Subscription) {
    const starts = await assignedStarts(this.deps.replicas, assign, frame.from, frame.timestampMs);
    if (subscription.streams.closed) return;
    this.send(JSON.stringify({ op: 'subscribed', id: frame.id, partitions: starts }));
    for (const { topic, partition, offset } of starts) subscription.streams.startPartition(topic, partition, offset);
  }

  private async joinGroup(frame: SubscribeFrame, entry: Entry): Promise<void> {
    const topics = frame.topics!;
    for (const topic of topics) {
      if (!this.deps.topicExists(topic)) throw errors.topicNotFound(topic);
    }
    const member = new GroupMember(
      {
        id: frame.id,
        group: frame.group!,
        topics,
        groupInstanceId: frame.groupInstanceId,
        from: frame.from,
        timestampMs: frame.timestampMs,
      },
      entry.subscription.streams,
      this.deps.groups,
      this.deps.replicas,
      this,
      this.deps.limits.groupSessionTimeoutMs,
    );
    entry.member = member;
    await member.join();
    if (entry.subscription.streams.closed) {
      member.close();
      return;
    }
    this.send(JSON.stringify({ op: 'subscribed', id: frame.id, partitions: [] }));
  }

  private credit(frame: CreditFrame): void {
    const subscription = this.subscriptions.get(frame.id)?.subscription;
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
    if (!this.subscriptions.has(frame.id)) {
      this.sendError(errors.invalidRequest(`No subscription ${frame.id} on this socket.`), frame.id);
      return;
    }
    this.end(frame.id);
  }

  private async commit(frame: CommitFrame): Promise<void> {
    const member = this.subscriptions.get(frame.id)?.member;
    if (member === undefined || member === null) {
      this.sendError(
        errors.invalidRequest(`No group subscription ${frame.id} on this socket; commit names a group subscription.`),
        frame.id,
      );
      return;
    }
    try {
      await member.commit(frame.offsets);
      this.send(JSON.stringify({ op: 'committed', id: frame.id }));
    } catch (error) {
      this.sendError(asBrookError(error), frame.id);
    }
  }
}

export function asBrookError(error: unknown): BrookError {
  return error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
}
