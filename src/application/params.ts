// Parsing path and query parameters into numbers with Confluent-style errors: a partition id or offset that is
// not a non-negative integer is a 400 naming the parameter, never a crash or a silent default. The problems are
// also given as predicates ("must be an integer, got 'abc'."), for the REST edge's query DTOs to word the same.
import { errors } from '../common/brook-error.js';
import type { Acks } from '../replication/replica-manager.service.js';

const INTEGER_TEXT = /^-?\d+$/;

/** What is wrong with `raw` as an integer from `min` to `max`, as a predicate; null when nothing is. */
export function integerProblem(raw: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): string | null {
  if (raw === undefined || raw === '') return 'is required.';
  const text = String(raw);
  if (!INTEGER_TEXT.test(text)) return `must be an integer, got '${text}'.`;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return `must be an integer from ${min} to ${max}, got ${text}.`;
  }
  return null;
}

export function integerParam(
  raw: string | undefined,
  name: string,
  options: { min?: number; max?: number; fallback?: number } = {},
): number {
  if ((raw === undefined || raw === '') && options.fallback !== undefined) return options.fallback;
  const problem = integerProblem(raw, options.min, options.max);
  if (problem !== null) throw errors.badRequest(`${name} ${problem}`);
  return Number(raw);
}

export function acksParam(raw: string | undefined): Acks {
  if (raw === undefined || raw === '' || raw === 'all' || raw === '-1') return 'all';
  if (raw === '0' || raw === '1') return raw;
  throw errors.badRequest(`acks must be 0, 1 or all, got '${raw}'.`);
}

/** What is wrong with `raw` as epoch milliseconds or an RFC 3339 date-time, as a predicate; null when nothing is. */
export function timestampProblem(raw: unknown): string | null {
  const text = String(raw);
  if (/^\d+$/.test(text)) return integerProblem(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(Date.parse(text))) {
    return `must be epoch milliseconds or an RFC 3339 date-time, got '${text}'.`;
  }
  return null;
}

/** A timestamp given as epoch milliseconds or an RFC 3339 date-time. */
export function timestampParam(raw: string, name: string): number {
  const problem = timestampProblem(raw);
  if (problem !== null) throw errors.badRequest(`${name} ${problem}`);
  return /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
}

/** What is wrong with `raw` as `true` or `false`, as a predicate; null when nothing is. */
export function booleanProblem(raw: unknown): string | null {
  return raw === 'true' || raw === 'false' ? null : `must be true or false, got '${String(raw)}'.`;
}
