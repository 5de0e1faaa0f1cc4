import { beforeEach, describe, expect, it } from 'vitest';
import { BrookError } from '../common/brook-error.js';
import { ManualClock } from '../common/clock.js';
import type { TopicPartition } from './assignors/assignor.js';
import { ConsumerGroup, type GroupSettings, type JoinRequest } from './consumer-group.js';
import { subscribedTopics } from './subscription-topics.js';
import { topicPartitionKey, type GroupMetadataValue, type InstanceValue, type Subscription } from './group-records.js';

// The consumer group state machine, driven by a ManualClock: the coordinator's tick computes a generation, the
// test plays the coordinator's write by replaying that record ('live'), or reports the write failed.

const GROUP_ID = 'g';
const INITIAL_DELAY_MS = 3000;
const SESSION_MS = 10_000;
const REBALANCE_MS = 5000;
const TOPICS: ReadonlyMap<string, number> = new Map([
  ['orders', 6],
  ['payments', 3],
]);

let clock: ManualClock;
let group: ConsumerGroup;

function newGroup(settings: Partial<GroupSettings> = {}): ConsumerGroup {
  return new ConsumerGroup(
    GROUP_ID,
    {
      initialRebalanceDelayMs: INITIAL_DELAY_MS,
      defaultAssignor: 'range',
      maxSize: 10,
      minSessionTimeoutMs: 1,
      maxSessionTimeoutMs: 1_800_000,
      ...settings,
    },
    clock,
  );
}

beforeEach(() => {
  clock = new ManualClock();
  group = newGroup();
});

function request(memberId: string, overrides: Partial<JoinRequest> = {}): JoinRequest {
  return {
    memberId,
    groupInstanceId: null,
    clientId: 'client',
    kind: 'ws',
    subscription: { topics: ['orders'] },
    sessionTimeoutMs: SESSION_MS,
    rebalanceTimeoutMs: REBALANCE_MS,
    ...overrides,
  };
}

/** Ticks, expects a generation to be due, and makes its write durable. */
function completeRebalance(topics: ReadonlyMap<string, number> = TOPICS): GroupMetadataValue {
  const { write } = group.tick(topics);
  expect(write).not.toBeNull();
  group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
  return write!;
}

/** Joins the members and runs the initial rebalance to Stable. */
function stableGroup(...members: JoinRequest[]): GroupMetadataValue {
  for (const member of members) group.join(member);
  clock.advance(INITIAL_DELAY_MS);
  const write = completeRebalance();
  expect(group.state).toBe('Stable');
  return write;
}

const render = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

function partitionsOf(memberId: string): string[] {
  return (group.assignmentOf(memberId)?.partitions ?? []).map(render).sort();
}

function allOwned(): string[] {
  return [...group.members.values()].flatMap((member) => member.assignment.map(render)).sort();
}

function partitionsOfTopics(topics: ReadonlyMap<string, number>, names: readonly string[]): string[] {
  return names.flatMap((topic) => Array.from({ length: topics.get(topic) ?? 0 }, (_, p) => `${topic}-${p}`)).sort();
}

function thrownBy(action: () => unknown): BrookError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(BrookError);
    return error as BrookError;
  }
  throw new Error('expected an error');
}

const tp = (topic: string, partition: number): TopicPartition => ({ topic, partition });

