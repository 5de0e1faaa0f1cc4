// The consumer group state machine (consumer-group.ts) on a ManualClock, its generations: numbers never reused,
// a failed or superseded generation write, and the rebalances that topic metadata changes start.
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
  request,
  stableGroup,
  TOPICS,
} from '../../test/support/groups/consumer-group-harness.js';

beforeEach(freshGroup);

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
