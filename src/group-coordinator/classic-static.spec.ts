import { beforeEach, describe, expect, it } from 'vitest';
import { BrookError, GROUP_USED_BY_KAFKA_CLIENTS_CODE } from '../common/brook-error.js';
import {
  assignmentOf,
  ClassicHarness,
  GROUP_ID,
  INITIAL_DELAY_MS,
  REBALANCE_MS,
  SESSION_MS,
  subscription,
} from '../../test/support/groups/classic-harness.js';
import type { ClassicWrite } from './classic-answers.js';

// Static membership (KIP-345) in the classic protocol, a classic group reloaded from its record, and the rule that
// a group is used either by Kafka clients or by Brook-assigned members (REST v2 instances, WebSocket/SSE members).

let h: ClassicHarness;

beforeEach(() => {
  h = new ClassicHarness();
});

let assignmentRecord: ClassicWrite | null = null;

/** A stable group of static members a (instance ia, the leader) and b (instance ib). */
function staticGroup(): number {
  h.join({ newMemberId: 'a', groupInstanceId: 'ia' });
  h.join({ newMemberId: 'b', groupInstanceId: 'ib' });
  h.advance(INITIAL_DELAY_MS);
  const generation = h.joins.get('a')!.generation;
  const assignments = [
    { memberId: 'a', assignment: assignmentOf('orders', 0, 1) },
    { memberId: 'b', assignment: assignmentOf('orders', 2, 3) },
  ];
  h.sync('a', generation, { assignments, groupInstanceId: 'ia' });
  assignmentRecord = h.land();
  h.sync('b', generation, { groupInstanceId: 'ib' });
  h.joins.clear();
  h.syncs.clear();
  return generation;
}

const beat = (memberId: string, groupInstanceId: string | null, generation: number) =>
  h.group.classic.heartbeat({ memberId, groupInstanceId }, generation);

