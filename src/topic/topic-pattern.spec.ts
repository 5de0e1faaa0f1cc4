import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileTopicPattern,
  patternWeight,
  TOPIC_PATTERN_LENGTH_MAX,
  TOPIC_PATTERN_MATCHES_MAX,
  TopicPatternError,
  TopicPatterns,
} from './topic-pattern.js';

const topics = (...names: string[]) => new Map(names.map((name) => [name, 1]));

describe('topic patterns', () => {
  it('match whole names, as Kafka matches a Java pattern', () => {
    const patterns = new TopicPatterns();
    expect(patterns.match('ord.*', topics('orders', 'reorders', 'ord'))).toEqual(['ord', 'orders']);
    expect(patterns.match('a|secret4.*', topics('a', 'ab', 'secret4', 'secret41'))).toEqual([
      'a',
      'secret4',
      'secret41',
    ]);
  });

  it('evaluate the pattern that freezes a backtracking engine in linear time', () => {
    const patterns = new TopicPatterns();
    const names = topics(...Array.from({ length: 200 }, (_, i) => `${'a'.repeat(40)}-${i}`));
    const started = performance.now();
    expect(patterns.match('(.?.*)*Q', names)).toEqual([]);
    // a JavaScript RegExp takes seconds per name here; the bound is generous for a shared CPU
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuse what RE2 cannot do, with the reason', () => {
    expect(() => compileTopicPattern('(a)\\1')).toThrow(/back-references/);
    expect(() => compileTopicPattern('(?=a)b')).toThrow(/look-ahead/);
    expect(() => compileTopicPattern('a++')).toThrow(/possessive/);
    expect(() => compileTopicPattern('[a-')).toThrow(TopicPatternError);
    expect(() => compileTopicPattern('')).toThrow(/1 to 512/);
    expect(() => compileTopicPattern('a'.repeat(TOPIC_PATTERN_LENGTH_MAX + 1))).toThrow(/1 to 512/);
  });

  it('refuse counted repetitions that expand past the bound before compiling them', () => {
    expect(() => compileTopicPattern('(.*){1000}')).toThrow(/expand to about 10000/);
    expect(() => compileTopicPattern('\\pL{50}')).toThrow(/expand/);
    expect(patternWeight('a{3}')).toBe(3);
    expect(patternWeight('(ab){2}c')).toBe(5);
    expect(patternWeight('[abc]{2,4}')).toBe(20);
    expect(patternWeight('x{2,}')).toBe(3);
  });

  it('return at most the bound of matches, the first in name order', () => {
    const names = topics(...Array.from({ length: TOPIC_PATTERN_MATCHES_MAX + 5 }, (_, i) => `t${i}`));
    const matched = new TopicPatterns().match('t.*', names);
    expect(matched).toHaveLength(TOPIC_PATTERN_MATCHES_MAX);
    expect(matched).toEqual([...names.keys()].sort().slice(0, TOPIC_PATTERN_MATCHES_MAX));
  });

  it('keep a bounded number of compiled patterns and still answer for evicted ones', () => {
    const patterns = new TopicPatterns(2);
    const names = topics('x1', 'y1', 'z1');
    for (let round = 0; round < 3; round++) {
      for (const prefix of ['x', 'y', 'z'])
        expect(patterns.match(`${prefix}.*`, new Map(names))).toEqual([`${prefix}1`]);
    }
  });

  it('agree with a JavaScript RegExp on simple patterns (a model)', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '(a|b)', 'a*', 'b+', 'a?');
    fc.assert(
      fc.property(
        fc.array(atom, { minLength: 1, maxLength: 6 }),
        fc.array(fc.stringMatching(/^[ab]{0,6}$/)),
        (parts, names) => {
          const pattern = parts.join('');
          const model = new RegExp(`^(?:${pattern})$`);
          const set = topics(...names);
          expect(new TopicPatterns().match(pattern, set)).toEqual([...set.keys()].sort().filter((n) => model.test(n)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
