// Streaming group members (WebSocket and SSE) in a cluster. A member's calls go to its group's coordinator (the
// leader of the group's __consumer_offsets partition): this broker through CoordinatorGroupPort, another broker
// through the internal ws-groups routes (internal/ws-groups.internal.controller.ts). Watching a remote member is a
// long poll for a generation newer than the last one seen.
//
// The coordinator can move (its broker died, or the offsets partition's leadership moved). When the coordinator the
// member joined no longer answers for it and another broker now coordinates the group, the member joins there again
// under the same id and subscription, as a Kafka consumer rejoins after NOT_COORDINATOR: the socket sees a new
// generation (`revoked`/`assigned`), not an error. Only a coordinator that is still the group's coordinator and no
// longer knows the member ends the subscription (its session expired).
import { PEER_REQUEST_TIMEOUT_MS, PeerClient } from '../../cluster/peer-client.js';
import { BrookError, errors } from '../../common/brook-error.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import type { GroupAssignment, StreamGroupPort } from './group-port.js';
import { type Clock, sleep, systemClock } from '../../common/clock.js';

/** How long one long poll for a remote member's next generation waits at the coordinator. */
export const WS_GROUP_POLL_WAIT_MS = 5_000;
/** Pause after a failed poll (coordinator unreachable or moving) before asking again. */
const POLL_RETRY_MS = 250;
/** Bound on the pause between failed polls (a peer that keeps refusing is asked at most this often). */
const POLL_RETRY_MS_MAX = 5_000;
/** How long a join keeps retrying while the coordinator is being elected or is loading the group. */
const JOIN_RETRY_MS_MAX = 15_000;

type JoinArgs = Parameters<StreamGroupPort['join']>[1];
type Listener = (assignment: GroupAssignment | null) => void;
/** Where a member joined: 'local' or the id of the coordinating broker. */
type Where = 'local' | number;

interface MemberLink {
  group: string;
  memberId: string;
  args: JoinArgs | null;
  listener: Listener | null;
  where: Where | null;
  stopLocalWatch: (() => void) | null;
  poll: AbortController | null;
  rejoining: Promise<boolean> | null;
  closed: boolean;
}

export interface CoordinatorLocator {
  /** The broker coordinating the group (NO_LEADER while its offsets partition has none), null before any group. */
  coordinatorOf(group: string): number | null;
  ensureOffsetsTopic(): Promise<void>;
}

export class RoutingGroupPort implements StreamGroupPort {
  private readonly links = new Map<string, MemberLink>();

  constructor(
    private readonly local: StreamGroupPort,
    private readonly locator: CoordinatorLocator,
    private readonly brokerId: number,
    private readonly peers: PeerClient,
    private readonly clock: Clock = systemClock,
  ) {}

  watch(group: string, memberId: string, listener: Listener): () => void {
    const link = this.link(group, memberId);
    link.listener = listener;
    // A local member's first generation can complete during the join: watch before it.
    if (this.target(group) === 'local') this.watchLocally(link);
    return () => this.unlink(link);
  }

  async join(group: string, member: JoinArgs): Promise<void> {
    const link = this.link(group, member.memberId);
    link.args = member;
    const deadline = this.clock.monotonicMs() + JOIN_RETRY_MS_MAX;
    for (;;) {
      try {
        await this.joinWhereCoordinated(link);
        return;
      } catch (error) {
        if (!isRetriable(error) || this.clock.monotonicMs() >= deadline || link.closed) throw error;
        await sleep(this.clock, POLL_RETRY_MS);
      }
    }
  }

  async assignment(group: string, memberId: string): Promise<GroupAssignment | null> {
    const link = this.links.get(key(group, memberId));
    const where = link?.where ?? this.target(group);
    if (where === 'local') return this.local.assignment(group, memberId);
    const answer = await this.remote<{ known: boolean; assignment: GroupAssignment | null }>(where, {
      method: 'GET',
      path: `${memberPath(group, memberId)}/assignment`,
      query: { after_generation: -1, wait_ms: 0 },
    });
    return answer.assignment;
  }

