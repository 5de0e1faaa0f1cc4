// The consumer group state machine (consumer-group.ts) on a ManualClock, rebuilt from stored records: a generation
// replayed at load, offsets, instances and tombstones replayed, and REST members reconciled with the stored
// instances.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  allOwned,
  clock,
  completeRebalance,
  freshGroup,
  group,
  GROUP_ID,
  instance,
  partitionsOf,
  partitionsOfTopics,
  REBALANCE_MS,
  request,
  SESSION_MS,
  stableGroup,
  TOPICS,
  tp,
} from '../../test/support/groups/consumer-group-harness.js';
import { topicPartitionKey, type GroupMetadataValue } from './group-records.js';

beforeEach(freshGroup);

describe('replay in load mode', () => {
  const stored: GroupMetadataValue = {
    generation: 5,
    assignor: 'sticky',
    stateTimestampMs: 1_600_000_000_000,
    members: [
      {
        memberId: 'a',
        groupInstanceId: null,
        clientId: 'client',
        kind: 'ws',
        subscription: { topics: ['orders'] },
        sessionTimeoutMs: SESSION_MS,
        rebalanceTimeoutMs: REBALANCE_MS,
        assignment: [tp('orders', 0), tp('orders', 1), tp('orders', 2)],
      },
      {
        memberId: 'b',
        groupInstanceId: 'host-b',
        clientId: 'client',
        kind: 'rest',
        subscription: { topics: ['orders'] },
        sessionTimeoutMs: 2 * SESSION_MS,
        rebalanceTimeoutMs: REBALANCE_MS,
        assignment: [tp('orders', 3), tp('orders', 4), tp('orders', 5)],
      },
    ],
  };

  it('rebuilds the stored generation as a Stable group whose members own their partitions since it', () => {
    clock.advance(1000);
    group.replay({ kind: 'group', group: GROUP_ID, value: stored }, 'load');
    expect(group.state).toBe('Stable');
    expect(group.generation).toBe(5);
    expect(group.assignor).toBe('sticky');
    expect(group.stateTimestampMs).toBe(1_600_000_000_000);
    expect(partitionsOf('b')).toEqual(['orders-3', 'orders-4', 'orders-5']);
    expect(group.members.get('b')).toMatchObject({ groupInstanceId: 'host-b', kind: 'rest' });
    expect(group.members.get('a')!.deadlineMs).toBe(clock.monotonicMs() + SESSION_MS);
    expect([...group.assignmentOf('a')!.ownedSince.values()]).toEqual([5, 5, 5]);
    expect(() =>
      group.validateCommit('a', [tp('orders', 1)], new Map([[topicPartitionKey('orders', 1), 5]])),
    ).not.toThrow();
  });

  it('gives loaded members a fresh session to come back, and expires those that do not', () => {
    group.replay({ kind: 'group', group: GROUP_ID, value: stored }, 'load');
    clock.advance(SESSION_MS + 1);
    group.heartbeat('b');
    const { expired, write } = group.tick(TOPICS);
    expect(expired.map((member) => member.memberId)).toEqual(['a']);
    expect(write!.generation).toBe(6);
  });

  it('takes the latest stored generation as the group', () => {
    group.replay({ kind: 'group', group: GROUP_ID, value: stored }, 'load');
    group.replay(
      { kind: 'group', group: GROUP_ID, value: { ...stored, generation: 6, members: [stored.members[1]] } },
      'load',
    );
    expect(group.generation).toBe(6);
    expect([...group.members.keys()]).toEqual(['b']);
  });

  it('rebuilds a memberless generation as an Empty group', () => {
    group.replay({ kind: 'group', group: GROUP_ID, value: { ...stored, members: [] } }, 'load');
    expect(group.state).toBe('Empty');
    expect(group.generation).toBe(5);
    expect(group.stateTimestampMs).toBe(1_600_000_000_000);
  });

  it('adopts the current topics at the first tick without a rebalance, and rebalances on a later change', () => {
    group.replay({ kind: 'group', group: GROUP_ID, value: stored }, 'load');
    expect(group.tick(TOPICS).write).toBeNull();
    expect(group.state).toBe('Stable');
    expect(group.tick(new Map([...TOPICS, ['orders', 7]])).write!.generation).toBe(6);
  });
});

