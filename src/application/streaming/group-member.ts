// A stream that is a member of a consumer group (a WebSocket `subscribe {topics, group}`, an SSE stream with
// `group=`). Each generation the coordinator hands it partitions; partitions taken away are stopped and announced
// as `revoked` before the new assignment is announced as `assigned`, and each newly assigned partition starts at
// the group's committed offset (or, without one, where `from` says). Liveness is the stream's: its owner calls
// heartbeat() (a WebSocket on every pong, SSE on a timer); a closed stream leaves the group at once, unless the
// member is static (`group_instance_id`), which keeps its partitions for the session timeout so that a reconnect
// under the same instance id takes them back without a rebalance. The broker is the member's group client: it
// retries the coordinator's retriable answers itself (coordinator-retry.ts).
import { randomUUID } from 'node:crypto';
import { BrookError, errors } from '../../common/brook-error.js';
import { type Clock, sleep, systemClock } from '../../common/clock.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { topicPartitionKey } from '../../group-coordinator/group-records.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { type RetryPorts, withCoordinatorRetries } from './coordinator-retry.js';
import type { GroupAssignment, StreamGroupPort } from './group-port.js';
import type { PartitionStreams } from './partition-streams.js';
import { startOffsetFor, type StartFrom } from './start-offset.js';

/** The id of the subscription the member is (a WebSocket frame id). */
export type SubscriptionId = string | number;

/** What the member subscribes to, and where a partition without a usable committed offset starts. */
export interface MemberSubscription {
  id: SubscriptionId;
  group: string;
  topics: string[];
  groupInstanceId: string | null;
  from: StartFrom;
  timestampMs: number | null;
}

/** The partition streams a member runs. */
export type MemberStreams = Pick<
  PartitionStreams<unknown>,
  'closed' | 'startPartition' | 'stopPartition' | 'close' | 'generations'
>;

/** A change of the member's partitions, announced before the records of newly assigned ones. */
export type MemberEvent =
  | { op: 'revoked'; partitions: TopicPartition[] }
  | { op: 'assigned'; partitions: TopicPartition[]; generation: number };

export interface MemberOwner {
  announce(event: MemberEvent, id: SubscriptionId): void;
  sendError(error: BrookError, id?: SubscriptionId): void;
  /** The member is gone (session expired, fenced): the subscription is over. */
  ended(id: SubscriptionId): void;
}

export class GroupMember {
  readonly memberId = `ws-${randomUUID()}`;
  private owned = new Map<string, TopicPartition>();
  private stopWatching: (() => void) | null = null;
  private left = false;
  /** Heartbeats count only once the coordinator has the member (joining can wait for the offsets topic). */
  private joined = false;
  private heartbeating = false;
  private readonly retries: RetryPorts = {
    sleep: (ms) => sleep(this.clock, ms),
    abandoned: () => this.left,
  };

  constructor(
    private readonly subscribed: MemberSubscription,
    private readonly streams: MemberStreams,
    private readonly port: StreamGroupPort,
    private readonly replicas: PartitionRouter,
    private readonly owner: MemberOwner,
    private readonly sessionTimeoutMs: number,
    /** The clock of the coordinator retries' pauses. */
    private readonly clock: Clock = systemClock,
  ) {}

  get group(): string {
    return this.subscribed.group;
  }

  async join(): Promise<void> {
    this.stopWatching = this.port.watch(this.group, this.memberId, (assignment) => void this.assign(assignment));
    const member = {
      memberId: this.memberId,
      groupInstanceId: this.subscribed.groupInstanceId,
      topics: this.subscribed.topics,
      sessionTimeoutMs: this.sessionTimeoutMs,
    };
    try {
      // a new group's coordinator may still be loading (or moving): ask again, as Kafka's clients do
      await withCoordinatorRetries(() => this.port.join(this.group, member), this.retries);
    } catch (error) {
      this.stop();
      throw error;
    }
    if (this.left) {
      // closed while the join was on its way: the leave sent then may have arrived first
      if (this.subscribed.groupInstanceId === null)
        void this.port.leave(this.group, this.memberId).catch(() => undefined);
      return;
    }
    this.joined = true;
    // A static member that came back with the same subscription keeps its partitions without a rebalance, so no
    // new generation will announce them: take them now.
    const current = await withCoordinatorRetries(() => this.port.assignment(this.group, this.memberId), this.retries);
    if (current !== null && current.partitions.length > 0 && this.owned.size === 0 && !this.left) {
      void this.assign(current);
    }
  }

  /** One heartbeat at a time; a coordinator that cannot be reached now is asked again at the next one. */
  async heartbeat(): Promise<void> {
    if (this.left || !this.joined || this.heartbeating) return;
    this.heartbeating = true;
    try {
      if (!(await this.port.heartbeat(this.group, this.memberId))) this.gone('its session expired');
    } catch {
      // unreachable or moving coordinator: the session timeout bounds how long this may last
    } finally {
      this.heartbeating = false;
    }
  }

  async commit(offsets: ReadonlyArray<{ topic: string; partition: number; offset: number }>): Promise<void> {
    await this.port.commit(this.group, this.memberId, offsets, this.streams.generations());
  }

  /** The subscription ends: a dynamic member leaves the group now, a static one when its session runs out. */
  close(): void {
    if (this.left) return;
    this.stop();
    if (this.subscribed.groupInstanceId === null)
      void this.port.leave(this.group, this.memberId).catch(() => undefined);
  }

  private stop(): void {
    this.left = true;
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private gone(why: string): void {
    if (this.left) return;
    this.stop();
    this.streams.close();
    this.owner.sendError(
      errors.fencedMember(`Member ${this.memberId} left group ${this.group}: ${why}.`),
      this.subscribed.id,
    );
    this.owner.ended(this.subscribed.id);
  }

  private async assign(assignment: GroupAssignment | null): Promise<void> {
    if (this.left || this.streams.closed) return;
    if (assignment === null) {
      this.gone('its session expired');
      return;
    }
    const next = new Map(assignment.partitions.map((tp) => [topicPartitionKey(tp.topic, tp.partition), tp]));
    const revoked = [...this.owned].filter(([key]) => !next.has(key)).map(([, tp]) => tp);
    const added = [...next].filter(([key]) => !this.owned.has(key)).map(([, tp]) => tp);
    for (const { topic, partition } of revoked) this.streams.stopPartition(topic, partition);
    this.owned = next;
    if (revoked.length > 0) this.owner.announce({ op: 'revoked', partitions: revoked }, this.subscribed.id);
    this.owner.announce(
      {
        op: 'assigned',
        partitions: [...next.values()].map(({ topic, partition }) => ({ topic, partition })),
        generation: assignment.generation,
      },
      this.subscribed.id,
    );
    for (const { topic, partition } of added) {
      try {
        // The committed offset, unless retention removed it or it is past the log end; then `from` decides.
        const committed = await this.port.committed(this.group, topic, partition);
        const { earliest, latest } = await this.replicas.offsets(topic, partition);
        const offset =
          committed !== null && committed >= earliest && committed <= latest
            ? committed
            : await startOffsetFor(this.replicas, topic, partition, this.subscribed.from, this.subscribed.timestampMs);
        if (this.left || this.owned.get(topicPartitionKey(topic, partition)) === undefined) continue;
        this.streams.startPartition(topic, partition, offset, assignment.generation);
      } catch (error) {
        this.owner.sendError(
          error instanceof BrookError ? error : errors.kafkaError((error as Error).message),
          this.subscribed.id,
        );
      }
    }
  }
}
