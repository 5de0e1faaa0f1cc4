import { beforeEach, describe, expect, it } from 'vitest';
import {
  assignmentOf,
  ClassicHarness,
  INITIAL_DELAY_MS,
  REBALANCE_MS,
  SESSION_MS,
  subscription,
} from '../../test/support/groups/classic-harness.js';
import { encodeSubscription } from './consumer-protocol.js';

// Kafka's classic protocol in the group state machine: each event of the table in classic-membership.ts's header,
// driven through the ConsumerGroup it runs in, with a ManualClock; the harness plays the coordinator (collects the
// answers of waiting requests, lands or fails the records the machine writes).

let h: ClassicHarness;

beforeEach(() => {
  h = new ClassicHarness();
});

describe('JoinGroup of a new group', () => {
  it('gives a v4+ dynamic member its id with MEMBER_ID_REQUIRED, and takes it in when it joins with that id', () => {
    const first = h.join({ requireKnownMemberId: true, newMemberId: 'client-1' });
    expect(first).toMatchObject({ error: 'MEMBER_ID_REQUIRED', memberId: 'client-1', generation: -1 });
    expect(h.group.members.size).toBe(0);
    expect(h.group.usedBy).toBe('kafka');
    expect(h.join({ memberId: 'client-1', requireKnownMemberId: true })).toEqual({ waiting: 'client-1' });
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('takes a member that sends no member id at once when MEMBER_ID_REQUIRED is not asked for (v2, v3)', () => {
    expect(h.join({ newMemberId: 'a' })).toEqual({ waiting: 'a' });
    expect([...h.group.members.keys()]).toEqual(['a']);
  });

  it('ends the join phase only after the initial delay, even when every member has joined', () => {
    h.join({ newMemberId: 'a' });
    h.advance(INITIAL_DELAY_MS - 1);
    expect(h.joins.size).toBe(0);
    h.advance(1);
    expect(h.group.state).toBe('CompletingRebalance');
    expect(h.joins.get('a')).toMatchObject({
      error: null,
      generation: 1,
      leader: 'a',
      protocolType: 'consumer',
      protocolName: 'range',
    });
    expect(h.joins.get('a')!.members).toEqual([
      { memberId: 'a', groupInstanceId: null, metadata: encodeSubscription(['orders']) },
    ]);
  });

  it('extends the initial delay with each new member, up to max(delay, rebalance timeout) after the first', () => {
    h = new ClassicHarness({ initialRebalanceDelayMs: 3000 });
    h.join({ newMemberId: 'a', rebalanceTimeoutMs: 5000 });
    h.advance(2000);
    h.join({ newMemberId: 'b', rebalanceTimeoutMs: 5000 });
    h.advance(2000); // 4000 after a: the delay restarted at b
    expect(h.joins.size).toBe(0);
    h.join({ newMemberId: 'c', rebalanceTimeoutMs: 5000 });
    h.advance(1000); // the cap: 5000 after a
    expect([...h.joins.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(h.joins.get('b')!.members).toEqual([]);
    expect(h.joins.get('a')!.members.map((m) => m.memberId)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a session timeout outside group.min/max.session.timeout.ms', () => {
    expect(h.join({ sessionTimeoutMs: 999 })).toMatchObject({ error: 'INVALID_SESSION_TIMEOUT' });
    expect(h.join({ sessionTimeoutMs: 60_001 })).toMatchObject({ error: 'INVALID_SESSION_TIMEOUT' });
    expect(h.group.members.size).toBe(0);
  });

  it('refuses an empty protocol type or no protocols, and a member whose protocols the group does not share', () => {
    expect(h.join({ protocolType: '' })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
    expect(h.join({ protocols: [] })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
    h.join({ newMemberId: 'a' });
    expect(h.join({ newMemberId: 'b', protocolType: 'connect' })).toMatchObject({
      error: 'INCONSISTENT_GROUP_PROTOCOL',
    });
    const other = [{ name: 'roundrobin', metadata: encodeSubscription(['orders']) }];
    expect(h.join({ newMemberId: 'b', protocols: other })).toMatchObject({ error: 'INCONSISTENT_GROUP_PROTOCOL' });
    expect([...h.group.members.keys()]).toEqual(['a']);
  });

  it('selects the protocol most members prefer among those all of them offer', () => {
    const metadata = encodeSubscription(['orders']);
    const offer = (...names: string[]) => names.map((name) => ({ name, metadata }));
    h.join({ newMemberId: 'a', protocols: offer('sticky', 'range', 'roundrobin') });
    h.join({ newMemberId: 'b', protocols: offer('roundrobin', 'range') });
    h.join({ newMemberId: 'c', protocols: offer('roundrobin', 'sticky', 'range') });
    h.advance(INITIAL_DELAY_MS);
    expect(h.group.classic.protocolName).toBe('roundrobin');
    expect(h.joins.get('b')!.protocolName).toBe('roundrobin');
  });

  it('counts members and ids handed out against group.max.size', () => {
    h = new ClassicHarness({ maxSize: 2 });
    h.join({ newMemberId: 'a' });
    expect(h.join({ requireKnownMemberId: true, newMemberId: 'b' })).toMatchObject({ error: 'MEMBER_ID_REQUIRED' });
    expect(h.join({ newMemberId: 'c' })).toMatchObject({ error: 'GROUP_MAX_SIZE_REACHED', memberId: '' });
    expect(h.join({ memberId: 'b' })).toEqual({ waiting: 'b' });
  });
});

describe('SyncGroup', () => {
  function completingGroup(): number {
    h.join({ newMemberId: 'a' });
    h.join({ newMemberId: 'b' });
    h.advance(INITIAL_DELAY_MS);
    return h.joins.get('a')!.generation;
  }

  it("writes the leader's assignment, then answers every member with its own and the group is Stable", () => {
    const generation = completingGroup();
    expect(h.sync('b', generation)).toBe('waiting');
    const assignments = [
      { memberId: 'a', assignment: assignmentOf('orders', 0, 1) },
      { memberId: 'b', assignment: assignmentOf('orders', 2, 3) },
    ];
    expect(h.sync('a', generation, { assignments })).toBe('waiting');
    expect(h.group.state).toBe('CompletingRebalance');
    expect(h.syncs.size).toBe(0);
    const write = h.land();
    expect(write.value.classic).toEqual({ protocolType: 'consumer', protocolName: 'range', leader: 'a' });
    expect(write.value.members.map((m) => [m.memberId, m.assignment])).toEqual([
      [
        'a',
        [
          { topic: 'orders', partition: 0 },
          { topic: 'orders', partition: 1 },
        ],
      ],
      [
        'b',
        [
          { topic: 'orders', partition: 2 },
          { topic: 'orders', partition: 3 },
        ],
      ],
    ]);
    expect(h.group.state).toBe('Stable');
    expect(h.syncs.get('a')).toEqual({
      error: null,
      protocolType: 'consumer',
      protocolName: 'range',
      assignment: assignmentOf('orders', 0, 1),
    });
    expect(h.syncs.get('b')!.assignment).toEqual(assignmentOf('orders', 2, 3));
    // the REST view of the members reads the consumer protocol's bytes
    expect(h.group.members.get('b')!.assignment).toEqual([
      { topic: 'orders', partition: 2 },
      { topic: 'orders', partition: 3 },
    ]);
    expect(h.group.members.get('b')!.subscription).toEqual({ topics: ['orders'] });
  });

  it('answers a member that syncs once the group is Stable at once, and one the leader left out with nothing', () => {
    const generation = completingGroup();
    h.sync('a', generation, { assignments: [{ memberId: 'a', assignment: assignmentOf('orders', 0) }] });
    h.land();
    expect(h.sync('b', generation)).toEqual({
      error: null,
      protocolType: 'consumer',
      protocolName: 'range',
      assignment: Buffer.alloc(0),
    });
  });

  it('gives the waiting members the error when the write fails, and rebalances', () => {
    const generation = completingGroup();
    h.sync('b', generation);
    h.sync('a', generation, { assignments: [] });
    h.fail('NOT_COORDINATOR');
    expect(h.syncs.get('a')!.error).toBe('NOT_COORDINATOR');
    expect(h.syncs.get('b')!.error).toBe('NOT_COORDINATOR');
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('refuses a stale generation, an unknown member, another protocol, and a sync during a rebalance', () => {
    const generation = completingGroup();
    expect(h.sync('a', generation + 1)).toMatchObject({ error: 'ILLEGAL_GENERATION' });
    expect(h.sync('x', generation)).toMatchObject({ error: 'UNKNOWN_MEMBER_ID' });
    expect(h.sync('a', generation, { protocolName: 'sticky' })).toMatchObject({
      error: 'INCONSISTENT_GROUP_PROTOCOL',
    });
    expect(h.sync('a', generation, { protocolType: 'connect' })).toMatchObject({
      error: 'INCONSISTENT_GROUP_PROTOCOL',
    });
    h.join({ newMemberId: 'c' });
    expect(h.sync('a', generation)).toMatchObject({ error: 'REBALANCE_IN_PROGRESS' });
  });

  it('answers waiting syncs with REBALANCE_IN_PROGRESS when a member joins before the leader synced', () => {
    const generation = completingGroup();
    h.sync('b', generation);
    h.join({ newMemberId: 'c' });
    expect(h.syncs.get('b')!.error).toBe('REBALANCE_IN_PROGRESS');
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('ignores a late write of a generation a rebalance has replaced', () => {
    const generation = completingGroup();
    h.sync('a', generation, { assignments: [] });
    h.join({ newMemberId: 'c' });
    h.syncs.clear();
    h.land();
    expect(h.group.state).toBe('PreparingRebalance');
    expect(h.syncs.size).toBe(0);
  });

  it('removes members that do not sync within the rebalance timeout, and rebalances', () => {
    const generation = completingGroup();
    h.sync('a', generation, { assignments: [] });
    h.land();
    h.clock.advance(REBALANCE_MS - 1);
    expect(h.group.classic.heartbeat({ memberId: 'a', groupInstanceId: null }, generation)).toBeNull();
    h.advance(1);
    expect([...h.group.members.keys()]).toEqual(['a']);
    expect(h.group.state).toBe('PreparingRebalance');
  });
});

describe('Heartbeat', () => {
  it('keeps a member of the current generation; names the error otherwise', () => {
    const generation = h.stable('a', 'b');
    const beat = (memberId: string, gen = generation) =>
      h.group.classic.heartbeat({ memberId, groupInstanceId: null }, gen);
    expect(beat('a')).toBeNull();
    expect(beat('a', generation - 1)).toBe('ILLEGAL_GENERATION');
    expect(beat('x')).toBe('UNKNOWN_MEMBER_ID');
    h.join({ newMemberId: 'c' });
    expect(beat('a')).toBe('REBALANCE_IN_PROGRESS');
  });

  it('answers NONE while the group waits for the leader, once the member has its join answer', () => {
    h.join({ newMemberId: 'a' });
    h.advance(INITIAL_DELAY_MS);
    expect(h.group.state).toBe('CompletingRebalance');
    expect(h.group.classic.heartbeat({ memberId: 'a', groupInstanceId: null }, 1)).toBeNull();
  });

  it('expires a member whose session runs out, and the group rebalances without it', () => {
    const generation = h.stable('a', 'b');
    h.clock.advance(SESSION_MS);
    h.group.classic.heartbeat({ memberId: 'a', groupInstanceId: null }, generation);
    h.advance(1);
    expect([...h.group.members.keys()]).toEqual(['a']);
    expect(h.group.state).toBe('PreparingRebalance');
  });
});

describe('rebalances of a stable group', () => {
  it('completes as soon as every member has rejoined (no initial delay), with the next generation', () => {
    const generation = h.stable('a', 'b');
    expect(h.join({ memberId: 'b', protocols: subscription('orders', 'payments') })).toEqual({ waiting: 'b' });
    expect(h.group.state).toBe('PreparingRebalance');
    h.join({ memberId: 'a' });
    expect(h.joins.get('a')).toMatchObject({ generation: generation + 1, leader: 'a' });
    expect(h.joins.get('b')).toMatchObject({ generation: generation + 1, leader: 'a', members: [] });
    expect(h.group.state).toBe('CompletingRebalance');
  });

  it('answers a follower that rejoins with the same metadata at once, and rebalances when the leader rejoins', () => {
    const generation = h.stable('a', 'b');
    expect(h.join({ memberId: 'b' })).toMatchObject({ error: null, generation, leader: 'a', members: [] });
    expect(h.group.state).toBe('Stable');
    expect(h.join({ memberId: 'a' })).toEqual({ waiting: 'a' });
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('gives a member that lost its join answer the same answer again while the leader assigns', () => {
    h.join({ newMemberId: 'a' });
    h.join({ newMemberId: 'b' });
    h.advance(INITIAL_DELAY_MS);
    const first = h.joins.get('a')!;
    expect(h.join({ memberId: 'a' })).toEqual(first);
    expect(h.group.state).toBe('CompletingRebalance');
  });

  it('removes dynamic members that do not rejoin within the rebalance timeout', () => {
    const generation = h.stable('a', 'b');
    h.join({ newMemberId: 'c' });
    h.join({ memberId: 'a' });
    // b keeps heartbeating (REBALANCE_IN_PROGRESS) but never rejoins
    h.clock.advance(REBALANCE_MS / 2);
    h.group.classic.heartbeat({ memberId: 'b', groupInstanceId: null }, generation);
    h.advance(REBALANCE_MS / 2);
    expect([...h.group.members.keys()].sort()).toEqual(['a', 'c']);
    expect(
      h.joins
        .get('a')!
        .members.map((m) => m.memberId)
        .sort(),
    ).toEqual(['a', 'c']);
  });

  it('does not expire members whose JoinGroup is waiting, while the join phase runs', () => {
    h.stable('a', 'b');
    h.join({ memberId: 'a' });
    h.advance(SESSION_MS + 1);
    expect(h.group.members.has('a')).toBe(true);
    expect(h.group.members.has('b')).toBe(false); // b neither rejoined nor heartbeated
  });

  it('drops an id handed out with MEMBER_ID_REQUIRED that does not come back within the session timeout', () => {
    h.stable('a');
    h.join({ requireKnownMemberId: true, newMemberId: 'late' });
    h.join({ memberId: 'a' });
    expect(h.joins.size).toBe(0); // the pending id holds the join phase
    h.advance(SESSION_MS + 1);
    expect(h.joins.get('a')!.error).toBeNull();
    expect(h.join({ memberId: 'late' })).toMatchObject({ error: 'UNKNOWN_MEMBER_ID' });
  });

  it('times out a new member whose JoinGroup has waited the new-member timeout (KIP-394)', () => {
    h = new ClassicHarness({ maxSessionTimeoutMs: 3_600_000 });
    h.stable('a');
    h.join({ newMemberId: 'n', rebalanceTimeoutMs: 3_600_000 });
    h.advance(300_001);
    expect(h.joins.get('n')).toMatchObject({ error: 'UNKNOWN_MEMBER_ID' });
    expect(h.group.members.has('n')).toBe(false);
  });
});

describe('LeaveGroup', () => {
  const leave = (...members: Array<{ memberId: string; groupInstanceId?: string | null }>) => {
    const result = h.group.classic.leave(members.map((m) => ({ groupInstanceId: null, ...m })));
    h.take(result.effects);
    return result;
  };

  it('removes the members named, rebalances, and names unknown ones', () => {
    h.stable('a', 'b', 'c');
    const result = leave({ memberId: 'b' }, { memberId: 'c' }, { memberId: 'x' });
    expect(result.results).toEqual([null, null, 'UNKNOWN_MEMBER_ID']);
    expect([...h.group.members.keys()]).toEqual(['a']);
    expect(h.group.state).toBe('PreparingRebalance');
  });

  it('empties the group when the last member leaves, writing an empty generation', () => {
    const generation = h.stable('a');
    leave({ memberId: 'a' });
    expect(h.group.state).toBe('Empty');
    expect(h.group.generation).toBe(generation + 1);
    expect(h.writes.map((w) => w.value.members)).toEqual([[]]);
    expect(h.group.usedBy).toBeNull();
  });

  it('answers a leaving member whose JoinGroup was waiting, and moves the leadership on', () => {
    h.stable('a', 'b');
    h.join({ memberId: 'a' });
    leave({ memberId: 'a' });
    expect(h.joins.get('a')).toMatchObject({ error: 'UNKNOWN_MEMBER_ID' });
    expect(h.group.classic.leaderId).toBe('b');
  });

  it('forgets an id handed out with MEMBER_ID_REQUIRED', () => {
    h.join({ requireKnownMemberId: true, newMemberId: 'p' });
    expect(leave({ memberId: 'p' }).results).toEqual([null]);
    expect(h.group.usedBy).toBeNull();
  });
});

describe('OffsetCommit of a classic group', () => {
  const commit = (memberId: string, generation: number, groupInstanceId: string | null = null) =>
    h.group.classic.validateCommit({ memberId, groupInstanceId }, generation);

  it("accepts the members' commits in the current generation, also during a rebalance (as Kafka does)", () => {
    const generation = h.stable('a', 'b');
    expect(commit('a', generation)).toBeNull();
    expect(commit('a', generation - 1)).toBe('ILLEGAL_GENERATION');
    expect(commit('x', generation)).toBe('UNKNOWN_MEMBER_ID');
    expect(commit('', -1)).toBe('UNKNOWN_MEMBER_ID');
    h.join({ newMemberId: 'c' });
    expect(commit('a', generation)).toBeNull();
  });

  it('refuses commits while the leader assigns (REBALANCE_IN_PROGRESS)', () => {
    h.join({ newMemberId: 'a' });
    h.advance(INITIAL_DELAY_MS);
    expect(commit('a', 1)).toBe('REBALANCE_IN_PROGRESS');
  });

  it('accepts a commit with a negative generation while the group is empty', () => {
    expect(commit('', -1)).toBeNull();
  });
});
