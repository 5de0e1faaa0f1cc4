// The consumer group state machine (consumer-group.ts) on a ManualClock, its offsets: commit fencing (who may
// commit which partition, in which generation), offset retention of an empty group, and deletion.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clock,
  completeRebalance,
  freshGroup,
  group,
  GROUP_ID,
  instance,
  replaceGroup,
  request,
  stableGroup,
  thrownBy,
  tp,
} from '../../test/support/groups/consumer-group-harness.js';
import { topicPartitionKey } from './group-records.js';

beforeEach(freshGroup);

describe('commit fencing', () => {
  it('accepts a commit of owned partitions and rejects one of partitions owned by another member', () => {
    stableGroup(request('a'), request('b'));
    expect(() => group.validateCommit('a', [tp('orders', 0), tp('orders', 2)])).not.toThrow();
    const error = thrownBy(() => group.validateCommit('a', [tp('orders', 0), tp('orders', 3)]));
    expect(error.status).toBe(409);
    expect(error.errorCode).toBe(40903);
  });

  it('rejects a commit from an unknown or departed member', () => {
    stableGroup(request('a'), request('b'));
    expect(thrownBy(() => group.validateCommit('nobody', [])).errorCode).toBe(40903);
    group.leave('b');
    expect(thrownBy(() => group.validateCommit('b', [tp('orders', 3)])).errorCode).toBe(40903);
  });

  it('rejects a commit from a member that joined but has no assignment yet', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    expect(thrownBy(() => group.validateCommit('b', [tp('orders', 5)])).errorCode).toBe(40903);
  });

  it('rejects a commit of a partition rebalanced away, even before the new generation is written', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    completeRebalance();
    expect(thrownBy(() => group.validateCommit('a', [tp('orders', 5)])).errorCode).toBe(40903);
    expect(() => group.validateCommit('b', [tp('orders', 5)])).not.toThrow();
  });

  it('accepts records fetched in any generation since which the member has owned the partition', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    completeRebalance(); // generation 2: a keeps orders-0..2
    expect(group.assignmentOf('a')!.ownedSince.get(topicPartitionKey('orders', 0))).toBe(1);
    expect(() =>
      group.validateCommit('a', [tp('orders', 0)], new Map([[topicPartitionKey('orders', 0), 1]])),
    ).not.toThrow();
  });

  it('rejects records fetched before a partition moved away and came back', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    completeRebalance(); // generation 2: orders-5 moves to b
    group.leave('b');
    completeRebalance(); // generation 3: orders-5 is a's again
    const key = topicPartitionKey('orders', 5);
    expect(group.assignmentOf('a')!.ownedSince.get(key)).toBe(3);
    const error = thrownBy(() => group.validateCommit('a', [tp('orders', 5)], new Map([[key, 1]])));
    expect(error.errorCode).toBe(40903);
    expect(() => group.validateCommit('a', [tp('orders', 5)], new Map([[key, 3]]))).not.toThrow();
    expect(() => group.validateCommit('a', [tp('orders', 5)])).not.toThrow();
  });

  it('lets a simple consumer (no member id) commit only while the group has no members', () => {
    expect(() => group.validateCommit(null, [tp('orders', 0)])).not.toThrow();
    stableGroup(request('a'));
    expect(thrownBy(() => group.validateCommit(null, [tp('orders', 0)])).errorCode).toBe(40903);
    group.leave('a');
    expect(() => group.validateCommit(null, [tp('orders', 0)])).not.toThrow();
  });
});

describe('offset retention', () => {
  const RETENTION_MS = 60_000;
  const commitNow = (topic: string, partition: number) =>
    group.replay(
      {
        kind: 'offset',
        group: GROUP_ID,
        topic,
        partition,
        value: { offset: 1, leaderEpoch: -1, metadata: '', commitTimestampMs: clock.nowMs() },
      },
      'live',
    );

  it('keeps the offsets of a group with members, however old', () => {
    stableGroup(request('a'));
    commitNow('orders', 0);
    clock.advance(10 * RETENTION_MS);
    group.heartbeat('a');
    expect(group.expiredOffsets(RETENTION_MS)).toEqual([]);
  });

  it('expires the offsets of a group empty for the retention, counted from when it became empty', () => {
    stableGroup(request('a'));
    commitNow('orders', 0);
    commitNow('orders', 1);
    clock.advance(RETENTION_MS);
    group.heartbeat('a');
    group.leave('a');
    completeRebalance(); // Empty from now
    clock.advance(RETENTION_MS - 1);
    expect(group.expiredOffsets(RETENTION_MS)).toEqual([]);
    clock.advance(1);
    expect(group.expiredOffsets(RETENTION_MS)).toEqual([
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 0, value: null },
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 1, value: null },
    ]);
  });

  it('counts from the commit when a simple consumer committed after the group became empty', () => {
    commitNow('orders', 0);
    clock.advance(RETENTION_MS / 2);
    commitNow('orders', 1);
    clock.advance(RETENTION_MS / 2);
    expect(group.expiredOffsets(RETENTION_MS).map((record) => record.kind === 'offset' && record.partition)).toEqual([
      0,
    ]);
  });

  it('counts from the last commit for a group rebuilt from its offsets alone, as Kafka does for a simple consumer', () => {
    const committedAtMs = clock.nowMs();
    clock.advance(RETENTION_MS); // the broker restarts a retention period after the only commit
    replaceGroup(); // start-up replay: the group has offsets and no group record
    group.replay(
      {
        kind: 'offset',
        group: GROUP_ID,
        topic: 'orders',
        partition: 0,
        value: { offset: 1, leaderEpoch: -1, metadata: '', commitTimestampMs: committedAtMs },
      },
      'load',
    );
    expect(group.expiredOffsets(RETENTION_MS)).toEqual([
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 0, value: null },
    ]);
  });

  it('keeps offsets while a rebalance is pending, even with no members left', () => {
    stableGroup(request('a'));
    commitNow('orders', 0);
    group.leave('a');
    clock.advance(RETENTION_MS);
    expect(group.state).toBe('PreparingRebalance');
    expect(group.expiredOffsets(RETENTION_MS)).toEqual([]);
  });
});

describe('deletion', () => {
  it('refuses to delete a group with members or instances', () => {
    stableGroup(request('a'));
    expect(thrownBy(() => group.deletionRecords()).errorCode).toBe(40904);
    group.leave('a');
    group.replay({ kind: 'instance', group: GROUP_ID, instance: 'i', value: instance(null) }, 'live');
    expect(thrownBy(() => group.deletionRecords()).errorCode).toBe(40904);
  });

  it('writes a tombstone for every offset and then the group; replaying them leaves a Dead, empty group', () => {
    stableGroup(request('a'));
    group.leave('a');
    completeRebalance();
    for (const partition of [0, 1]) {
      group.replay(
        {
          kind: 'offset',
          group: GROUP_ID,
          topic: 'orders',
          partition,
          value: { offset: 3, leaderEpoch: -1, metadata: '', commitTimestampMs: 0 },
        },
        'live',
      );
    }
    const records = group.deletionRecords();
    expect(records).toEqual([
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 0, value: null },
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 1, value: null },
      { kind: 'group', group: GROUP_ID, value: null },
    ]);
    for (const record of records) group.replay(record, 'live');
    expect(group.state).toBe('Dead');
    expect(group.isEmptyOfState()).toBe(true);
  });
});
