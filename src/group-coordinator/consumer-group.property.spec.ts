import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrookError } from '../common/brook-error.js';
import { ManualClock } from '../common/clock.js';
import type { AssignorName } from './assignors/assignor.js';
import { ConsumerGroup, type TopicCounts } from './consumer-group.js';
import { subscribedTopics } from './subscription-topics.js';
import type { GroupMetadataValue, Subscription } from './group-records.js';
import { canTransition, type GroupState } from './group-state.js';

// Random sequences of joins, leaves, heartbeats, time, topic changes and ticks against the group state machine,
// with the invariants of issue 4 checked after every step. The coordinator's write of a generation is played two
// ways: at once (replayed or failed right after the tick, as a fast write), and left in flight while later steps
// happen (a slow write), landing or failing in the order the writes were made.

const SESSION_MS = 10_000;
const MEMBER_IDS = ['m0', 'm1', 'm2', 'm3', 'm4'];
const INSTANCE_IDS = ['host-0', 'host-1'];
const SUBSCRIPTIONS: readonly Subscription[] = [
  { topics: ['a'] },
  { topics: ['b'] },
  { topics: ['a', 'b'] },
  { topics: ['b', 'c'] },
  { pattern: 'a|c' },
];
const STATES: readonly GroupState[] = ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'];

type Action =
  | { kind: 'join'; member: number; subscription: number; instance: number | null }
  | { kind: 'leave'; member: number }
  | { kind: 'heartbeat'; member: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'topics'; a: number; b: number; c: number | null }
  /** `ok`: whether the write of a generation this tick computes lands, when writes land at once. */
  | { kind: 'tick'; ok: boolean }
  /** The oldest write in flight lands (is replayed) or fails. */
  | { kind: 'settle'; ok: boolean };

const memberIndex = fc.nat(MEMBER_IDS.length - 1);

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('join' as const),
      member: memberIndex,
      subscription: fc.nat(SUBSCRIPTIONS.length - 1),
      instance: fc.option(fc.nat(INSTANCE_IDS.length - 1), { nil: null }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('leave' as const), member: memberIndex }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('heartbeat' as const), member: memberIndex }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(2 * SESSION_MS) }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('topics' as const),
      a: fc.integer({ min: 1, max: 6 }),
      b: fc.integer({ min: 1, max: 4 }),
      c: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const), ok: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean() }), weight: 3 },
);

