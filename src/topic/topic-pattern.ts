// Topic patterns: a REST v2 subscription's `topic_pattern` (and, with the Kafka listener, regular-expression
// subscriptions). Kafka takes Java regular expressions matched against the whole topic name; Brook evaluates them
// with RE2 (re2-wasm), whose matching time is linear in the name whatever the pattern, so no pattern can hold the
// event loop the way a backtracking engine can with `(.?.*)*Q`. What RE2 does not have (back-references,
// look-around, possessive quantifiers) is refused with a message saying so.
//
// Bounds, each refused with TopicPatternError (the routes answer 422):
//   TOPIC_PATTERN_LENGTH_MAX   characters of a pattern
//   TOPIC_PATTERN_WEIGHT_MAX   the estimated size of its compiled program (patternWeight below): RE2 expands counted
//                              repetition, so `(.*){1000}` is ten characters but takes a tenth of a second to
//                              compile; the estimate refuses it before compiling
// and for evaluation: TOPIC_PATTERN_MATCHES_MAX topics at most per evaluation (the first in name order), the same
// bound as an explicit topic list; COMPILED_PATTERNS_MAX compiled patterns kept (re2-wasm's heap is fixed, so the
// least recently used are freed).
//
// re2-wasm is loaded on the first pattern compiled, not at start-up: loading it instantiates its WebAssembly
// module with a 16 MB memory, which a broker without pattern subscriptions would carry for nothing (and V8 counts
// it as external memory, towards the full collections that external memory starts).
import { createRequire } from 'node:module';
import type { RE2 as Re2Class } from 're2-wasm';

export const TOPIC_PATTERN_LENGTH_MAX = 512;
export const TOPIC_PATTERN_WEIGHT_MAX = 1_000;
export const TOPIC_PATTERN_MATCHES_MAX = 10_000;
export const COMPILED_PATTERNS_MAX = 256;

export class TopicPatternError extends Error {}

/** re2-wasm's object owns memory in the WebAssembly heap, freed only by delete() on its wrapper. */
interface Re2WithWrapper {
  test(input: string): boolean;
  wrapper: { delete(): void };
}

const requireModule = createRequire(import.meta.url);
let re2: typeof Re2Class | undefined;

/** The RE2 class, re2-wasm loaded on the first call. */
function re2Class(): typeof Re2Class {
  re2 ??= (requireModule('re2-wasm') as typeof import('re2-wasm')).RE2;
  return re2;
}

/** Weights of what compiles to many UTF-8 ranges: any character (`.`, a negated class, \W, \S, \D), and Unicode
 * classes (\pL, \p{Greek}), measured with re2-wasm: `\pL{50}` alone takes over half a second to compile. */
const ANY_CHARACTER_WEIGHT = 10;
const UNICODE_CLASS_WEIGHT = 400;
const WIDE_ESCAPES = ['W', 'S', 'D'];
const WORD_ESCAPES = ['w', 's', 'd'];

const UNSUPPORTED: ReadonlyArray<[RegExp, string]> = [
  [/\\[1-9]/, 'back-references (\\1) are not supported'],
  [/\(\?<?[=!]/, 'look-ahead and look-behind ((?=, (?!, (?<=, (?<!) are not supported'],
  [/[*+?}]\+/, 'possessive quantifiers (*+, ++, ?+) are not supported'],
  [/\(\?>/, 'atomic groups ((?>) are not supported'],
];

/**
 * An upper estimate of the compiled size of a pattern: each atom counts 1 (any character and Unicode classes more,
 * above), a character class its length, a group the sum of its content, and a counted repetition {n,m} multiplies what it repeats by max(n, m) (by n + 1 for
 * {n,}). Linear in the pattern; conservative for odd input (an unbalanced parenthesis is left to the compiler).
 */
export function patternWeight(pattern: string): number {
  const stack: number[] = [0];
  let last = 0; // weight of the last atom or group, what a quantifier applies to
  let index = 0;
  const add = (weight: number) => {
    stack[stack.length - 1] += weight;
    last = weight;
  };
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') {
      const escaped = pattern[index + 1] ?? '';
      index += 2;
      if (escaped === 'p' || escaped === 'P') {
        if (pattern[index] === '{') index = Math.max(index, pattern.indexOf('}', index) + 1);
        else index++;
        add(UNICODE_CLASS_WEIGHT);
      } else add(WIDE_ESCAPES.includes(escaped) ? ANY_CHARACTER_WEIGHT : WORD_ESCAPES.includes(escaped) ? 2 : 1);
    } else if (char === '[') {
      const start = index;
      index++;
      const negated = pattern[index] === '^';
      if (pattern[index] === ']') index++;
      while (index < pattern.length && pattern[index] !== ']') index += pattern[index] === '\\' ? 2 : 1;
      index++;
      const text = pattern.slice(start, index);
      add(
        /\\[pP]/.test(text)
          ? UNICODE_CLASS_WEIGHT
          : Math.max(index - start, negated || /\\[WSD]/.test(text) ? ANY_CHARACTER_WEIGHT : 1),
      );
    } else if (char === '.') {
      index++;
      add(ANY_CHARACTER_WEIGHT);
    } else if (char === '(') {
      stack.push(0);
      index++;
    } else if (char === ')') {
      const inner = stack.length > 1 ? stack.pop()! : 0;
      index++;
      add(inner);
    } else if (char === '{') {
      const match = /^\{(\d{1,6})(,(\d{0,6}))?\}/.exec(pattern.slice(index, index + 16));
      if (match === null) {
        index++;
        add(1);
        continue;
      }
      const low = Number(match[1]);
      const high = match[2] === undefined ? low : match[3] === '' ? low + 1 : Number(match[3]);
      stack[stack.length - 1] += last * (Math.max(low, high, 1) - 1);
      last *= Math.max(low, high, 1);
      index += match[0].length;
    } else {
      index++;
      if (char !== '|' && char !== '*' && char !== '+' && char !== '?') add(1);
    }
  }
  return stack.reduce((sum, weight) => sum + weight, 0);
}