  async heartbeat(group: string, memberId: string): Promise<boolean> {
    const link = this.links.get(key(group, memberId));
    if (link === undefined || link.where === null) return this.local.heartbeat(group, memberId);
    if (this.target(group) !== link.where) return this.rejoin(link);
    const known =
      link.where === 'local'
        ? await this.local.heartbeat(group, memberId)
        : (
            await this.remote<{ known: boolean }>(link.where, {
              method: 'POST',
              path: `${memberPath(group, memberId)}/heartbeat`,
            })
          ).known;
    return known || this.rejoinIfMoved(link);
  }

  async leave(group: string, memberId: string): Promise<void> {
    const link = this.links.get(key(group, memberId));
    const where = link?.where ?? this.target(group);
    if (link !== undefined) this.unlink(link);
    if (where === 'local') return this.local.leave(group, memberId);
    await this.remote(where, { method: 'DELETE', path: memberPath(group, memberId) });
  }

  async commit(
    group: string,
    memberId: string,
    offsets: ReadonlyArray<{ topic: string; partition: number; offset: number }>,
    generations: ReadonlyMap<string, number>,
  ): Promise<void> {
    const where = this.target(group);
    if (where === 'local') return this.local.commit(group, memberId, offsets, generations);
    await this.remote(where, {
      method: 'POST',
      path: `/ws-groups/${encodeURIComponent(group)}/commit`,
      json: { member_id: memberId, offsets, generations: Object.fromEntries(generations) },
    });
  }

  async committed(group: string, topic: string, partition: number): Promise<number | null> {
    const where = this.target(group);
    if (where === 'local') return this.local.committed(group, topic, partition);
    const answer = await this.remote<{ offset: number | null }>(where, {
      method: 'GET',
      path: `/ws-groups/${encodeURIComponent(group)}/committed`,
      query: { topic, partition },
    });
    return answer.offset;
  }

  // ---- membership where the group is coordinated ----

  private async joinWhereCoordinated(link: MemberLink): Promise<void> {
    if (this.locator.coordinatorOf(link.group) === null) await this.locator.ensureOffsetsTopic();
    const where = this.target(link.group);
    const args = link.args!;
    if (where === 'local') {
      this.stopPolling(link);
      this.watchLocally(link);
      await this.local.join(link.group, args);
      if (link.closed) {
        this.stopLocalWatch(link);
        return;
      }
      link.where = 'local';
      return;
    }
    this.stopLocalWatch(link);
    const joined = await this.remote<{ generation: number }>(where, {
      method: 'POST',
      path: memberPath(link.group, link.memberId),
      json: {
        group_instance_id: args.groupInstanceId,
        topics: args.topics,
        session_timeout_ms: args.sessionTimeoutMs,
      },
    });
    if (link.closed) return; // unlinked meanwhile: its leave goes to the same coordinator
    link.where = where;
    this.startPolling(link, where, joined.generation);
  }

  /** The coordinator the member joined no longer knows it: join the new one if the group moved, else it is gone. */
  private async rejoinIfMoved(link: MemberLink): Promise<boolean> {
    if (link.closed || this.target(link.group) === link.where) return false;
    return this.rejoin(link);
  }

  /**
   * Joins wherever the group is coordinated now, retrying while the coordinator is being elected or loads the
   * group (bounded by JOIN_RETRY_MS_MAX); false when that fails: the member is gone. One rejoin at a time per member.
   */
  private rejoin(link: MemberLink): Promise<boolean> {
    link.rejoining ??= (async () => {
      const deadline = this.clock.monotonicMs() + JOIN_RETRY_MS_MAX;
      while (!link.closed && link.args !== null) {
        try {
          await this.joinWhereCoordinated(link);
          return true;
        } catch (error) {
          if (!isRetriable(error) || this.clock.monotonicMs() >= deadline) return false;
          await sleep(this.clock, POLL_RETRY_MS);
        }
      }
      return false;
    })().finally(() => {
      link.rejoining = null;
    });
    return link.rejoining;
  }

