// The coordinator's clock work, every GROUP_TICK_INTERVAL_MS on the injected Clock, and once more when a group's
// rebalance is due between two ticks: each group held here is ticked (members whose session expired leave, a due
// generation is computed by the group's assignor and written before it takes effect, then its members are told
// their assignments), and every offsets.retention.check.interval.ms the offsets of groups empty past
// offsets.retention.minutes, and of deleted topics, are expired.
import type { LoggerService } from '@nestjs/common';
import { everyMs, type CancelTimer, type Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { ClassicSink } from './classic-sink.js';
import type { ConsumerGroup, TopicCounts } from './consumer-group.js';
import { offsetsToExpire } from './group-offsets.js';
import type { GroupWriter } from './group-writer.js';
import type { HeldGroups } from './held-groups.js';
import type { MemberListeners } from './member-listeners.js';

/** How often groups are ticked (member expiry, due rebalances). */
export const GROUP_TICK_INTERVAL_MS = 100;

export interface GroupTickerDeps {
  config: BrokerConfig;
  clock: Clock;
  logger: LoggerService;
  held: HeldGroups;
  writer: GroupWriter;
  listeners: MemberListeners;
  /** Where a tick's classic effects go (null before classic-groups.service.ts attaches). */
  classicSink: () => ClassicSink | null;
}

export class GroupTicker {
  private cancel: CancelTimer | null = null;
  /** The timer of wakeForRebalance, if one is set. */
  private wake: { dueMs: number; cancel: CancelTimer } | null = null;
  private lastRetentionCheckMs = 0;

  constructor(private readonly deps: GroupTickerDeps) {}

  start(): void {
    this.lastRetentionCheckMs = this.deps.clock.monotonicMs();
    this.cancel = everyMs(this.deps.clock, GROUP_TICK_INTERVAL_MS, () => this.tick());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.wake?.cancel();
    this.wake = null;
  }

  /**
   * Ticks once more when `group`'s rebalance is due, between the periodic ticks: a generation is computed when its
   * join phase ends (group.initial.rebalance.delay.ms after the last join, or at once for a running group whose
   * members changed), as Kafka's delayed join completes, rather than up to a tick interval later.
   */
  wakeForRebalance(group: ConsumerGroup): void {
    const dueMs = group.rebalanceDueMs;
    if (dueMs !== null) this.wakeAt(dueMs);
  }

  /** One timer, at the earliest due time asked; when it fires the groups still due later set the next one. */
  private wakeAt(dueMs: number): void {
    if (this.cancel === null || (this.wake !== null && this.wake.dueMs <= dueMs)) return;
    this.wake?.cancel();
    const cancel = this.deps.clock.setTimer(
      Math.max(0, Math.ceil(dueMs - this.deps.clock.monotonicMs())),
      () => {
        this.wake = null;
        this.tick();
        // a due time this tick passed by is left to the periodic tick (it must not spin)
        const now = this.deps.clock.monotonicMs();
        let nextMs = Infinity;
        for (const held of this.deps.held.groups.values()) {
          const heldDueMs = held.rebalanceDueMs;
          if (heldDueMs !== null && heldDueMs > now) nextMs = Math.min(nextMs, heldDueMs);
        }
        if (nextMs !== Infinity) this.wakeAt(nextMs);
      },
      { background: true },
    );
    this.wake = { dueMs, cancel };
  }

  private tick(): void {
    const { held, writer, listeners, logger, clock, config } = this.deps;
    const topics = held.topicCounts();
    for (const group of [...held.groups.values()]) {
      const { expired, write, classic } = group.tick(topics);
      if (classic !== undefined && !classic.empty) this.deps.classicSink()?.apply(group, classic);
      for (const member of expired) listeners.notify(group.groupId, member.memberId, null);
      if (write === null) continue;
      writer.append(group.groupId, [{ kind: 'group', group: group.groupId, value: write }]).then(
        () => {
          for (const member of group.members.values()) {
            listeners.notify(group.groupId, member.memberId, group.assignmentOf(member.memberId));
          }
        },
        (error: unknown) => {
          group.rebalanceWriteFailed(write.generation);
          logger.warn(`group ${group.groupId}: writing generation failed: ${(error as Error).message}`);
        },
      );
    }
    const now = clock.monotonicMs();
    if (now - this.lastRetentionCheckMs >= config.groups.offsetsRetentionCheckIntervalMs) {
      this.lastRetentionCheckMs = now;
      void this.expireOffsets(topics);
    }
  }

  /** Offset retention: offsets of groups empty past offsets.retention.minutes, and of deleted topics, go. */
  private async expireOffsets(topics: TopicCounts): Promise<void> {
    const { held, writer, logger, config } = this.deps;
    for (const group of [...held.groups.values()]) {
      const expired = offsetsToExpire(group, topics, config.groups.offsetsRetentionMs);
      try {
        await writer.append(group.groupId, expired);
        if (group.isEmptyOfState() && group.state === 'Empty') {
          await writer.append(group.groupId, [{ kind: 'group', group: group.groupId, value: null }]);
        }
      } catch (error) {
        logger.warn(`group ${group.groupId}: offset expiry failed: ${(error as Error).message}`);
      }
    }
  }
}
