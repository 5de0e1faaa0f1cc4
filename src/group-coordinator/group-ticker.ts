// The coordinator's clock work, every GROUP_TICK_INTERVAL_MS on the injected Clock: each group held here is ticked
// (members whose session expired leave, a due generation is computed by the group's assignor and written before it
// takes effect, then its members are told their assignments), and every offsets.retention.check.interval.ms the
// offsets of groups empty past offsets.retention.minutes, and of deleted topics, are expired.
import type { LoggerService } from '@nestjs/common';
import { everyMs, type CancelTimer, type Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { ClassicSink } from './classic-sink.js';
import type { TopicCounts } from './consumer-group.js';
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
  private lastRetentionCheckMs = 0;

  constructor(private readonly deps: GroupTickerDeps) {}

  start(): void {
    this.lastRetentionCheckMs = this.deps.clock.monotonicMs();
    this.cancel = everyMs(this.deps.clock, GROUP_TICK_INTERVAL_MS, () => this.tick());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
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
