import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import {
  booleanProperty,
  exactlyOneAction,
  integerAtLeast,
  parseConfigEntries,
  parseConfigNames,
  parseProperties,
  unescapeSeparator,
} from './options.js';

describe('integerAtLeast', () => {
  it('parses integers at or above the bound', () => {
    expect(integerAtLeast(1)('3')).toBe(3);
    expect(integerAtLeast(0)('0')).toBe(0);
  });

  it.each(['0', '-1', '1.5', 'three', '', '99999999999999999999'])('rejects %j for a minimum of 1', (value) => {
    expect(() => integerAtLeast(1)(value)).toThrow(InvalidArgumentError);
  });
});

describe('parseConfigEntries', () => {
  it("reads Kafka's --add-config syntax, lists in brackets included", () => {
    expect(parseConfigEntries(['retention.ms=1000,cleanup.policy=[compact,delete]', 'segment.ms=5'])).toEqual([
      { name: 'retention.ms', value: '1000' },
      { name: 'cleanup.policy', value: 'compact,delete' },
      { name: 'segment.ms', value: '5' },
    ]);
  });

  it('keeps = signs inside a value', () => {
    expect(parseConfigEntries(['a=b=c'])).toEqual([{ name: 'a', value: 'b=c' }]);
  });

  it.each(['retention.ms', '=1000', 'a=1,b'])('rejects %j', (value) => {
    expect(() => parseConfigEntries([value])).toThrow(UsageError);
  });
});

describe('parseConfigNames', () => {
  it('splits comma-separated and repeated names', () => {
    expect(parseConfigNames(['retention.ms,segment.ms', 'cleanup.policy'])).toEqual([
      'retention.ms',
      'segment.ms',
      'cleanup.policy',
    ]);
  });

  it('rejects empty names and name=value pairs', () => {
    expect(() => parseConfigNames(['a,,b'])).toThrow(UsageError);
    expect(() => parseConfigNames(['retention.ms=1'])).toThrow(UsageError);
  });
});

describe('parseProperties', () => {
  const known = ['parse.key', 'key.separator'];

  it('maps known properties and unescapes \\t in values', () => {
    const properties = parseProperties(['parse.key=true', 'key.separator=\\t'], known);
    expect(properties.get('parse.key')).toBe('true');
    expect(properties.get('key.separator')).toBe('\t');
  });

  it('keeps everything after the first = as the value', () => {
    expect(parseProperties(['key.separator=='], known).get('key.separator')).toBe('=');
  });

  it('names the known properties when given an unknown one', () => {
    expect(() => parseProperties(['parse.keys=true'], known)).toThrow(/known: parse.key, key.separator/);
  });

  it('rejects a property without =', () => {
    expect(() => parseProperties(['parse.key'], known)).toThrow(UsageError);
  });
});

describe('booleanProperty', () => {
  it('reads true and false in any case and falls back when absent', () => {
    expect(booleanProperty(new Map([['p', 'TRUE']]), 'p', false)).toBe(true);
    expect(booleanProperty(new Map([['p', 'false']]), 'p', true)).toBe(false);
    expect(booleanProperty(new Map(), 'p', true)).toBe(true);
    expect(() => booleanProperty(new Map([['p', 'yes']]), 'p', false)).toThrow(UsageError);
  });
});

describe('unescapeSeparator', () => {
  it('turns \\t, \\n and \\\\ into their characters and leaves the rest', () => {
    expect(unescapeSeparator('\\t|\\n|\\\\|:')).toBe('\t|\n|\\|:');
  });
});

describe('exactlyOneAction', () => {
  const actions = ['list', 'describe', 'resetOffsets'] as const;

  it('returns the one action given', () => {
    expect(exactlyOneAction({ describe: true, list: undefined }, actions)).toBe('describe');
  });

  it('lists the actions (as flags) when none or several are given', () => {
    const message = 'command must include exactly one action: --list, --describe or --reset-offsets';
    expect(() => exactlyOneAction({}, actions)).toThrow(message);
    expect(() => exactlyOneAction({ list: true, resetOffsets: true }, actions)).toThrow(message);
  });
});
