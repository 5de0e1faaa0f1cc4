// Pure parsing of the flags Kafka's tools share: integers, repeated `k=v` entries, `--property` maps and the
// "exactly one action" rule. Errors are commander's InvalidArgumentError (inside a parser) or UsageError (after
// parsing); both end as exit code 2.
import { InvalidArgumentError } from 'commander';
import { UsageError } from './errors.js';

export interface ConfigEntry {
  name: string;
  value: string;
}

/** A commander option parser for an integer of at least `min`. */
export function integerAtLeast(min: number): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`'${value}' is not an integer.`);
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new InvalidArgumentError(`'${value}' is too large.`);
    if (parsed < min) throw new InvalidArgumentError(`'${value}' must be at least ${min}.`);
    return parsed;
  };
}

/** A commander option parser that collects every occurrence of a repeatable option. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Splits Kafka's `--add-config` syntax, `k1=v1,k2=[a,b],k3=v3`, into entries: commas separate entries except
 * inside square brackets, which group a list value (the brackets are dropped: `k2` gets `a,b`).
 */
export function parseConfigEntries(values: readonly string[]): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const value of values) {
    for (const part of splitTopLevel(value)) {
      const equals = part.indexOf('=');
      if (equals <= 0) throw new UsageError(`config '${part}' is not of the form name=value`);
      const name = part.slice(0, equals).trim();
      let configValue = part.slice(equals + 1).trim();
      if (configValue.startsWith('[') && configValue.endsWith(']')) configValue = configValue.slice(1, -1);
      entries.push({ name, value: configValue });
    }
  }
  return entries;
}

/** `--delete-config k1,k2` (repeatable): the names, without empty entries. */
export function parseConfigNames(values: readonly string[]): string[] {
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  const empty = names.find((name) => name === '' || name.includes('='));
  if (empty !== undefined) throw new UsageError(`--delete-config takes config names, got '${values.join(',')}'`);
  return names;
}

function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '[') depth++;
    if (char === ']') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** `--property k=v` (repeatable) into a map; an unknown key is a usage error naming the known ones. */
export function parseProperties(values: readonly string[], known: readonly string[]): Map<string, string> {
  const properties = new Map<string, string>();
  for (const value of values) {
    const equals = value.indexOf('=');
    if (equals <= 0) throw new UsageError(`--property '${value}' is not of the form name=value`);
    const name = value.slice(0, equals).trim();
    if (!known.includes(name)) {
      throw new UsageError(`unknown --property '${name}' (known: ${known.join(', ')})`);
    }
    properties.set(name, unescapeSeparator(value.slice(equals + 1)));
  }
  return properties;
}

/** Reads a boolean property (`true`/`false`, case-insensitive), as Kafka's formatters do. */
export function booleanProperty(properties: Map<string, string>, name: string, fallback: boolean): boolean {
  const value = properties.get(name);
  if (value === undefined) return fallback;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw new UsageError(`--property ${name} must be true or false, got '${value}'`);
}

/** Shells make a literal tab hard to type, so `\t`, `\n` and `\\` in separators mean what they do in Kafka's. */
export function unescapeSeparator(value: string): string {
  return value.replace(/\\([tn\\])/g, (_, char: string) => (char === 't' ? '\t' : char === 'n' ? '\n' : '\\'));
}

/** Kafka's tools require exactly one action flag; returns the one given. */
export function exactlyOneAction<A extends string>(options: Partial<Record<A, unknown>>, actions: readonly A[]): A {
  const given = actions.filter((action) => options[action] === true);
  if (given.length !== 1) {
    const flags = actions.map((action) => `--${kebab(action)}`);
    throw new UsageError(
      `command must include exactly one action: ${flags.slice(0, -1).join(', ')} or ${flags[flags.length - 1]}`,
    );
  }
  return given[0];
}

export function kebab(camel: string): string {
  return camel.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Throws a usage error naming `flag` when `value` is missing (for flags required by one action only). */
export function required<T>(value: T | undefined, flag: string, action: string): T {
  if (value === undefined) throw new UsageError(`${action} needs ${flag}`);
  return value;
}
