import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BrookError } from '../../common/brook-error.js';
import { crc32c } from '../../partition-log/crc32c.js';
import {
  KEY_PRODUCER_ID_BASE,
  PRODUCER_EPOCH_MAX,
  PRODUCER_ID_LIMIT,
  SEQUENCE_MAX,
} from '../../partition-log/producer-state.js';
import { bodyDigest, idempotencyKeyFromHeaders, keyProducer } from './idempotency-key.js';
import { outcomesReplayed, requestProducer } from './request-producer.js';
import { replayedTimestampMs } from '../produce/replay.js';

const scope = { principal: 'User:alice', topic: 't', key: 'order-17', position: null };

describe('keyProducer', () => {
  it('is the same for the same scope and differs for another principal, topic, key or stream position', () => {
    const a = keyProducer(scope, 5);
    expect(keyProducer(scope, 5)).toEqual(a);
    expect(a).toMatchObject({ sequence: 5, idempotencyKey: true });
    expect(a.producerId).toBeGreaterThanOrEqual(KEY_PRODUCER_ID_BASE);
    expect(a.producerId).toBeLessThan(PRODUCER_ID_LIMIT);
    expect(Number.isSafeInteger(a.producerId)).toBe(true);
    expect(a.producerEpoch).toBeGreaterThanOrEqual(0);
    expect(a.producerEpoch).toBeLessThanOrEqual(PRODUCER_EPOCH_MAX);
    const others = [
      { ...scope, principal: 'User:bob' },
      { ...scope, topic: 'u' },
      { ...scope, key: 'order-18' },
      { ...scope, position: 0 },
    ].map((other) => keyProducer(other, 5));
    for (const other of others)
      expect([other.producerId, other.producerEpoch]).not.toEqual([a.producerId, a.producerEpoch]);
  });

  it('spreads ids over the key range', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => keyProducer({ ...scope, key: `k${i}` }, 0).producerId);
    expect(new Set(ids).size).toBe(ids.length);
    const high = ids.filter((id) => id - KEY_PRODUCER_ID_BASE >= (PRODUCER_ID_LIMIT - KEY_PRODUCER_ID_BASE) / 2);
    expect(high.length).toBeGreaterThan(800);
    expect(high.length).toBeLessThan(1200);
  });
});

describe('bodyDigest', () => {
  it('is a sequence number that tells parts apart, and strings from bytes', () => {
    const digest = bodyDigest('v2', '{"records":[]}');
    expect(digest).toBe(bodyDigest('v2', '{"records":[]}'));
    expect(digest).toBeGreaterThanOrEqual(0);
    expect(digest).toBeLessThanOrEqual(SEQUENCE_MAX);
    expect(bodyDigest('v2', '{"records":[1]}')).not.toBe(digest);
    expect(bodyDigest('ab', 'c')).not.toBe(bodyDigest('a', 'bc'));
    expect(bodyDigest(Buffer.from('x'))).not.toBe(bodyDigest('x'));
  });
});

// The ids, epochs and digests live on in the logs' batch headers and producer state: a retry after an upgrade must
// map to the same ones, so they stay the documented SHA-256 derivations, here computed the streaming way.
describe('the stored derivations', () => {
  it('keyProducer: the first 52 bits of SHA-256 of the scope as JSON, the next 15 the epoch', () => {
    for (const key of ['order-17', 'k', 'é'.repeat(3)]) {
      const hash = createHash('sha256')
        .update(JSON.stringify(['User:alice', 't', key, 3]))
        .digest();
      const producer = keyProducer({ principal: 'User:alice', topic: 't', key, position: 3 }, 9);
      expect(producer.producerId).toBe(
        KEY_PRODUCER_ID_BASE + hash.readUInt32BE(0) * 2 ** 20 + (hash.readUInt32BE(4) >>> 12),
      );
      expect(producer.producerEpoch).toBe(hash.readUInt16BE(8) >>> 1);
    }
  });

  it("bodyDigest: 31 bits of SHA-256 over each part's kind, length and CRC-32C", () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));
    const hash = createHash('sha256');
    for (const [kind, part] of [
      ['s', Buffer.from('v2 0 ü')],
      ['b', bytes],
      ['s', Buffer.from('null')],
    ] as const)
      hash.update(`${kind}${part.length}:${crc32c(part)};`);
    expect(bodyDigest('v2 0 ü', bytes, 'null')).toBe(hash.digest().readUInt32BE(0) >>> 1);
  });
});