describe('replay of offsets, instances and tombstones', () => {
  const committed = { offset: 42, leaderEpoch: -1, metadata: '', commitTimestampMs: 1 };

  it('stores the latest committed offset per partition and forgets it on a tombstone', () => {
    group.replay({ kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 1, value: committed }, 'load');
    group.replay(
      { kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 1, value: { ...committed, offset: 50 } },
      'live',
    );
    expect(group.committed('orders', 1)!.offset).toBe(50);
    expect(group.committed('orders', 2)).toBeUndefined();
    group.replay({ kind: 'offset', group: GROUP_ID, topic: 'orders', partition: 1, value: null }, 'live');
    expect(group.committed('orders', 1)).toBeUndefined();
    expect(group.isEmptyOfState()).toBe(true);
  });

  it('stores instances and forgets them on a tombstone', () => {
    group.replay({ kind: 'instance', group: GROUP_ID, instance: 'i', value: instance(null) }, 'load');
    expect(group.instances.get('i')).toEqual(instance(null));
    expect(group.isEmptyOfState()).toBe(false);
    group.replay({ kind: 'instance', group: GROUP_ID, instance: 'i', value: null }, 'load');
    expect(group.instances.size).toBe(0);
  });

  it('is Dead and memberless after a group tombstone, from any state', () => {
    stableGroup(request('a'));
    group.replay({ kind: 'group', group: GROUP_ID, value: null }, 'live');
    expect(group.state).toBe('Dead');
    expect(group.members.size).toBe(0);
    group.replay({ kind: 'group', group: GROUP_ID, value: null }, 'load');
    expect(group.state).toBe('Dead');
  });

  it('ignores a durable generation that is not the one being completed', () => {
    const first = stableGroup(request('a'));
    group.join(request('b'));
    group.replay({ kind: 'group', group: GROUP_ID, value: first }, 'live');
    expect(group.state).toBe('PreparingRebalance');
    expect(group.generation).toBe(1);
  });
});

describe('reconcileInstances', () => {
  it('makes instances with a subscription members, and drops REST members whose instance is gone', () => {
    group.replay(
      { kind: 'instance', group: GROUP_ID, instance: 'sub', value: instance({ topics: ['orders'] }) },
      'load',
    );
    group.replay({ kind: 'instance', group: GROUP_ID, instance: 'idle', value: instance(null) }, 'load');
    group.replay(
      {
        kind: 'group',
        group: GROUP_ID,
        value: {
          generation: 3,
          assignor: 'range',
          stateTimestampMs: 0,
          members: [
            { ...request('gone', { kind: 'rest' }), assignment: [tp('orders', 0)] },
            { ...request('socket', { kind: 'ws' }), assignment: [tp('orders', 1)] },
          ],
        },
      },
      'load',
    );
    expect(group.reconcileInstances(60_000)).toBe(true);
    expect([...group.members.keys()].sort()).toEqual(['socket', 'sub']);
    expect(group.members.get('sub')).toMatchObject({
      kind: 'rest',
      clientId: 'sub',
      groupInstanceId: null,
      sessionTimeoutMs: 60_000,
      subscription: { topics: ['orders'] },
    });
    expect(group.state).toBe('PreparingRebalance');
    expect(completeRebalance().generation).toBe(4);
    expect(allOwned()).toEqual(partitionsOfTopics(TOPICS, ['orders']));
  });

  it('changes nothing when members already match the instances', () => {
    group.replay(
      { kind: 'instance', group: GROUP_ID, instance: 'sub', value: instance({ topics: ['orders'] }) },
      'load',
    );
    group.replay(
      {
        kind: 'group',
        group: GROUP_ID,
        value: {
          generation: 3,
          assignor: 'range',
          stateTimestampMs: 0,
          members: [{ ...request('sub', { kind: 'rest' }), assignment: [tp('orders', 0)] }],
        },
      },
      'load',
    );
    expect(group.reconcileInstances(60_000)).toBe(false);
    expect(group.state).toBe('Stable');
  });
});
