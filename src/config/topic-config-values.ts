// Parsing one topic config value by its definition (topic-config-table.ts), as Kafka's `ConfigDef` does: the
// string is trimmed; longs and ints are decimal integers within Java's `long`/`int` range; booleans are
// `true`/`false` in any case; lists are comma separated (blanks around commas ignored). Errors read like Kafka's
// `ConfigException`: `Invalid value abc for configuration retention.ms: Not a number of type LONG`. Pure.
import {
  topicConfigDefinition,
  type TopicConfigType,
  type TopicConfigValidator,
  type TopicConfigValue,
} from './topic-config-table.js';

const JAVA_INT_MIN = -(2n ** 31n);
const JAVA_INT_MAX = 2n ** 31n - 1n;
const JAVA_LONG_MIN_BIG = -(2n ** 63n);
const JAVA_LONG_MAX_BIG = 2n ** 63n - 1n;

export type ParseResult = { ok: true; value: TopicConfigValue; normalized: string } | { ok: false; message: string };

function invalid(name: string, raw: unknown, reason: string): { ok: false; message: string } {
  return { ok: false, message: `Invalid value ${String(raw)} for configuration ${name}: ${reason}` };
}

/** Clamp a Java long to the safe integer range of a JavaScript number. */
function toSafeNumber(v: bigint): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (v < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(v);
}

/** Java's `Double.toString` for the values a config can hold: `1.0`, `0.5`, `1.0E-4`. */
function formatDouble(x: number): string {
  const abs = Math.abs(x);
  if (abs === 0 || (abs >= 1e-3 && abs < 1e7)) {
    return Number.isInteger(x) ? x.toFixed(1) : String(x);
  }
  const [mantissa, exponent] = x.toExponential().split('e');
  return `${mantissa!.includes('.') ? mantissa : `${mantissa}.0`}E${exponent!.replace('+', '')}`;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parse and check a value of the given type and validator; `name` is only used in messages. */
export function parseTypedValue(
  name: string,
  type: TopicConfigType,
  validator: TopicConfigValidator | undefined,
  raw: string,
): ParseResult {
  if (typeof raw !== 'string') return invalid(name, raw, 'Expected value to be a string');
  const trimmed = raw.trim();
  switch (type) {
    case 'long':
    case 'int': {
      const [lo, hi] = type === 'long' ? [JAVA_LONG_MIN_BIG, JAVA_LONG_MAX_BIG] : [JAVA_INT_MIN, JAVA_INT_MAX];
      if (!INTEGER.test(trimmed)) return invalid(name, raw, `Not a number of type ${type.toUpperCase()}`);
      const big = BigInt(trimmed);
      if (big < lo || big > hi) return invalid(name, raw, `Not a number of type ${type.toUpperCase()}`);
      if (validator?.kind === 'range') {
        if (validator.min !== undefined && big < BigInt(validator.min)) {
          return invalid(name, raw, `Value must be at least ${validator.min}`);
        }
        if (validator.max !== undefined && big > BigInt(validator.max)) {
          return invalid(name, raw, `Value must be no more than ${validator.max}`);
        }
      }
      return { ok: true, value: toSafeNumber(big), normalized: big.toString() };
    }
    case 'double': {
      if (!DECIMAL.test(trimmed)) return invalid(name, raw, 'Not a number of type DOUBLE');
      const x = Number(trimmed) + 0; // + 0 turns -0 into 0: "-0" and "0" are the same setting
      if (!Number.isFinite(x)) return invalid(name, raw, 'Not a number of type DOUBLE');
      if (validator?.kind === 'range') {
        if (validator.min !== undefined && x < validator.min) {
          return invalid(name, raw, `Value must be at least ${validator.min}`);
        }
        if (validator.max !== undefined && x > validator.max) {
          return invalid(name, raw, `Value must be no more than ${validator.max}`);
        }
      }
      return { ok: true, value: x, normalized: formatDouble(x) };
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (lower !== 'true' && lower !== 'false') {
        return invalid(name, raw, 'Expected value to be either true or false');
      }
      return { ok: true, value: lower === 'true', normalized: lower };
    }
    case 'string': {
      if (validator?.kind === 'enum' && !validator.values.includes(trimmed)) {
        return invalid(name, raw, `String must be one of: ${validator.values.join(', ')}`);
      }
      return { ok: true, value: trimmed, normalized: trimmed };
    }
    case 'list': {
      const items = trimmed === '' ? [] : trimmed.split(/\s*,\s*/);
      if (validator?.kind === 'enum') {
        for (const item of items) {
          if (!validator.values.includes(item)) {
            return invalid(name, raw, `String must be one of: ${validator.values.join(', ')}`);
          }
        }
      }
      return { ok: true, value: items, normalized: items.join(',') };
    }
  }
}

/**
 * Parse one topic config value. On success, `value` is typed (longs clamped to safe integers, see the module doc)
 * and `normalized` is the value as Kafka prints it back (`" 100 "` → `"100"`, `"TRUE"` → `"true"`, `"1"` → `"1.0"`
 * for a double), which is what Brook stores and describes.
 */
export function parseTopicConfigValue(name: string, raw: string): ParseResult {
  const def = topicConfigDefinition(name);
  if (!def) return { ok: false, message: `Unknown topic config name: ${name}` };
  return parseTypedValue(name, def.type, def.validator, raw);
}