describe('the Idempotency-Key header', () => {
  const refusal = (headers: Record<string, string | string[]>) => {
    try {
      requestProducer(headers, scope, () => ['body']);
    } catch (error) {
      expect(error).toBeInstanceOf(BrookError);
      expect((error as BrookError).status).toBe(400);
      return (error as BrookError).message;
    }
    throw new Error('not refused');
  };

  it('is read once, 1 to 255 visible ASCII characters, not beside the producer headers', () => {
    expect(idempotencyKeyFromHeaders({})).toBeNull();
    expect(idempotencyKeyFromHeaders({ 'idempotency-key': 'a-b_c:1' })).toBe('a-b_c:1');
    expect(refusal({ 'idempotency-key': ['a', 'b'] })).toMatch(/once/);
    expect(refusal({ 'idempotency-key': '' })).toMatch(/visible ASCII/);
    expect(refusal({ 'idempotency-key': 'a b' })).toMatch(/visible ASCII/);
    expect(refusal({ 'idempotency-key': 'é' })).toMatch(/visible ASCII/);
    expect(refusal({ 'idempotency-key': 'x'.repeat(256) })).toMatch(/255/);
    const producer = { 'brook-producer-id': '1', 'brook-producer-epoch': '0', 'brook-producer-sequence': '0' };
    expect(refusal({ 'idempotency-key': 'k', ...producer })).toMatch(/not both/);
    expect(requestProducer(producer, scope, () => [])).toEqual({ producerId: 1, producerEpoch: 0, sequence: 0 });
    expect(requestProducer({ 'idempotency-key': 'order-17' }, scope, () => ['body'])).toEqual(
      keyProducer(scope, bodyDigest('body')),
    );
  });
});

describe('answers rebuilt from kept outcomes', () => {
  it('is a replay when every success was replayed', () => {
    const ok = (replayed?: boolean) => ({ ok: true as const, partition: 0, offset: 1, timestampMs: 0, replayed });
    const failed = { ok: false as const, partition: 0, error: new BrookError(400, 40000, 'x') };
    expect(outcomesReplayed([ok(true), ok(true)])).toBe(true);
    expect(outcomesReplayed([ok(true), ok()])).toBe(false);
    expect(outcomesReplayed([ok(true), failed])).toBe(true);
    expect(outcomesReplayed([failed])).toBe(false);
  });

  it("takes a replayed record's timestamps from the original batch", () => {
    const info = {
      firstOffset: 0,
      lastOffset: 2,
      recordCount: 3,
      logAppendTimeMs: -1,
      maxTimestampMs: 900,
      baseTimestampMs: 500,
    };
    // every record stamped with the time its request was read: the original's is the batch's base
    expect(replayedTimestampMs(info, [7000, 7000, 7000], 1)).toBe(500);
    // a record with its own (earlier) timestamp keeps it; the others get the original's read time, the max
    const mixed = { ...info, baseTimestampMs: 100, maxTimestampMs: 900 };
    expect(replayedTimestampMs(mixed, [100, 7000, 7000], 0)).toBe(100);
    expect(replayedTimestampMs(mixed, [100, 7000, 7000], 2)).toBe(900);
    expect(replayedTimestampMs({ ...info, logAppendTimeMs: 1234 }, [1, 2, 3], 0)).toBe(1234);
  });
});
