import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findCollidingTopic,
  hasCollisionChars,
  hasReservedPrefix,
  isInternalTopic,
  MAX_TOPIC_NAME_LENGTH,
  topicCollides,
  topicCollisionMessage,
  unifyCollisionChars,
  validateTopicName,
} from './topic-name.js';

describe('validateTopicName', () => {
  it.each(['a', 'orders', 'Orders.v1', 'a_b-c.d', '0', '...', '.a', '-', '_', '__consumer_offsets', 'x'.repeat(249)])(
    'accepts %s',
    (name) => {
      expect(validateTopicName(name)).toBeNull();
    },
  );

  it('rejects the empty string', () => {
    expect(validateTopicName('')).toBe('Topic name is invalid: the empty string is not allowed');
  });

  it("rejects '.' and '..'", () => {
    expect(validateTopicName('.')).toBe("Topic name is invalid: '.' is not allowed");
    expect(validateTopicName('..')).toBe("Topic name is invalid: '..' is not allowed");
  });

  it('rejects names longer than 249 characters', () => {
    const name = 'x'.repeat(MAX_TOPIC_NAME_LENGTH + 1);
    expect(validateTopicName(name)).toBe(
      `Topic name is invalid: the length of '${name}' is longer than the max allowed length 249`,
    );
  });

  it.each(['a b', 'a/b', 'a:b', 'a*b', 'tö', 'a\u0000', 'a\n', 'a+b', 'ä', '日本', 'a,b', '%2F'])(
    'rejects %j',
    (name) => {
      expect(validateTopicName(name)).toBe(
        `Topic name is invalid: '${name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`,
      );
    },
  );

  it('rejects a value that is not a string', () => {
    expect(validateTopicName(42 as unknown as string)).toBe('Topic name is invalid: it must be a string');
  });

  it('agrees with the rule [a-zA-Z0-9._-]{1,249} minus . and .. for any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 260 }), fc.stringMatching(/^[a-zA-Z0-9._-]{0,260}$/)), (name) => {
        const legal = /^[a-zA-Z0-9._-]{1,249}$/.test(name) && name !== '.' && name !== '..';
        expect(validateTopicName(name) === null).toBe(legal);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('internal topics', () => {
  it('knows Kafka internal topics', () => {
    expect(isInternalTopic('__consumer_offsets')).toBe(true);
    expect(isInternalTopic('__transaction_state')).toBe(true);
    expect(isInternalTopic('consumer_offsets')).toBe(false);
    expect(isInternalTopic('__mine')).toBe(false);
  });

  it("counts the schema registry's _schemas as internal", () => {
    expect(isInternalTopic('_schemas')).toBe(true);
    expect(isInternalTopic('schemas')).toBe(false);
  });

  it('flags the reserved __ prefix', () => {
    expect(hasReservedPrefix('__mine')).toBe(true);
    expect(hasReservedPrefix('__consumer_offsets')).toBe(true);
    expect(hasReservedPrefix('_mine')).toBe(false);
    expect(hasReservedPrefix('a__b')).toBe(false);
  });
});

describe('collisions', () => {
  it('unifies . to _', () => {
    expect(hasCollisionChars('a.b')).toBe(true);
    expect(hasCollisionChars('a_b')).toBe(true);
    expect(hasCollisionChars('a-b')).toBe(false);
    expect(unifyCollisionChars('a.b_c.d')).toBe('a_b_c_d');
  });

  it('finds names differing only by . versus _', () => {
    expect(topicCollides('topic.1_2', 'topic_1.2')).toBe(true);
    expect(topicCollides('a.b', 'a_b')).toBe(true);
    expect(topicCollides('a.b', 'a.b')).toBe(false);
    expect(topicCollides('a.b', 'a-b')).toBe(false);
    expect(topicCollides('a.b', 'A_b')).toBe(false);
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab._]{1,6}$/), fc.stringMatching(/^[ab._]{1,6}$/), (a, b) => {
        expect(topicCollides(a, b)).toBe(topicCollides(b, a));
      }),
    );
  });

  it('names the least colliding existing topic', () => {
    const existing = new Set(['a_b_c', 'a.b.c', 'x', 'a.b_c']);
    expect(findCollidingTopic('a_b.c', existing)).toBe('a.b.c');
    expect(findCollidingTopic('a.b.c', existing)).toBe('a.b_c');
    expect(findCollidingTopic('abc', existing)).toBeNull();
    expect(findCollidingTopic('x', existing)).toBeNull();
    expect(findCollidingTopic('q.r', existing)).toBeNull();
  });

  it("words the error as Kafka's controller", () => {
    expect(topicCollisionMessage('a_b', 'a.b')).toBe("Topic 'a_b' collides with existing topic: a.b");
  });
});
