// How a produce request with an Idempotency-Key (application/idempotence/idempotency-key.ts) reads the appends of
// its partition batches: a batch the leader found already written is a replay, answered from the outcome the
// producer state kept (offsets, timestamps), never from a stored answer; a batch refused because the key's first
// request is in flight (40906) or had another body (42291) makes the whole request's answer that error, so a
// client sees one answer per request. Pure.
import type { BrookError } from '../../common/brook-error.js';
import type { AppendInfo } from '../../partition-log/partition-log.js';

/** The error codes that answer a whole Idempotency-Key request when any partition's batch got one. */
const KEY_REQUEST_CODES = [42291, 40906] as const;

/** The first request-level key error among the partition batches' errors (42291 before 40906), or null. */
export function keyRequestError(groups: ReadonlyArray<{ error: BrookError | null }>): BrookError | null {
  for (const code of KEY_REQUEST_CODES) {
    const found = groups.find((group) => group.error?.errorCode === code);
    if (found !== undefined) return found.error;
  }
  return null;
}

/**
 * The original timestamp of the record at `position` of a replayed batch, from the retry's timestamps of the same
 * records (`retried`, in batch order) and the original batch's base (smallest) and max timestamps. A record's
 * timestamp is the client's (the same in the retry, since the body is the same) or the time its request was read:
 * every record of a request without one shares that time, which the original batch holds as its base timestamp when
 * all of them share it, else (records with timestamps of their own mixed in, usually earlier ones) as its max.
 */
export function replayedTimestampMs(info: AppendInfo, retried: readonly number[], position: number): number {
  if (info.logAppendTimeMs >= 0) return info.logAppendTimeMs;
  const own = retried[position];
  let latest = retried[0];
  let same = true;
  for (const timestamp of retried) {
    if (timestamp !== retried[0]) same = false;
    if (timestamp > latest) latest = timestamp;
  }
  if (same) return info.baseTimestampMs ?? own;
  return own === latest ? info.maxTimestampMs : own;
}
