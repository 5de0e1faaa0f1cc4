import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import type { MemberAssignment } from './consumer-group.js';
import type { GroupRecord } from './group-records.js';
import { GROUP_TICK_INTERVAL_MS, GroupTicker } from './group-ticker.js';
import type { GroupWriter } from './group-writer.js';
import { HeldGroups } from './held-groups.js';
import { MemberListeners } from './member-listeners.js';

// The coordinator's tick on a ManualClock: the held groups are ticked through the clock's timers, a due generation
// goes through the writer (which here replays it at once, as a durable write would) before the members are told,
// expired members are told null, and the retention check expires offsets of topics that are gone.

const SESSION_MS = 10_000;
const RETENTION_CHECK_MS = 60_000;

function setUp(initialRebalanceDelayMs = 0) {
  const clock = new ManualClock();
  const config = {
    brokerId: 0,
    groups: {
      initialRebalanceDelayMs,
      defaultAssignor: 'range',
      maxSize: 10,
      minSessionTimeoutMs: 1,
      maxSessionTimeoutMs: 1_800_000,
      consumerInstanceTimeoutMs: 300_000,
      offsetsRetentionCheckIntervalMs: RETENTION_CHECK_MS,
      offsetsRetentionMs: 7 * 24 * 3_600_000,
    },
  } as unknown as BrokerConfig;
  const topics = new Map([['orders', { assignment: { replicas: [[0], [0], [0]] } } as unknown as TopicMetadata]]);
  const metadata = { allTopics: () => topics, topic: (name: string) => topics.get(name) } as unknown as MetadataCache;
  const held = new HeldGroups(config, metadata, clock, null);
  const written: GroupRecord[][] = [];
  const writer = {
    append: async (groupId: string, records: GroupRecord[]) => {
      if (records.length === 0) return;
      written.push(records);
      const group = held.groupOrCreate(groupId);
      for (const record of records) group.replay(record, 'live');
    },
  } as unknown as GroupWriter;
  const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const listeners = new MemberListeners(logger);
  const ticker = new GroupTicker({ config, clock, logger, held, writer, listeners, classicSink: () => null });
  return { clock, held, written, listeners, ticker };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function join(held: HeldGroups, memberId: string) {
  held.groupOrCreate('g').join({
    memberId,
    groupInstanceId: null,
    clientId: 'client',
    kind: 'ws',
    subscription: { topics: ['orders'] },
    sessionTimeoutMs: SESSION_MS,
    rebalanceTimeoutMs: 5_000,
  });
}

describe('GroupTicker', () => {
  it('writes a due generation on the next tick, then tells the members their assignment', async () => {
    const { clock, held, written, listeners, ticker } = setUp();
    const told: Array<MemberAssignment | null> = [];
    join(held, 'm1');
    listeners.watch('g', 'm1', (assignment) => told.push(assignment));
    ticker.start();
    clock.advance(GROUP_TICK_INTERVAL_MS - 1);
    await flush();
    expect(written).toEqual([]);
    clock.advance(1);
    await flush();
    expect(written).toHaveLength(1);
    expect(written[0][0]).toMatchObject({ kind: 'group', group: 'g' });
    expect(told).toHaveLength(1);
    expect(told[0]).not.toBeNull();
    expect(held.groups.get('g')?.state).toBe('Stable');
    ticker.stop();
  });

  it('tells a member whose session expired null, with no heartbeat on the way', async () => {
    const { clock, held, listeners, ticker } = setUp();
    const told: Array<MemberAssignment | null> = [];
    join(held, 'm1');
    listeners.watch('g', 'm1', (assignment) => told.push(assignment));
    ticker.start();
    clock.advance(GROUP_TICK_INTERVAL_MS);
    await flush();
    clock.advance(SESSION_MS + GROUP_TICK_INTERVAL_MS);
    await flush();
    expect(told.at(-1)).toBeNull();
    expect(held.groups.get('g')?.members.size).toBe(0);
    ticker.stop();
  });

  it('expires the offsets of a deleted topic at the retention check interval', async () => {
    const { clock, held, written, ticker } = setUp();
    const value = { offset: 5, leaderEpoch: -1, metadata: '', commitTimestampMs: clock.nowMs() };
    held.groupOrCreate('g').replay({ kind: 'offset', group: 'g', topic: 'gone', partition: 0, value }, 'live');
    ticker.start();
    clock.advance(RETENTION_CHECK_MS - GROUP_TICK_INTERVAL_MS);
    await flush();
    expect(written).toEqual([]);
    clock.advance(GROUP_TICK_INTERVAL_MS);
    await flush();
    expect(written[0]).toEqual([{ kind: 'offset', group: 'g', topic: 'gone', partition: 0, value: null }]);
    ticker.stop();
  });

  it('computes a generation when the initial delay ends between two ticks, extended by every join', async () => {
    const { clock, held, written, ticker } = setUp(30);
    ticker.start();
    clock.advance(10);
    join(held, 'm1'); // the join phase ends at 40
    ticker.wakeForRebalance(held.groupOrCreate('g'));
    clock.advance(10);
    join(held, 'm2'); // ... now at 50
    ticker.wakeForRebalance(held.groupOrCreate('g'));
    clock.advance(29);
    await flush();
    expect(written).toEqual([]);
    clock.advance(1);
    await flush();
    expect(written).toHaveLength(1);
    expect(held.groups.get('g')?.state).toBe('Stable');
    expect(held.groups.get('g')?.assignmentOf('m2')?.partitions.length).toBeGreaterThan(0);
    ticker.stop();
  });

  it('rebalances a stable group at once when a member leaves, not at the next tick', async () => {
    const { clock, held, written, ticker } = setUp();
    join(held, 'm1');
    join(held, 'm2');
    ticker.start();
    clock.advance(GROUP_TICK_INTERVAL_MS);
    await flush();
    expect(written).toHaveLength(1);
    held.groups.get('g')?.leave('m2');
    ticker.wakeForRebalance(held.groupOrCreate('g'));
    clock.advance(0);
    await flush();
    expect(written).toHaveLength(2);
    expect(held.groups.get('g')?.assignmentOf('m1')?.partitions).toHaveLength(3);
    ticker.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('stops ticking on stop: no timer is left on the clock', () => {
    const { clock, ticker } = setUp();
    ticker.start();
    expect(clock.pendingTimers).toBe(1);
    ticker.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});