describe('static membership (KIP-345)', () => {
  it('gives a restarted member its old place and partitions without a rebalance of the others', () => {
    const generation = staticGroup();
    expect(h.join({ newMemberId: 'b2', groupInstanceId: 'ib' })).toEqual({ waiting: 'b2' });
    expect(h.group.state).toBe('Stable');
    const write = h.land();
    expect(write.value.members.map((m) => m.memberId).sort()).toEqual(['a', 'b2']);
    expect(h.joins.get('b2')).toMatchObject({ error: null, generation, leader: 'a', members: [] });
    expect(h.sync('b2', generation, { groupInstanceId: 'ib' })).toMatchObject({
      error: null,
      assignment: assignmentOf('orders', 2, 3),
    });
    expect(beat('a', 'ia', generation)).toBeNull(); // the other member saw no rebalance
    expect(h.group.generation).toBe(generation);
  });

  it('fences the old member id of the instance (FENCED_INSTANCE_ID) in heartbeats, syncs, commits and joins', () => {
    const generation = staticGroup();
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib' });
    h.land();
    expect(beat('b', 'ib', generation)).toBe('FENCED_INSTANCE_ID');
    expect(h.sync('b', generation, { groupInstanceId: 'ib' })).toMatchObject({ error: 'FENCED_INSTANCE_ID' });
    expect(h.group.classic.validateCommit({ memberId: 'b', groupInstanceId: 'ib' }, generation)).toBe(
      'FENCED_INSTANCE_ID',
    );
    expect(h.join({ memberId: 'b', groupInstanceId: 'ib' })).toMatchObject({ error: 'FENCED_INSTANCE_ID' });
    // without its instance id the old member is simply unknown
    expect(beat('b', null, generation)).toBe('UNKNOWN_MEMBER_ID');
  });

  it('answers the old id still waiting in a JoinGroup with FENCED_INSTANCE_ID', () => {
    staticGroup();
    h.join({ newMemberId: 'c' }); // a rebalance begins
    h.join({ memberId: 'b', groupInstanceId: 'ib' });
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib' });
    expect(h.joins.get('b')).toMatchObject({ error: 'FENCED_INSTANCE_ID' });
    h.join({ memberId: 'a', groupInstanceId: 'ia' });
    expect(h.joins.get('b2')).toMatchObject({ error: null, generation: h.group.generation });
  });

  it('tells a returning v9 leader to skip the assignment, and names an older one a follower', () => {
    const generation = staticGroup();
    h.join({ newMemberId: 'a2', groupInstanceId: 'ia', supportsSkipAssignment: true });
    h.land();
    expect(h.joins.get('a2')).toMatchObject({ generation, leader: 'a2', skipAssignment: true });
    expect(
      h.joins
        .get('a2')!
        .members.map((m) => m.memberId)
        .sort(),
    ).toEqual(['a2', 'b']);
    h.join({ newMemberId: 'a3', groupInstanceId: 'ia', supportsSkipAssignment: false });
    h.land();
    expect(h.joins.get('a3')).toMatchObject({ generation, leader: 'a2', skipAssignment: false, members: [] });
    expect(h.group.classic.leaderId).toBe('a3');
    expect(h.sync('a3', generation, { groupInstanceId: 'ia' })).toMatchObject({
      assignment: assignmentOf('orders', 0, 1),
    });
  });

  it('puts the old id back when the record naming the new one cannot be written', () => {
    const generation = staticGroup();
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib' });
    h.fail('NOT_COORDINATOR');
    expect(h.joins.get('b2')).toMatchObject({ error: 'NOT_COORDINATOR', memberId: '' });
    expect(beat('b', 'ib', generation)).toBeNull();
    expect(h.group.members.has('b2')).toBe(false);
  });

  it('rebalances when the returning member offers other metadata for the selected protocol', () => {
    staticGroup();
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib', protocols: subscription('orders', 'payments') });
    expect(h.writes).toEqual([]);
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('rebalances when the protocol the group would select changes', () => {
    staticGroup();
    const stickyFirst = [{ name: 'sticky', metadata: subscription('orders')[0].metadata }, ...subscription('orders')];
    h.join({ memberId: 'a', groupInstanceId: 'ia', protocols: stickyFirst });
    h.join({ memberId: 'b', groupInstanceId: 'ib' });
    expect(h.group.classic.protocolName).toBe('range'); // b offers range only
    h.sync('a', h.group.generation, { groupInstanceId: 'ia' });
    h.land();
    expect(h.group.state).toBe('Stable');
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib', protocols: stickyFirst });
    expect(h.writes).toEqual([]);
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('rebalances when the member returns while the leader is assigning (its new id needs partitions)', () => {
    h.join({ newMemberId: 'a', groupInstanceId: 'ia' });
    h.join({ newMemberId: 'b', groupInstanceId: 'ib' });
    h.advance(INITIAL_DELAY_MS);
    h.join({ newMemberId: 'b2', groupInstanceId: 'ib' });
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('keeps a static member that does not rejoin through the join phase; its session decides', () => {
    const generation = staticGroup();
    h.join({ memberId: 'a', groupInstanceId: 'ia' });
    for (let step = 0; step < 3; step++) {
      h.advance(REBALANCE_MS / 3 - 1);
      expect(beat('b', 'ib', generation)).toBe('REBALANCE_IN_PROGRESS');
    }
    h.advance(3);
    expect(h.joins.get('a')).toMatchObject({ generation: generation + 1 });
    expect(
      h.joins
        .get('a')!
        .members.map((m) => m.memberId)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(beat('b', 'ib', generation)).toBe('ILLEGAL_GENERATION'); // it rejoins, keeping its place
    expect(h.join({ memberId: 'b', groupInstanceId: 'ib' })).toMatchObject({ error: null, generation: generation + 1 });
  });

  it('lets an administrator remove a static member by its instance id alone', () => {
    staticGroup();
    const result = h.group.classic.leave([
      { memberId: '', groupInstanceId: 'ib' },
      { memberId: '', groupInstanceId: 'nobody' },
      { memberId: 'a', groupInstanceId: 'ib' },
    ]);
    expect(result.results).toEqual([null, 'UNKNOWN_MEMBER_ID', 'UNKNOWN_MEMBER_ID']);
    expect([...h.group.members.keys()]).toEqual(['a']);
  });
});

describe('a classic group loaded from its record', () => {
  it('comes back Stable in its generation: heartbeats go on and syncs answer the stored assignment', () => {
    const generation = staticGroup();
    const loaded = new ClassicHarness();
    loaded.clock.advance(60_000);
    loaded.group.replay({ kind: 'group', group: GROUP_ID, value: assignmentRecord!.value }, 'load');
    expect(loaded.group.state).toBe('Stable');
    expect(loaded.group.generation).toBe(generation);
    expect([...loaded.group.members.keys()].sort()).toEqual(['a', 'b']);
    expect(loaded.group.classic.leaderId).toBe('a');
    expect(loaded.group.classic.heartbeat({ memberId: 'b', groupInstanceId: 'ib' }, generation)).toBeNull();
    expect(loaded.sync('b', generation, { groupInstanceId: 'ib' })).toMatchObject({
      error: null,
      assignment: assignmentOf('orders', 2, 3),
    });
    expect(loaded.group.members.get('b')!.assignment).toEqual([
      { topic: 'orders', partition: 2 },
      { topic: 'orders', partition: 3 },
    ]);
    expect(loaded.group.partitionAssignor).toBe('range');
    expect(loaded.group.usedBy).toBe('kafka');
    // the sessions start again at the load: silent members leave a session timeout later
    loaded.advance(SESSION_MS + 1);
    expect(loaded.group.members.size).toBe(0);
    expect(loaded.group.state).toBe('Empty');
  });
});

describe('one kind of client at a time', () => {
  const wsMember = (memberId: string) => ({
    memberId,
    groupInstanceId: null,
    clientId: memberId,
    kind: 'ws' as const,
    subscription: { topics: ['orders'] },
    sessionTimeoutMs: SESSION_MS,
    rebalanceTimeoutMs: SESSION_MS,
  });

  it('refuses a Kafka JoinGroup (INCONSISTENT_GROUP_PROTOCOL) while WebSocket members are in the group', () => {
    h.group.join(wsMember('ws-1'));
    expect(h.join({ newMemberId: 'k' })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
    expect([...h.group.members.keys()]).toEqual(['ws-1']);
  });

  it('refuses a Kafka JoinGroup while REST v2 instances exist, even without a subscription', () => {
    h.group.replay(
      {
        kind: 'instance',
        group: GROUP_ID,
        instance: 'i1',
        value: {
          format: 'binary',
          autoOffsetReset: 'earliest',
          autoCommitEnable: false,
          fetchMinBytes: -1,
          requestTimeoutMs: 1000,
          subscription: null,
          assignment: null,
          createdAtMs: 0,
        },
      },
      'live',
    );
    expect(h.join({ newMemberId: 'k' })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
    h.group.instanceWritesInFlight = 1;
    h.group.instances.clear();
    expect(h.join({ newMemberId: 'k' })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
  });

  it('refuses WebSocket/REST members (409) while Kafka clients use the group, also before they have joined', () => {
    h.join({ requireKnownMemberId: true, newMemberId: 'k' });
    const refused = (() => {
      try {
        h.group.join(wsMember('ws-1'));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(BrookError);
    expect(refused).toMatchObject({ status: 409, errorCode: GROUP_USED_BY_KAFKA_CLIENTS_CODE });
    expect((refused as BrookError).message).toContain('in use by Kafka clients');
  });

  it('lets the other kind in once the group is empty again, and shares its committed offsets', () => {
    h.stable('k');
    h.group.replay(
      {
        kind: 'offset',
        group: GROUP_ID,
        topic: 'orders',
        partition: 0,
        value: { offset: 7, leaderEpoch: -1, metadata: '', commitTimestampMs: 0 },
      },
      'live',
    );
    const left = h.group.classic.leave([{ memberId: 'k', groupInstanceId: null }]);
    h.take(left.effects);
    expect(h.group.state).toBe('Empty');
    expect(() => h.group.join(wsMember('ws-1'))).not.toThrow();
    expect(h.group.committed('orders', 0)?.offset).toBe(7);
  });
});
