// The rules of query DTOs. Query values are text (an array when a parameter repeats); each rule converts the text
// it accepts while class-transformer builds the DTO (an integer becomes a number, a timestamp epoch milliseconds)
// and leaves any other value as it came, for the rule to reject naming it: "offset must be an integer, got 'abc'."
// The words are those of application/params.ts, which parses path parameters. An absent parameter keeps the DTO's
// initial value; an empty one (`offset=`) is the fallback when the rule has one and "is required." otherwise.
import { Transform } from 'class-transformer';
import { booleanProblem, integerProblem, timestampProblem } from '../../application/params.js';
import { Rule } from './body-rules.js';

export interface IntegerTextOptions {
  min?: number;
  max?: number;
  /** What an empty parameter means; without it, an empty parameter is refused. */
  fallback?: number;
}

/** An integer from `min` (0) to `max` (2^53 - 1), converted to a number. */
export function IntegerText({ min = 0, max = Number.MAX_SAFE_INTEGER, fallback }: IntegerTextOptions = {}) {
  return (target: object, property: string | symbol): void => {
    Transform(({ value }: { value: unknown }) => {
      if (value === '' && fallback !== undefined) return fallback;
      return integerProblem(value, min, max) === null ? Number(value) : value;
    })(target, property);
    Rule(
      'integerText',
      (value) => typeof value === 'number',
      (value) => integerProblem(value, min, max) ?? '',
    )(target, property);
  };
}

/** One of a few words, exactly as written; `describe` lists them ("earliest or latest"). */
export function OneOfText(allowed: readonly string[], describe: string): PropertyDecorator {
  return Rule(
    'oneOfText',
    (value) => typeof value === 'string' && allowed.includes(value),
    (value) => `must be ${describe}, got '${String(value)}'.`,
  );
}

/** Epoch milliseconds (digits) or an RFC 3339 date-time, converted to epoch milliseconds. */
export function TimestampText() {
  return (target: object, property: string | symbol): void => {
    Transform(({ value }: { value: unknown }) => {
      if (timestampProblem(value) !== null) return value;
      const text = String(value);
      return /^\d+$/.test(text) ? Number(text) : Date.parse(text);
    })(target, property);
    Rule(
      'timestampText',
      (value) => typeof value === 'number',
      (value) => timestampProblem(value) ?? '',
    )(target, property);
  };
}

/** `true` or `false`, converted to a boolean; an empty parameter is false, as an absent one is by default. */
export function BooleanText() {
  return (target: object, property: string | symbol): void => {
    Transform(({ value }: { value: unknown }) =>
      value === '' ? false : booleanProblem(value) === null ? value === 'true' : value,
    )(target, property);
    Rule(
      'booleanText',
      (value) => typeof value === 'boolean',
      (value) => booleanProblem(value) ?? '',
    )(target, property);
  };
}
