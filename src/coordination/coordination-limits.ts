// The bounds of the coordination store port, enforced by every adapter before anything is written.

import { CoordinationLimitError } from './coordination-errors.js';

/** Largest key (value key, counter key or watch/list prefix), in UTF-8 bytes. */
export const COORDINATION_KEY_BYTES_MAX = 1024;
/** Largest value, in UTF-8 bytes (1 MiB, like the largest message). */
export const COORDINATION_VALUE_BYTES_MAX = 1024 * 1024;
/** Longest TTL: one day. A lease or registration is renewed far more often than that. */
export const COORDINATION_TTL_MS_MAX = 24 * 60 * 60 * 1000;

export function assertKey(key: string, what = 'key'): void {
  assertKeyBytes(key, what);
  if (key.length === 0) throw new CoordinationLimitError(`${what} must not be empty`);
}

/** A list or watch prefix: like a key, but '' (everything) is allowed. */
export function assertPrefix(prefix: string): void {
  assertKeyBytes(prefix, 'prefix');
}

function assertKeyBytes(key: string, what: string): void {
  if (typeof key !== 'string') throw new CoordinationLimitError(`${what} must be a string`);
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > COORDINATION_KEY_BYTES_MAX) {
    throw new CoordinationLimitError(`${what} is ${bytes} bytes, over the limit of ${COORDINATION_KEY_BYTES_MAX}`);
  }
}

export function assertValue(value: string, what = 'value'): void {
  if (typeof value !== 'string') throw new CoordinationLimitError(`${what} must be a string`);
  // Each UTF-16 unit is at most 3 UTF-8 bytes: skip the byte count for strings that cannot be too long.
  if (value.length * 3 <= COORDINATION_VALUE_BYTES_MAX) return;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > COORDINATION_VALUE_BYTES_MAX) {
    throw new CoordinationLimitError(`${what} is ${bytes} bytes, over the limit of ${COORDINATION_VALUE_BYTES_MAX}`);
  }
}

export function assertTtlMs(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1 || ttlMs > COORDINATION_TTL_MS_MAX) {
    throw new CoordinationLimitError(`ttlMs must be an integer from 1 to ${COORDINATION_TTL_MS_MAX}, got ${ttlMs}`);
  }
}

export function assertExpectedVersion(expectedVersion: number): void {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new CoordinationLimitError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
}

/** Counter values and floors: non-negative integers that still have room for + 1. */
export function assertCounterValue(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0 || value >= Number.MAX_SAFE_INTEGER) {
    throw new CoordinationLimitError(
      `${what} must be an integer from 0 to ${Number.MAX_SAFE_INTEGER - 1}, got ${value}`,
    );
  }
}

export function assertFence(fence: { counterKey: string; value: number } | undefined): void {
  if (fence === undefined) return;
  assertKey(fence.counterKey, 'fence.counterKey');
  assertCounterValue(fence.value, 'fence.value');
}
