// The idempotent producer's fields of a produce request: HTTP headers Brook-Producer-Id, Brook-Producer-Epoch and
// Brook-Producer-Sequence (the WebSocket frame's producer_id, producer_epoch and sequence use the same checks).
// All three or none; ids are those POST /v3/clusters/{c}/producers hands out (below the idempotency keys' range).
import { errors } from '../../common/brook-error.js';
import { KEY_PRODUCER_ID_BASE, PRODUCER_EPOCH_MAX, SEQUENCE_MAX } from '../../partition-log/producer-state.js';
import type { IdempotentProducer } from '../produce/produce.service.js';

export const PRODUCER_ID_HEADER = 'brook-producer-id';
export const PRODUCER_EPOCH_HEADER = 'brook-producer-epoch';
export const PRODUCER_SEQUENCE_HEADER = 'brook-producer-sequence';

type HeaderValue = string | string[] | undefined;

/** The producer fields of a request's headers, null when it has none; 400 when they are partial or malformed. */
export function producerFromHeaders(headers: Record<string, HeaderValue>): IdempotentProducer | null {
  const id = single(headers[PRODUCER_ID_HEADER], 'Brook-Producer-Id');
  const epoch = single(headers[PRODUCER_EPOCH_HEADER], 'Brook-Producer-Epoch');
  const sequence = single(headers[PRODUCER_SEQUENCE_HEADER], 'Brook-Producer-Sequence');
  if (id === undefined && epoch === undefined && sequence === undefined) return null;
  return producerFields(id, epoch, sequence, ['Brook-Producer-Id', 'Brook-Producer-Epoch', 'Brook-Producer-Sequence']);
}

/** The same checks for fields given as numbers or decimal strings (the WebSocket frame); null when none is set. */
export function producerFields(
  id: unknown,
  epoch: unknown,
  sequence: unknown,
  names: readonly [string, string, string],
): IdempotentProducer | null {
  if (id === undefined && epoch === undefined && sequence === undefined) return null;
  return {
    producerId: integerField(id, names[0], KEY_PRODUCER_ID_BASE - 1, names),
    producerEpoch: integerField(epoch, names[1], PRODUCER_EPOCH_MAX, names),
    sequence: integerField(sequence, names[2], SEQUENCE_MAX, names),
  };
}

function single(value: HeaderValue, name: string): string | undefined {
  if (Array.isArray(value)) throw errors.badRequest(`${name} must be given once.`);
  return value;
}

function integerField(value: unknown, name: string, max: number, names: readonly string[]): number {
  if (value === undefined || value === null)
    throw errors.badRequest(`${names.join(', ')} go together: ${name} is missing.`);
  const number = typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0 || number > max) {
    throw errors.badRequest(`${name} must be an integer from 0 to ${max}.`);
  }
  return number;
}