const instance = (subscription: Subscription | null): InstanceValue => ({
  format: 'binary',
  autoOffsetReset: 'latest',
  autoCommitEnable: true,
  fetchMinBytes: 1,
  requestTimeoutMs: 1000,
  subscription,
  assignment: null,
  createdAtMs: clock.nowMs(),
});

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
    group = newGroup({ initialRebalanceDelayMs: 0 });
    group.join(request('a'));
    expect(completeRebalance().generation).toBe(1);
    expect(group.state).toBe('Stable');
  });

  it('uses the group assignor and records it', () => {
    group = newGroup({ defaultAssignor: 'roundrobin' });
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
    group = newGroup({ maxSize: 2 });
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

describe('a failed generation write', () => {
  it('goes back to PreparingRebalance and computes the generation again at the next tick', () => {
    group.join(request('a'));
    clock.advance(INITIAL_DELAY_MS);
    expect(group.tick(TOPICS).write!.generation).toBe(1);
    group.rebalanceWriteFailed(1);
    expect(group.state).toBe('PreparingRebalance');
    expect(group.generation).toBe(0);
    // Generation numbers are never reused, not even the number of a write that failed.
    expect(completeRebalance().generation).toBe(2);
    expect(group.state).toBe('Stable');
  });

  it('is ignored outside CompletingRebalance', () => {
    stableGroup(request('a'));
    group.rebalanceWriteFailed(group.generation);
    expect(group.state).toBe('Stable');
  });
});

describe('topic metadata changes', () => {
  it('rebalances when a subscribed topic gains partitions', () => {
    stableGroup(request('a'), request('b'));
    const grown = new Map([...TOPICS, ['orders', 8]]);
    const { write } = group.tick(grown);
    expect(write!.generation).toBe(2);
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(allOwned()).toEqual(partitionsOfTopics(grown, ['orders']));
  });

  it('rebalances when a topic matching a pattern subscription is created', () => {
    stableGroup(request('a', { subscription: { pattern: 'orders.*' } }));
    expect(partitionsOf('a')).toEqual(partitionsOfTopics(TOPICS, ['orders']));
    const withNewTopic = new Map([...TOPICS, ['orders-eu', 2]]);
    completeRebalance(withNewTopic);
    expect(partitionsOf('a')).toEqual(partitionsOfTopics(withNewTopic, ['orders', 'orders-eu']));
  });

  it('rebalances when a subscribed topic that did not exist is created', () => {
    stableGroup(request('a', { subscription: { topics: ['orders', 'later'] } }));
    const withLater = new Map([...TOPICS, ['later', 1]]);
    completeRebalance(withLater);
    expect(partitionsOf('a')).toContain('later-0');
  });

  it('does not rebalance for topics no member subscribes to', () => {
    stableGroup(request('a'));
    expect(group.tick(new Map([...TOPICS, ['payments', 9], ['other', 4]])).write).toBeNull();
    expect(group.state).toBe('Stable');
  });
});

describe('generations', () => {
  it('go up by one per completed rebalance, and the assignment reports the current one', () => {
    stableGroup(request('a'));
    for (const memberId of ['b', 'c', 'd']) {
      group.join(request(memberId));
      completeRebalance();
    }
    expect(group.generation).toBe(4);
    expect(group.assignmentOf('d')!.generation).toBe(4);
  });

  it('are not reused when a rebalance starts while the previous generation is still being written', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    const inFlight = group.tick(TOPICS).write!; // generation 2: a and b
    group.leave('b'); // before generation 2 is durable
    const next = group.tick(TOPICS).write!; // computed while generation 2 is still in flight
    expect(inFlight.generation).toBe(2);
    expect(next.generation).toBeGreaterThan(inFlight.generation);
  });

  it('do not become Stable with a superseded assignment when an older in-flight write lands', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    const inFlight = group.tick(TOPICS).write!; // a and b share orders
    group.leave('b');
    group.tick(TOPICS); // the next generation, a alone, is now being written
    group.replay({ kind: 'group', group: GROUP_ID, value: inFlight }, 'live');
    // b's half of orders is owned by nobody; the group must not call that Stable.
    expect(group.state).toBe('CompletingRebalance');
  });

  it('rebalance again when the newest write fails after an older one landed', () => {
    stableGroup(request('a'));
    group.join(request('b'));
    const inFlight = group.tick(TOPICS).write!;
    group.leave('b');
    const newest = group.tick(TOPICS).write!;
    group.replay({ kind: 'group', group: GROUP_ID, value: inFlight }, 'live');
    group.rebalanceWriteFailed(newest.generation);
    const { write } = group.tick(TOPICS);
    expect(write).not.toBeNull();
    group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
    expect(allOwned()).toEqual(partitionsOfTopics(TOPICS, ['orders']));
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
    group = newGroup({ maxSize: 1 });
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
    group = newGroup(); // start-up replay: the group has offsets and no group record
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
