// The consumer group state machine (consumer-group.ts) on a ManualClock: a new group, the initial rebalance,
// membership and static membership. Generations (their numbers, failed writes, topic metadata changes) are in
// consumer-group-generations.spec.ts, commits and offsets in consumer-group-offsets.spec.ts, replay in
// consumer-group-replay.spec.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  allOwned,
  clock,
  completeRebalance,
  freshGroup,
  group,
  GROUP_ID,
  INITIAL_DELAY_MS,
  partitionsOf,
  partitionsOfTopics,
  REBALANCE_MS,
  replaceGroup,
  request,
  SESSION_MS,
  stableGroup,
  thrownBy,
  TOPICS,
  tp,
} from '../../test/support/groups/consumer-group-harness.js';
import { subscribedTopics } from './subscription-topics.js';

beforeEach(freshGroup);

describe('a new group', () => {
  it('is Empty at generation 0, with the default assignor, since now', () => {
    expect(group.state).toBe('Empty');
    expect(group.generation).toBe(0);
    expect(group.assignor).toBe('range');
    expect(group.stateTimestampMs).toBe(clock.nowMs());
    expect(group.tick(TOPICS)).toEqual({ expired: [], write: null });
  });
});

describe('the initial rebalance', () => {
  it('waits group.initial.rebalance.delay.ms after the first join, then writes generation 1', () => {
    expect(group.join(request('a'))).toEqual({ rebalance: true });
    expect(group.state).toBe('PreparingRebalance');
    clock.advance(INITIAL_DELAY_MS - 1);
    expect(group.tick(TOPICS).write).toBeNull();
    clock.advance(1);
    const { write } = group.tick(TOPICS);
    expect(group.state).toBe('CompletingRebalance');
    expect(group.generation).toBe(0); // not yet durable
    expect(write).toMatchObject({ generation: 1, assignor: 'range', stateTimestampMs: clock.nowMs() });
    expect(write!.members).toEqual([
      {
        memberId: 'a',
        groupInstanceId: null,
        clientId: 'client',
        kind: 'ws',
        subscription: { topics: ['orders'] },
        sessionTimeoutMs: SESSION_MS,
        rebalanceTimeoutMs: REBALANCE_MS,
        assignment: partitionsOfTopics(TOPICS, ['orders']).map((key) => tp('orders', Number(key.split('-')[1]))),
      },
    ]);
    expect(group.tick(TOPICS).write).toBeNull(); // one write per generation
  });

  it('becomes Stable only once the generation is written, and then serves the assignment', () => {
    group.join(request('a'));
    clock.advance(INITIAL_DELAY_MS);
    const { write } = group.tick(TOPICS);
    expect(group.assignmentOf('a')!.partitions).toEqual([]);
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(group.state).toBe('Stable');
    expect(group.generation).toBe(1);
    expect(group.assignmentOf('a')!.generation).toBe(1);
    expect(partitionsOf('a')).toEqual(partitionsOfTopics(TOPICS, ['orders']));
    expect(group.stateTimestampMs).toBe(clock.nowMs());
  });

  it('makes a burst of joins one rebalance: each join extends the delay', () => {
    group.join(request('a'));
    clock.advance(2000);
    expect(group.join(request('b'))).toEqual({ rebalance: true });
    clock.advance(INITIAL_DELAY_MS - 1); // 1 ms short of the delay after b's join, past the delay after a's
    expect(group.tick(TOPICS).write).toBeNull();
    clock.advance(1);
    const write = completeRebalance();
    expect(write.generation).toBe(1);
    expect(write.members.map((member) => member.memberId)).toEqual(['a', 'b']);
    expect(partitionsOf('a')).toEqual(['orders-0', 'orders-1', 'orders-2']);
    expect(partitionsOf('b')).toEqual(['orders-3', 'orders-4', 'orders-5']);
  });

  it('extends the delay no further than the largest of the delay and the rebalance timeout', () => {
    group.join(request('a', { rebalanceTimeoutMs: 5000 }));
    clock.advance(2500);
    group.join(request('b'));
    clock.advance(2400);
    group.join(request('c'));
    clock.advance(99); // 4999 ms after the first join
    expect(group.tick(TOPICS).write).toBeNull();
    clock.advance(1);
    expect(group.tick(TOPICS).write!.members).toHaveLength(3);
  });

  it('rebalances at the first tick when the delay is 0', () => {
    replaceGroup({ initialRebalanceDelayMs: 0 });
    group.join(request('a'));
    expect(completeRebalance().generation).toBe(1);
    expect(group.state).toBe('Stable');
  });

  it('uses the group assignor and records it', () => {
    replaceGroup({ defaultAssignor: 'roundrobin' });
    const write = stableGroup(
      request('a', { subscription: { topics: ['orders', 'payments'] } }),
      request('b', { subscription: { topics: ['orders', 'payments'] } }),
    );
    expect(write.assignor).toBe('roundrobin');
    expect(partitionsOf('a')).toEqual(['orders-0', 'orders-2', 'orders-4', 'payments-0', 'payments-2']);
    expect(partitionsOf('b')).toEqual(['orders-1', 'orders-3', 'orders-5', 'payments-1']);
  });
});

