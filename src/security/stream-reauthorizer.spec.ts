import { describe, expect, it } from 'vitest';
import type { BrookError } from '../common/brook-error.js';
import { ManualClock } from '../common/clock.js';
import type { Check } from './authorizer.service.js';
import { StreamReauthorizer, type GuardedStream, type StreamIdentity } from './stream-reauthorizer.js';

const read = (name: string): Check => ({ operation: 'READ', resource: { type: 'TOPIC', name } });

function setUp() {
  const clock = new ManualClock();
  const readable = new Set(['a', 'b']);
  const removed = new Set<string>();
  const reauthorizer = new StreamReauthorizer<StreamIdentity>(
    {
      credentialProblem: ({ principal }) => (removed.has(principal) ? 'the user was removed' : null),
      allowed: (_identity, check) => readable.has(check.resource.name),
    },
    clock,
    5_000,
  );
  const ended: Array<{ name: string; error: BrookError }> = [];
  const stream = (name: string, principal: string, topics: string[]): GuardedStream => ({
    identity: { principal, host: '10.0.0.1' },
    rights: () => topics.map(read),
    end: (error) => ended.push({ name, error }),
  });
  return { clock, readable, removed, reauthorizer, ended, stream };
}

describe('StreamReauthorizer', () => {
  it('ends a stream whose right was revoked at the next pass, with 40301 naming the right', () => {
    const { clock, readable, reauthorizer, ended, stream } = setUp();
    reauthorizer.register(stream('s1', 'User:alice', ['a']));
    reauthorizer.register(stream('s2', 'User:alice', ['b']));
    readable.delete('a');
    clock.advance(4_999);
    expect(reauthorizer.poll()).toBe(0); // not due yet, and no change announced
    clock.advance(1);
    expect(reauthorizer.poll()).toBe(1);
    expect(ended.map((e) => e.name)).toEqual(['s1']);
    expect(ended[0].error.errorCode).toBe(40301);
    expect(ended[0].error.message).toMatch(/no longer authorized to READ topic 'a'/);
    expect(reauthorizer.size).toBe(1);
  });

  it('runs a pass at once after a change, whatever the interval', () => {
    const { readable, reauthorizer, ended, stream } = setUp();
    reauthorizer.register(stream('s1', 'User:alice', ['a']));
    readable.delete('a');
    expect(reauthorizer.poll()).toBe(0);
    reauthorizer.changed();
    expect(reauthorizer.poll()).toBe(1);
    expect(ended).toHaveLength(1);
    reauthorizer.changed();
    expect(reauthorizer.poll()).toBe(0); // ended streams are not asked again
  });

  it('ends every stream of a credential that no longer holds, even one that needs no right', () => {
    const { removed, reauthorizer, ended, stream } = setUp();
    reauthorizer.register(stream('socket', 'User:bot', []));
    reauthorizer.register(stream('sub', 'User:bot', ['a']));
    reauthorizer.register(stream('other', 'User:alice', ['a']));
    removed.add('User:bot');
    reauthorizer.changed();
    expect(reauthorizer.poll()).toBe(2);
    expect(ended.map((e) => e.name)).toEqual(['socket', 'sub']);
    expect(ended[0].error.message).toMatch(/User:bot may not stream any more: the user was removed/);
  });

  it('skips streams unregistered by another stream ending in the same pass', () => {
    const { readable, reauthorizer, ended } = setUp();
    let unregisterChild: () => void = () => undefined;
    reauthorizer.register({
      identity: { principal: 'User:alice', host: '' },
      rights: () => [read('a')],
      end: () => {
        ended.push({ name: 'parent', error: undefined as never });
        unregisterChild();
      },
    });
    unregisterChild = reauthorizer.register({
      identity: { principal: 'User:alice', host: '' },
      rights: () => [read('a')],
      end: () => ended.push({ name: 'child', error: undefined as never }),
    });
    readable.delete('a');
    reauthorizer.changed();
    expect(reauthorizer.poll()).toBe(1);
    expect(ended.map((e) => e.name)).toEqual(['parent']);
  });

  it('leaves streams alone while rights and credentials hold', () => {
    const { clock, reauthorizer, stream } = setUp();
    const unregister = reauthorizer.register(stream('s1', 'User:alice', ['a', 'b']));
    for (let i = 0; i < 10; i++) {
      clock.advance(5_000);
      expect(reauthorizer.poll()).toBe(0);
    }
    unregister();
    expect(reauthorizer.size).toBe(0);
  });
});
