// The producer a produce request stamps on its batches, from its headers: the Brook-Producer-* fields of a client
// that holds a producer id (producer-headers.ts), or the one an Idempotency-Key stands for (idempotency-key.ts); not
// both. `digestParts` is asked only when there is a key: what of the request body makes it "the same request"
// (the route's body as read, the route's partition), so a retry with another body is refused (42291).
import { errors } from '../../common/brook-error.js';
import type { IdempotentProducer, ProduceOutcome } from '../produce/produce.service.js';
import { bodyDigest, idempotencyKeyFromHeaders, keyProducer } from './idempotency-key.js';
import { producerFromHeaders } from './producer-headers.js';

type HeaderValue = string | string[] | undefined;

export interface RequestScope {
  principal: string;
  topic: string;
}

/** The request's producer, null when it is not idempotent; 400 for malformed or combined headers. */
export function requestProducer(
  headers: Record<string, HeaderValue>,
  scope: RequestScope,
  digestParts: () => ReadonlyArray<string | Uint8Array>,
): IdempotentProducer | null {
  const key = idempotencyKeyFromHeaders(headers);
  const producer = producerFromHeaders(headers);
  if (key === null) return producer;
  if (producer !== null) {
    throw errors.badRequest('A request carries either an Idempotency-Key or the Brook-Producer-* headers, not both.');
  }
  return keyProducer({ ...scope, key, position: null }, bodyDigest(...digestParts()));
}

/** Whether an answer is rebuilt from kept outcomes only: some record succeeded and every success is a replay. */
export function outcomesReplayed(outcomes: readonly ProduceOutcome[]): boolean {
  let replayed = false;
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    if (outcome.replayed !== true) return false;
    replayed = true;
  }
  return replayed;
}