describe('membership', () => {
  it('does not rebalance when a member rejoins with the same subscription, in any order', () => {
    stableGroup(request('a', { subscription: { topics: ['orders', 'payments'] } }));
    expect(group.join(request('a', { subscription: { topics: ['payments', 'orders'] } }))).toEqual({
      rebalance: false,
    });
    expect(group.state).toBe('Stable');
    expect(group.tick(TOPICS).write).toBeNull();
  });

  it('rebalances at the next tick, without the initial delay, when a member changes its subscription', () => {
    stableGroup(request('a'));
    expect(group.join(request('a', { subscription: { topics: ['payments'] } }))).toEqual({ rebalance: true });
    expect(group.state).toBe('PreparingRebalance');
    const write = completeRebalance();
    expect(write.generation).toBe(2);
    expect(partitionsOf('a')).toEqual(['payments-0', 'payments-1', 'payments-2']);
  });

  it('rebalances at the next tick when a member joins a Stable group', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    expect(group.state).toBe('PreparingRebalance');
    expect(completeRebalance().generation).toBe(2);
    expect(partitionsOf('a')).toEqual(['orders-0', 'orders-1', 'orders-2']);
    expect(partitionsOf('b')).toEqual(['orders-3', 'orders-4', 'orders-5']);
  });

  it('gives members only partitions of the topics they subscribe to', () => {
    stableGroup(request('a'), request('b', { subscription: { topics: ['orders', 'payments'] } }));
    expect(partitionsOf('a')).toEqual(['orders-0', 'orders-1', 'orders-2']);
    expect(partitionsOf('b')).toEqual(['orders-3', 'orders-4', 'orders-5', 'payments-0', 'payments-1', 'payments-2']);
  });

  it('subscribes to a pattern as a whole-name match over the known topics', () => {
    expect(subscribedTopics({ pattern: 'ord.*' }, new Map([...TOPICS, ['reorders', 1]]))).toEqual(['orders']);
    expect(subscribedTopics({ pattern: 'orders|payments' }, TOPICS)).toEqual(['orders', 'payments']);
    expect(subscribedTopics({ topics: ['later'] }, TOPICS)).toEqual(['later']);
  });

  it('matches a pattern only to topics its subscriber may describe, asked with the subscriber kept with it', () => {
    const asked: string[] = [];
    const visible = (principal: string, host: string, topic: string) => {
      asked.push(`${principal}@${host}:${topic}`);
      return principal === 'User:alice' && topic === 'orders';
    };
    const pattern = { pattern: 'orders|payments', principal: 'User:alice', host: '10.0.0.1' };
    expect(subscribedTopics(pattern, TOPICS, visible)).toEqual(['orders']);
    expect(asked).toEqual(['User:alice@10.0.0.1:orders', 'User:alice@10.0.0.1:payments']);
    // written before subscribers were kept: evaluated as User:ANONYMOUS
    expect(subscribedTopics({ pattern: 'orders' }, TOPICS, visible)).toEqual([]);
    // a stored pattern that today's bounds refuse matches nothing
    expect(subscribedTopics({ pattern: '(a)\\1|orders' }, TOPICS)).toEqual([]);
    // a topic list is not filtered here: the routes check READ on each named topic
    expect(subscribedTopics({ topics: ['payments'] }, TOPICS, visible)).toEqual(['payments']);
  });

  it('refuses a member beyond group.max.size, but lets existing members rejoin', () => {
    replaceGroup({ maxSize: 2 });
    stableGroup(request('a'), request('b'));
    const error = thrownBy(() => group.join(request('c')));
    expect(error.errorCode).toBe(40002);
    expect(group.members.has('c')).toBe(false);
    expect(group.state).toBe('Stable');
    expect(group.join(request('b', { subscription: { topics: ['payments'] } }))).toEqual({ rebalance: true });
  });

  it('extends a session on heartbeat; an unknown member gets false', () => {
    stableGroup(request('a'));
    clock.advance(SESSION_MS);
    expect(group.heartbeat('a')).toBe(true);
    clock.advance(SESSION_MS);
    expect(group.tick(TOPICS)).toEqual({ expired: [], write: null });
    expect(group.heartbeat('nobody')).toBe(false);
  });

  it('expires a member once its session has passed, and gives its partitions to the others in the same tick', () => {
    stableGroup(request('a'), request('b'));
    group.heartbeat('b');
    clock.advance(SESSION_MS);
    group.heartbeat('a');
    expect(group.tick(TOPICS)).toEqual({ expired: [], write: null }); // b's deadline is now, not before
    clock.advance(1);
    group.heartbeat('a');
    const { expired, write } = group.tick(TOPICS);
    expect(expired.map((member) => member.memberId)).toEqual(['b']);
    expect(group.members.has('b')).toBe(false);
    expect(write!.generation).toBe(2);
    expect(write!.members.map((member) => member.memberId)).toEqual(['a']);
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(partitionsOf('a')).toEqual(partitionsOfTopics(TOPICS, ['orders']));
  });

  it('rebalances when a member leaves; leaving twice is false', () => {
    stableGroup(request('a'), request('b'));
    expect(group.leave('b')).toBe(true);
    expect(group.leave('b')).toBe(false);
    expect(group.assignmentOf('b')).toBeNull();
    completeRebalance();
    expect(partitionsOf('a')).toEqual(partitionsOfTopics(TOPICS, ['orders']));
  });

  it('becomes Empty with a new, memberless generation when the last member leaves', () => {
    stableGroup(request('a'));
    group.leave('a');
    clock.advance(7);
    const { write } = group.tick(TOPICS);
    expect(group.state).toBe('Empty');
    expect(group.stateTimestampMs).toBe(clock.nowMs());
    expect(write).toEqual({ generation: 2, assignor: 'range', stateTimestampMs: clock.nowMs(), members: [] });
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(group.state).toBe('Empty');
    expect(group.generation).toBe(2);
  });

  it('starts again with the initial delay once Empty', () => {
    stableGroup(request('a'));
    group.leave('a');
    completeRebalance();
    group.join(request('b'));
    clock.advance(INITIAL_DELAY_MS - 1);
    expect(group.tick(TOPICS).write).toBeNull();
    clock.advance(1);
    expect(completeRebalance().generation).toBe(3);
  });

  it('puts a member that joins while a generation is being written into the next generation', () => {
    group.join(request('a'));
    clock.advance(INITIAL_DELAY_MS);
    const first = group.tick(TOPICS).write!;
    group.join(request('b'));
    expect(group.state).toBe('PreparingRebalance');
    group.replay({ kind: 'group', group: GROUP_ID, value: first }, 'live');
    expect(group.state).toBe('PreparingRebalance');
    expect(group.generation).toBe(1);
    expect(partitionsOf('b')).toEqual([]);
    const second = completeRebalance();
    expect(second.generation).toBe(2);
    expect(group.state).toBe('Stable');
    expect(partitionsOf('b')).toEqual(['orders-3', 'orders-4', 'orders-5']);
  });
});