  private watchLocally(link: MemberLink): void {
    if (link.stopLocalWatch !== null) return;
    link.stopLocalWatch = this.local.watch(link.group, link.memberId, (assignment) => {
      if (assignment !== null) {
        link.listener?.(assignment);
        return;
      }
      link.stopLocalWatch = null;
      void this.rejoinIfMoved(link).then((rejoined) => {
        if (!rejoined && !link.closed) link.listener?.(null);
      });
    });
  }

  private startPolling(link: MemberLink, where: number, afterGeneration: number): void {
    this.stopPolling(link);
    const poll = new AbortController();
    link.poll = poll;
    void this.pollGenerations(link, where, afterGeneration, poll.signal);
  }

  /** Long polls the remote coordinator for each new generation of the member, until the link moves or closes. */
  private async pollGenerations(link: MemberLink, where: number, after: number, signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted && link.where === where) {
      let answer: { known: boolean; assignment: GroupAssignment | null };
      try {
        answer = await this.remote(where, {
          method: 'GET',
          path: `${memberPath(link.group, link.memberId)}/assignment`,
          query: { after_generation: after, wait_ms: WS_GROUP_POLL_WAIT_MS },
          timeoutMs: WS_GROUP_POLL_WAIT_MS + PEER_REQUEST_TIMEOUT_MS,
          signal,
        });
      } catch {
        if (signal.aborted) return;
        if (this.target(link.group) !== where) {
          if (!(await this.rejoin(link)) && !link.closed) link.listener?.(null);
          return;
        }
        failures++;
        const backoffMs = Math.min(POLL_RETRY_MS_MAX, POLL_RETRY_MS * 2 ** Math.min(failures - 1, 5));
        await sleep(this.clock, backoffMs, signal);
        continue;
      }
      if (signal.aborted) return;
      failures = 0;
      if (!answer.known) {
        if (!(await this.rejoinIfMoved(link)) && !link.closed) link.listener?.(null);
        return;
      }
      if (answer.assignment !== null && answer.assignment.generation > after) {
        after = answer.assignment.generation;
        link.listener?.(answer.assignment);
      }
    }
  }

  // ---- plumbing ----

  private target(group: string): Where {
    const coordinator = this.locator.coordinatorOf(group);
    return coordinator === null || coordinator === this.brokerId ? 'local' : coordinator;
  }

  private async remote<T = unknown>(
    brokerId: number,
    request: Omit<Parameters<PeerClient['call']>[1], 'path'> & { path: string },
  ): Promise<T> {
    if (brokerId === NO_LEADER)
      throw errors.retriable('The group coordinator is not available: its offsets partition has no leader.');
    const url = await this.peers.brokerUrl(brokerId);
    if (url === null) throw errors.retriable(`The group coordinator, broker ${brokerId}, is not available.`);
    try {
      const response = await this.peers.call(url, request);
      return (await response.json()) as T;
    } catch (error) {
      if (error instanceof BrookError) throw error;
      throw errors.retriable(`The group coordinator, broker ${brokerId}, did not answer: ${(error as Error).message}`);
    }
  }

  private link(group: string, memberId: string): MemberLink {
    const id = key(group, memberId);
    let link = this.links.get(id);
    if (link === undefined) {
      link = {
        group,
        memberId,
        args: null,
        listener: null,
        where: null,
        stopLocalWatch: null,
        poll: null,
        rejoining: null,
        closed: false,
      };
      this.links.set(id, link);
    }
    return link;
  }

  private unlink(link: MemberLink): void {
    link.closed = true;
    link.listener = null;
    this.stopLocalWatch(link);
    this.stopPolling(link);
    if (this.links.get(key(link.group, link.memberId)) === link) this.links.delete(key(link.group, link.memberId));
  }

  private stopLocalWatch(link: MemberLink): void {
    link.stopLocalWatch?.();
    link.stopLocalWatch = null;
  }

  private stopPolling(link: MemberLink): void {
    link.poll?.abort();
    link.poll = null;
  }
}

function key(group: string, memberId: string): string {
  return `${group}\u0000${memberId}`;
}

function memberPath(group: string, memberId: string): string {
  return `/ws-groups/${encodeURIComponent(group)}/members/${encodeURIComponent(memberId)}`;
}

function isRetriable(error: unknown): boolean {
  return error instanceof BrookError && error.status === 503;
}
