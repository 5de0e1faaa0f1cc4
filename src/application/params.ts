// Parsing path and query parameters into numbers with Confluent-style errors: a partition id or offset that is
// not a non-negative integer is a 400 naming the parameter, never a crash or a silent default.
import { errors } from '../common/brook-error.js';
import type { Acks } from '../replication/replica-manager.service.js';

export function integerParam(
  raw: string | undefined,
  name: string,
  options: { min?: number; max?: number; fallback?: number } = {},
): number {
  if (raw === undefined || raw === '') {
    if (options.fallback !== undefined) return options.fallback;
    throw errors.badRequest(`${name} is required.`);
  }
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^-?\d+$/.test(raw)) throw errors.badRequest(`${name} must be an integer, got '${raw}'.`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw errors.badRequest(`${name} must be an integer from ${min} to ${max}, got ${raw}.`);
  }
  return value;
}

export function acksParam(raw: string | undefined): Acks {
  if (raw === undefined || raw === '' || raw === 'all' || raw === '-1') return 'all';
  if (raw === '0' || raw === '1') return raw;
  throw errors.badRequest(`acks must be 0, 1 or all, got '${raw}'.`);
}

/** A timestamp given as epoch milliseconds or an RFC 3339 date-time. */
export function timestampParam(raw: string, name: string): number {
  if (/^\d+$/.test(raw)) return integerParam(raw, name);
  const parsed = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(parsed)) {
    throw errors.badRequest(`${name} must be epoch milliseconds or an RFC 3339 date-time, got '${raw}'.`);
  }
  return parsed;
}

/** A boolean query parameter: `true` or `false` (absent or empty: `fallback`). */
export function booleanParam(raw: string | undefined, name: string, fallback = false): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw errors.badRequest(`${name} must be true or false, got '${raw}'.`);
}