/** Checks a pattern against the bounds and compiles it; throws TopicPatternError with the reason. */
export function compileTopicPattern(pattern: string): Re2WithWrapper {
  if (pattern.length === 0 || pattern.length > TOPIC_PATTERN_LENGTH_MAX)
    throw new TopicPatternError(`topic_pattern must be 1 to ${TOPIC_PATTERN_LENGTH_MAX} characters.`);
  for (const [construct, why] of UNSUPPORTED) {
    if (construct.test(pattern)) throw new TopicPatternError(`topic_pattern is refused: ${why} (RE2 syntax).`);
  }
  const weight = patternWeight(pattern);
  if (weight > TOPIC_PATTERN_WEIGHT_MAX) {
    throw new TopicPatternError(
      `topic_pattern is refused: its counted repetitions expand to about ${weight} steps, more than ${TOPIC_PATTERN_WEIGHT_MAX}.`,
    );
  }
  const RE2 = re2Class();
  try {
    return new RE2(`^(?:${pattern})$`, 'u') as unknown as Re2WithWrapper;
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/u: /s, '');
    throw new TopicPatternError(`topic_pattern is not a valid regular expression: ${reason}.`);
  }
}

/**
 * Compiled patterns, the least recently used freed beyond COMPILED_PATTERNS_MAX, and the topics each matched in
 * the last topic set it was evaluated against (a topic set is one immutable map: the same map gives the same
 * answer without evaluating again).
 */
export class TopicPatterns {
  private readonly compiled = new Map<string, Re2WithWrapper>();
  private readonly matched = new WeakMap<object, Map<string, string[]>>();

  constructor(private readonly compiledMax = COMPILED_PATTERNS_MAX) {}

  /** Throws TopicPatternError when the pattern would be refused. */
  validate(pattern: string): void {
    this.regex(pattern);
  }

  /** The names of `topics` the pattern matches, in name order, at most TOPIC_PATTERN_MATCHES_MAX. */
  match(pattern: string, topics: ReadonlyMap<string, unknown>): string[] {
    let byPattern = this.matched.get(topics);
    if (byPattern === undefined) {
      byPattern = new Map();
      this.matched.set(topics, byPattern);
    }
    let names = byPattern.get(pattern);
    if (names === undefined) {
      const regex = this.regex(pattern);
      names = [];
      for (const name of [...topics.keys()].sort()) {
        if (!regex.test(name)) continue;
        names.push(name);
        if (names.length >= TOPIC_PATTERN_MATCHES_MAX) break;
      }
      if (byPattern.size >= this.compiledMax) byPattern.clear();
      byPattern.set(pattern, names);
    }
    return names;
  }

  private regex(pattern: string): Re2WithWrapper {
    let regex = this.compiled.get(pattern);
    if (regex !== undefined) {
      this.compiled.delete(pattern);
      this.compiled.set(pattern, regex);
      return regex;
    }
    regex = compileTopicPattern(pattern);
    if (this.compiled.size >= this.compiledMax) {
      const [oldest, evicted] = this.compiled.entries().next().value as [string, Re2WithWrapper];
      this.compiled.delete(oldest);
      evicted.wrapper.delete();
    }
    this.compiled.set(pattern, regex);
    return regex;
  }
}

/** The broker's one cache of compiled topic patterns. */
export const topicPatterns = new TopicPatterns();