const scenarioArbitrary = fc.record({
  initialRebalanceDelayMs: fc.constantFrom(0, 3000),
  assignor: fc.constantFrom<AssignorName>('range', 'roundrobin', 'sticky'),
  actions: fc.array(actionArbitrary, { minLength: 1, maxLength: 60 }),
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** States reachable from `from` through the transition table (one tick may take several transitions). */
function reachable(from: GroupState): Set<GroupState> {
  const seen = new Set<GroupState>([from]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const next of STATES) {
      if (canTransition(state, next) && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

function topicCounts(a: number, b: number, c: number | null): TopicCounts {
  const counts = new Map([
    ['a', a],
    ['b', b],
  ]);
  if (c !== null) counts.set('c', c);
  return counts;
}

const keyOf = (topic: string, partition: number): string => `${topic}-${partition}`;

/** A completed generation: every subscribed partition has exactly one owner, a member that subscribes to it. */
function expectCompleteAssignment(group: ConsumerGroup, topics: TopicCounts): void {
  const owned: string[] = [];
  const expected = new Set<string>();
  for (const member of group.members.values()) {
    const subscribed = subscribedTopics(member.subscription, topics).filter((topic) => topics.has(topic));
    for (const topic of subscribed) {
      for (let partition = 0; partition < topics.get(topic)!; partition++) expected.add(keyOf(topic, partition));
    }
    for (const { topic, partition } of member.assignment) {
      expect(subscribed, `${member.memberId} owns ${topic}-${partition} without subscribing`).toContain(topic);
      owned.push(keyOf(topic, partition));
    }
  }
  expect(owned.sort()).toEqual([...expected].sort());
}

/** validateCommit accepts exactly the partitions a member owns, and nothing from a non-member. */
function expectCommitFencing(group: ConsumerGroup, topics: TopicCounts, gone: ReadonlySet<string>): void {
  for (const member of group.members.values()) {
    const owned = new Set(member.assignment.map(({ topic, partition }) => keyOf(topic, partition)));
    expect([...member.ownedSince.keys()].length).toBe(owned.size);
    for (const [topic, count] of topics) {
      for (let partition = 0; partition < count; partition++) {
        const commit = () => group.validateCommit(member.memberId, [{ topic, partition }]);
        if (owned.has(keyOf(topic, partition))) expect(commit).not.toThrow();
        else expect(commit).toThrow(BrookError);
      }
    }
  }
  for (const memberId of gone) {
    expect(() => group.validateCommit(memberId, [{ topic: 'a', partition: 0 }])).toThrow(BrookError);
  }
}

function run(scenario: Scenario, writes: 'at once' | 'in flight'): void {
  const clock = new ManualClock();
  const group = new ConsumerGroup(
    'g',
    {
      initialRebalanceDelayMs: scenario.initialRebalanceDelayMs,
      defaultAssignor: scenario.assignor,
      maxSize: 10,
      minSessionTimeoutMs: 1,
      maxSessionTimeoutMs: 1_800_000,
    },
    clock,
  );
  let topics = topicCounts(4, 2, null);
  /** Writes made and not yet landed or failed, oldest first, with the topics they were computed from. */
  const inFlight: { value: GroupMetadataValue; topics: TopicCounts }[] = [];
  /** Topics of the generation that most recently became durable. */
  let completedTopics = topics;
  /** Members that left (or were replaced, or expired) and have not joined again. */
  const gone = new Set<string>();
  /** The highest generation that has landed. */
  let highestLandedGeneration = 0;

  const settle = (ok: boolean) => {
    const write = inFlight.shift();
    if (write === undefined) return;
    if (ok) {
      group.replay({ kind: 'group', group: 'g', value: write.value }, 'live');
      completedTopics = write.topics;
      highestLandedGeneration = Math.max(highestLandedGeneration, write.value.generation);
    } else {
      group.rebalanceWriteFailed(write.value.generation);
    }
  };

  for (const action of scenario.actions) {
    const stateBefore = group.state;
    const generationBefore = group.generation;
    switch (action.kind) {
      case 'join': {
        const memberId = MEMBER_IDS[action.member];
        const groupInstanceId = action.instance === null ? null : INSTANCE_IDS[action.instance];
        const replaced = group.members.has(memberId)
          ? undefined
          : [...group.members.values()].find(
              (member) => groupInstanceId !== null && member.groupInstanceId === groupInstanceId,
            );
        group.join({
          memberId,
          groupInstanceId,
          clientId: 'client',
          kind: 'ws',
          subscription: SUBSCRIPTIONS[action.subscription],
          sessionTimeoutMs: SESSION_MS,
          rebalanceTimeoutMs: SESSION_MS,
        });
        if (replaced !== undefined) gone.add(replaced.memberId);
        gone.delete(memberId);
        break;
      }
      case 'leave':
        if (group.leave(MEMBER_IDS[action.member])) gone.add(MEMBER_IDS[action.member]);
        break;
      case 'heartbeat':
        expect(group.heartbeat(MEMBER_IDS[action.member])).toBe(group.members.has(MEMBER_IDS[action.member]));
        break;
      case 'advance':
        clock.advance(action.ms);
        break;
      case 'topics':
        topics = topicCounts(action.a, action.b, action.c);
        break;
      case 'tick': {
        const membersBefore = new Set(group.members.keys());
        const { expired, write } = group.tick(topics);
        for (const member of expired) {
          expect(membersBefore.has(member.memberId)).toBe(true);
          expect(group.members.has(member.memberId)).toBe(false);
          gone.add(member.memberId);
        }
        if (write === null) break;
        for (const taken of [highestLandedGeneration, ...inFlight.map((pending) => pending.value.generation)]) {
          expect(write.generation, 'a generation landed or in flight is not computed again').toBeGreaterThan(taken);
        }
        for (const member of write.members) {
          expect(gone.has(member.memberId), `${member.memberId} left but is in generation ${write.generation}`).toBe(
            false,
          );
        }
        inFlight.push({ value: write, topics });
        break;
      }
      case 'settle':
        settle(action.ok);
        break;
    }
    if (writes === 'at once') {
      // A fast write: it lands (or fails) before anything else happens.
      while (inFlight.length > 0) settle(action.kind === 'tick' ? action.ok : true);
    }

    expect(reachable(stateBefore).has(group.state), `${stateBefore} -> ${group.state}`).toBe(true);
    expect(group.state).not.toBe('Dead');
    expect(group.generation).toBeGreaterThanOrEqual(generationBefore);
    if (group.state === 'Empty') expect(group.members.size).toBe(0);
    if (group.state === 'Stable' || group.state === 'CompletingRebalance') {
      expect(group.members.size).toBeGreaterThan(0);
    }
    for (const memberId of gone) {
      expect(group.members.has(memberId)).toBe(false);
      expect(group.assignmentOf(memberId)).toBeNull();
    }
    if (group.state === 'Stable' && inFlight.length === 0) expectCompleteAssignment(group, completedTopics);
    expectCommitFencing(group, topics, gone);
  }
}

/** Enough runs that a rare interleaving (a static member returning while its generation is written) shows. */
const RUNS = 1000;

describe('ConsumerGroup under random sequences of events', () => {
  it('keeps its invariants when each generation write lands or fails before the next event', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => run(scenario, 'at once')),
      { numRuns: RUNS },
    );
  });

  it('keeps its invariants when generation writes are still in flight while members come and go', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => run(scenario, 'in flight')),
      { numRuns: RUNS },
    );
  });
});
