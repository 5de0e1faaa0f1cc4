// The Idempotency-Key of a produce request (the HTTP header on every produce route, `idempotency_key` in the
// WebSocket produce frame), turned into what the partition leader's producer state dedupes on
// (partition-log/producer-state.ts), so that the decision is made in the leader's append and travels with the batch
// to every replica, through failover, and whichever broker the request came in by:
//
//   producer id     KEY_PRODUCER_ID_BASE + the first 52 bits of SHA-256(principal, topic, key, stream position)
//   producer epoch  the next 15 bits of the same hash (the state keeps one entry per id and epoch: 67 bits of key)
//   base sequence   31 bits of a digest of the request body as the route read it (bodyDigest: SHA-256 over each
//                   part's length and CRC-32C, the batch checksum's hardware path, ~20 GB/s): the digest of the
//                   body lives in every batch header and so in every replica's producer state; a batch of the same
//                   id and epoch with other sequences is the key used with another body (42291)
//
// A partition's batch of a request whose records go to several partitions starts at the sequence of its first
// record (digest + its index in the request), as with Brook-Producer-Sequence. Every request with a key writes its
// key's home partition first (application/produce/partition-appends.ts: a marker batch there when none of its
// records go there), so another body is refused there whatever partitions the two bodies' records go to. The producer state keeps, per
// partition and key, the batch's offsets and timestamps: the answer of a retry is rebuilt from them by the edge.
// Each record of a streaming v3 request is its own request: the stream position is part of the hash.
import { hash } from 'node:crypto';
import { errors } from '../../common/brook-error.js';
import { crc32c } from '../../partition-log/crc32c.js';
import { KEY_PRODUCER_ID_BASE } from '../../partition-log/producer-state.js';
import type { IdempotentProducer } from '../produce/produce.service.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The answer header of a retry answered from the kept outcome. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** Longest key accepted (characters, visible ASCII). */
export const IDEMPOTENCY_KEY_LENGTH_MAX = 255;

const KEY_PATTERN = /^[\x21-\x7e]+$/;
/** 2^20: the hash's first 32 bits are the top of the id's 52. */
const TWO_20 = 2 ** 20;

type HeaderValue = string | string[] | undefined;

/** The Idempotency-Key header of a request, null without one; 400 when it is repeated, empty, too long or not ASCII. */
export function idempotencyKeyFromHeaders(headers: Record<string, HeaderValue>): string | null {
  const value = headers[IDEMPOTENCY_KEY_HEADER];
  if (Array.isArray(value)) throw errors.badRequest('Idempotency-Key must be given once.');
  return idempotencyKeyField(value, 'Idempotency-Key');
}

/** The same checks for the WebSocket frame's field; null when it is absent. */
export function idempotencyKeyField(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > IDEMPOTENCY_KEY_LENGTH_MAX || !KEY_PATTERN.test(value)) {
    throw errors.badRequest(
      `${name} must be 1 to ${IDEMPOTENCY_KEY_LENGTH_MAX} visible ASCII characters (no spaces or controls).`,
    );
  }
  return value;
}

/** What makes two requests the same key: who sent it, to which topic, the key, and a streaming record's position. */
export interface KeyScope {
  principal: string;
  topic: string;
  key: string;
  /** The record's position in a streaming v3 request (from 0); null for a whole request. */
  position: number | null;
}

/** The producer fields a key's request stamps on its batches (see the header); `sequence` from bodyDigest. */
export function keyProducer(scope: KeyScope, sequence: number): IdempotentProducer {
  const digest = sha256(JSON.stringify([scope.principal, scope.topic, scope.key, scope.position]));
  const idBits = digest.readUInt32BE(0) * TWO_20 + (digest.readUInt32BE(4) >>> 12); // 52 bits
  const producerEpoch = digest.readUInt16BE(8) >>> 1; // 15 bits
  return { producerId: KEY_PRODUCER_ID_BASE + idBits, producerEpoch, sequence, idempotencyKey: true };
}

/**
 * 31 bits digesting the parts of a request body (a sequence number: 0 to 2^31 - 1): SHA-256 over each part's kind,
 * length and CRC-32C. Two different bodies of the same lengths share it with a chance of about 2^-31.
 */
export function bodyDigest(...parts: ReadonlyArray<string | Uint8Array>): number {
  let described = '';
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    described += `${typeof part === 'string' ? 's' : 'b'}${bytes.length}:${crc32c(bytes)};`;
  }
  return sha256(described).readUInt32BE(0) >>> 1;
}

/**
 * SHA-256 of `text`'s UTF-8 bytes, in one call: a createHash object per request held a native handle that each
 * young-generation collection had to process (W1 with keys: 0.5 ms of a 3.5 ms scavenge), and lived on to the old
 * generation. Hashing the descriptors joined is hashing them one update at a time.
 */
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