describe('static membership', () => {
  it('lets a member that names itself come back under a new member id with its partitions and no rebalance', () => {
    stableGroup(request('a1', { groupInstanceId: 'host-a' }), request('b'));
    const before = partitionsOf('a1');
    const ownedSince = new Map(group.members.get('a1')!.ownedSince);
    clock.advance(SESSION_MS - 1);
    group.heartbeat('b');
    expect(group.join(request('a2', { groupInstanceId: 'host-a' }))).toEqual({ rebalance: false });
    expect(group.state).toBe('Stable');
    expect(group.members.has('a1')).toBe(false);
    expect(partitionsOf('a2')).toEqual(before);
    expect(group.members.get('a2')!.ownedSince).toEqual(ownedSince);
    expect(group.tick(TOPICS)).toEqual({ expired: [], write: null });
    expect(() => group.validateCommit('a2', [tp('orders', 0)])).not.toThrow();
    expect(thrownBy(() => group.validateCommit('a1', [tp('orders', 0)])).errorCode).toBe(40903);
  });

  it('takes the replaced slot even when the group is at its maximum size', () => {
    replaceGroup({ maxSize: 1 });
    stableGroup(request('a1', { groupInstanceId: 'host-a' }));
    expect(group.join(request('a2', { groupInstanceId: 'host-a' }))).toEqual({ rebalance: false });
    expect([...group.members.keys()]).toEqual(['a2']);
  });

  it('rebalances when the returning member changes its subscription', () => {
    stableGroup(request('a1', { groupInstanceId: 'host-a' }));
    expect(group.join(request('a2', { groupInstanceId: 'host-a', subscription: { topics: ['payments'] } }))).toEqual({
      rebalance: true,
    });
    completeRebalance();
    expect([...group.members.keys()]).toEqual(['a2']);
    expect(partitionsOf('a2')).toEqual(partitionsOfTopics(TOPICS, ['payments']));
  });

  it('is a new member, with a rebalance, once its session has expired', () => {
    stableGroup(request('a1', { groupInstanceId: 'host-a' }), request('b'));
    clock.advance(SESSION_MS + 1);
    group.heartbeat('b');
    const { expired } = group.tick(TOPICS);
    expect(expired.map((member) => member.memberId)).toEqual(['a1']);
    expect(group.join(request('a2', { groupInstanceId: 'host-a' }))).toEqual({ rebalance: true });
  });

  it('keeps the partitions of the generation being written when it comes back during that write', () => {
    stableGroup(request('a1', { groupInstanceId: 'host-a' }));
    group.join(request('b'));
    const { write } = group.tick(TOPICS); // host-a (as a1) and b share orders
    group.join(request('a2', { groupInstanceId: 'host-a' })); // reconnects before the write is durable
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(group.state).toBe('Stable');
    expect(partitionsOf('a2')).toEqual(['orders-0', 'orders-1', 'orders-2']);
    expect(allOwned()).toEqual(partitionsOfTopics(TOPICS, ['orders']));
  });
});
