// The subscriptions of one WebSocket (at most BROOK_WS_SUBSCRIPTIONS_MAX), by their frame id: explicit
// (`assign`, every partition started at once) or group members (application/streaming/group-member.ts, partitions
// started per rebalance and heartbeated by the socket's pongs). Carries out the subscribe, credit, unsubscribe and
// commit frames; a frame it refuses is a thrown BrookError (the gateway's exception filter answers it). Each
// subscription is registered with the stream guard by its rights (socket-security.ts): a revoked right ends it
// with 40301, and so does a failed read check before a delivery.
import { BrookError, errors } from '../common/brook-error.js';
import type { PartitionRouter } from '../replication/partition-router.service.js';
import { GroupMember, type MemberEvent, type MemberOwner } from '../application/streaming/group-member.js';
import type { StreamGroupPort } from '../application/streaming/group-port.js';
import type { SharedReads } from '../application/streaming/partition-stream.js';
import type { RecordJsonCache } from '../application/streaming/record-json-cache.js';
import type { WsLimits } from '../config/stream-limits.js';
import { CreditWindow } from './flow-control.js';
import type { SocketSecurity } from './socket-security.js';
import { assignedStarts, Subscription, type SubscriptionOwner } from './subscription.js';
import type {
  CommitFrame,
  CreditFrame,
  FrameId,
  PartitionStart,
  SubscribeFrame,
  UnsubscribeFrame,
} from './ws-protocol.js';

export interface SubscriptionsDeps {
  replicas: PartitionRouter;
  cache: RecordJsonCache;
  reads: SharedReads;
  groups: StreamGroupPort;
  topicExists: (topic: string) => boolean;
  limits: WsLimits;
}

/** What the subscriptions need of their socket. */
export interface SubscriptionsSocket {
  readonly flowing: boolean;
  send(text: string): void;
  sendRecords(prefix: Buffer, joinedJson: Buffer): void;
  sendError(error: BrookError, id?: FrameId): void;
}

interface Entry {
  subscription: Subscription;
  member: GroupMember | null;
  unguard: () => void;
}

export class SocketSubscriptions implements SubscriptionOwner, MemberOwner {
  private readonly entries = new Map<FrameId, Entry>();

  constructor(
    private readonly socket: SubscriptionsSocket,
    private readonly security: SocketSecurity,
    private readonly deps: SubscriptionsDeps,
  ) {}

  get count(): number {
    return this.entries.size;
  }

  get flowing(): boolean {
    return this.socket.flowing;
  }

  ids(): FrameId[] {
    return [...this.entries.keys()];
  }

  /** The group of a group subscription, for the rights of its commit frames; null for any other id. */
  groupOf(id: FrameId): string | null {
    return this.entries.get(id)?.member?.group ?? null;
  }

  async subscribe(frame: SubscribeFrame): Promise<void> {
    if (this.entries.has(frame.id))
      throw new BrookError(409, 40901, `Subscription ${frame.id} already exists on this socket.`);
    const { limits } = this.deps;
    if (this.entries.size >= limits.subscriptionsMax)
      throw new BrookError(429, 42901, `At most ${limits.subscriptionsMax} subscriptions per socket.`);
    const subscription = new Subscription(
      frame.id,
      new CreditWindow(frame.credits, limits.creditsMax),
      frame.format,
      this,
      {
        replicas: this.deps.replicas,
        cache: this.deps.cache,
        reads: this.deps.reads,
        fetchBytes: limits.fetchBytesMax,
      },
      this.security.subscriptionChecks(frame.id),
    );
    const entry: Entry = { subscription, member: null, unguard: this.security.guardSubscription(frame) };
    this.entries.set(frame.id, entry);
    try {
      if (frame.assign !== null) await this.startAssigned(frame, frame.assign, subscription);
      else await this.joinGroup(frame, entry);
    } catch (error) {
      if (this.entries.get(frame.id) === entry) this.end(frame.id);
      throw error;
    }
  }

  credit(frame: CreditFrame): void {
    const subscription = this.entries.get(frame.id)?.subscription;
    if (subscription === undefined) throw errors.invalidRequest(`No subscription ${frame.id} on this socket.`);
    if (!subscription.credits.grant(frame.n)) {
      throw errors.invalidRequest(
        `Credit of ${frame.n} refused: subscription ${frame.id} would hold more than ${subscription.credits.max} credits (it has ${subscription.credits.available}).`,
      );
    }
    subscription.wake();
  }

  unsubscribe(frame: UnsubscribeFrame): void {
    if (!this.entries.has(frame.id)) throw errors.invalidRequest(`No subscription ${frame.id} on this socket.`);
    this.end(frame.id);
  }

  async commit(frame: CommitFrame): Promise<void> {
    const member = this.entries.get(frame.id)?.member;
    if (member === undefined || member === null) {
      throw errors.invalidRequest(
        `No group subscription ${frame.id} on this socket; commit names a group subscription.`,
      );
    }
    await member.commit(frame.offsets);
    this.socket.send(JSON.stringify({ op: 'committed', id: frame.id }));
  }

  /** The socket can send again: every subscription waiting for room looks again. */
  wake(): void {
    for (const { subscription } of this.entries.values()) subscription.wake();
  }

  /** A pong: every group member heartbeats. */
  heartbeat(): void {
    for (const { member } of this.entries.values()) void member?.heartbeat();
  }

  /** Ends one subscription with an error frame. */
  endWith(id: FrameId, error: BrookError): void {
    this.socket.sendError(error, id);
    this.end(id);
  }

  endAll(): void {
    for (const id of this.ids()) this.end(id);
  }

  sendRecords(prefix: Buffer, joinedJson: Buffer): void {
    this.socket.sendRecords(prefix, joinedJson);
  }

  sendError(error: BrookError, id?: FrameId): void {
    this.socket.sendError(error, id);
  }

  readRefused(id: FrameId, topic: string): void {
    const message = `${this.security.principal} is no longer authorized to READ topic '${topic}'; the subscription is ended.`;
    this.endWith(id, new BrookError(403, 40301, message));
  }

  /** A group member's `revoked` or `assigned`, as a frame of its subscription. */
  announce(event: MemberEvent, id: FrameId): void {
    this.socket.send(
      JSON.stringify(
        event.op === 'revoked'
          ? { op: 'revoked', id, partitions: event.partitions }
          : { op: 'assigned', id, partitions: event.partitions, generation: event.generation },
      ),
    );
  }

  /** A group member is gone: forget its subscription. */
  ended(id: FrameId): void {
    this.entries.get(id)?.unguard();
    this.entries.delete(id);
  }

  private end(id: FrameId): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    entry.unguard();
    entry.subscription.streams.close();
    entry.member?.close();
  }

  private async startAssigned(frame: SubscribeFrame, assign: PartitionStart[], subscription: Subscription) {
    const starts = await assignedStarts(this.deps.replicas, assign, frame.from, frame.timestampMs);
    if (subscription.streams.closed) return;
    this.socket.send(JSON.stringify({ op: 'subscribed', id: frame.id, partitions: starts }));
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
      this.deps.reads.clock,
    );
    entry.member = member;
    await member.join();
    if (entry.subscription.streams.closed) {
      member.close();
      return;
    }
    this.socket.send(JSON.stringify({ op: 'subscribed', id: frame.id, partitions: [] }));
  }
}
