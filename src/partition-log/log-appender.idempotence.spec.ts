import { describe, expect, it } from 'vitest';
import { dir, open, useLogDir } from '../../test/support/partition-log-spec.js';
import { harness, readAll, T0 } from '../../test/support/log-fixtures.js';
import { ProducerStateError } from './log-errors.js';
import { KEY_PRODUCER_ID_BASE } from './producer-state.js';
import { encodeBatch, TimestampType } from './record-batch.js';

useLogDir();

function batch(producerId: number, epoch: number, sequence: number, values = ['v'], timestamp = T0): Buffer {
  return encodeBatch(
    values.map((value) => ({ key: null, value: Buffer.from(value), timestamp })),
    { producerId, producerEpoch: epoch, baseSequence: sequence },
  );
}

describe('appendAsLeader with producer ids', () => {
  it('a retry queued in the same tick as its original is answered with its offsets once the original is written', async () => {
    const log = await open(harness(dir));
    const [first, retry, next] = await Promise.all([
      log.appendAsLeader(batch(1, 0, 0, ['a', 'b']), 0),
      log.appendAsLeader(batch(1, 0, 0, ['a', 'b']), 0),
      log.appendAsLeader(batch(1, 0, 2), 0),
    ]);
    expect(first).toMatchObject({ firstOffset: 0, lastOffset: 1 });
    expect(first.duplicate).toBeUndefined();
    expect(retry).toMatchObject({ firstOffset: 0, lastOffset: 1, duplicate: true, recordCount: 2 });
    expect(next).toMatchObject({ firstOffset: 2 });
    expect((await readAll(log)).map((record) => record.value?.toString())).toEqual(['a', 'b', 'v']);
  });

  it('refuses a gap, an older epoch and a new epoch not at 0 with Kafka error kinds, appending nothing', async () => {
    const log = await open(harness(dir));
    await log.appendAsLeader(batch(2, 1, 0), 0);
    const kind = async (candidate: Buffer) => {
      try {
        await log.appendAsLeader(candidate, 0);
      } catch (error) {
        if (error instanceof ProducerStateError) return error.kind;
        throw error;
      }
      return 'appended';
    };
    expect(await kind(batch(2, 1, 5))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(await kind(batch(2, 0, 1))).toBe('INVALID_PRODUCER_EPOCH');
    expect(await kind(batch(2, 2, 3))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(log.logEndOffset).toBe(1);
    expect(await kind(batch(2, 2, 0))).toBe('appended');
    expect(await kind(batch(2, 1, 1))).toBe('INVALID_PRODUCER_EPOCH');
  });

  it("a client's batch may not claim an idempotency key's producer id (UNKNOWN_PRODUCER_ID); Brook's own may", async () => {
    const log = await open(harness(dir));
    const keyBatch = batch(KEY_PRODUCER_ID_BASE + 5, 3, 77);
    await expect(async () => log.appendAsLeader(keyBatch, 0)).rejects.toMatchObject({ kind: 'UNKNOWN_PRODUCER_ID' });
    await expect(log.appendAsLeader(keyBatch, 0, { keyProducers: true })).resolves.toMatchObject({ firstOffset: 0 });
    const reused = batch(KEY_PRODUCER_ID_BASE + 5, 3, 78);
    await expect(async () => log.appendAsLeader(reused, 0, { keyProducers: true })).rejects.toMatchObject({
      kind: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it("an idempotency key's retry while its original is queued is IDEMPOTENCY_KEY_IN_FLIGHT, once written a duplicate", async () => {
    const log = await open(harness(dir));
    const key = batch(KEY_PRODUCER_ID_BASE + 9, 1, 500, ['a', 'b']);
    const first = log.appendAsLeader(key, 0, { keyProducers: true });
    expect(() =>
      log.appendAsLeader(batch(KEY_PRODUCER_ID_BASE + 9, 1, 500, ['a', 'b']), 0, { keyProducers: true }),
    ).toThrow(expect.objectContaining({ kind: 'IDEMPOTENCY_KEY_IN_FLIGHT' }) as Error);
    await expect(first).resolves.toMatchObject({ firstOffset: 0, lastOffset: 1 });
    const again = batch(KEY_PRODUCER_ID_BASE + 9, 1, 500, ['a', 'b']);
    await expect(log.appendAsLeader(again, 0, { keyProducers: true })).resolves.toMatchObject({
      firstOffset: 0,
      lastOffset: 1,
      duplicate: true,
    });
    expect(log.logEndOffset).toBe(2);
  });

  it("checks an idempotent client batch's CRC before it is queued", async () => {
    const log = await open(harness(dir));
    const corrupt = batch(3, 0, 0);
    corrupt[corrupt.length - 1] ^= 0xff;
    await expect(async () => log.appendAsLeader(corrupt, 0)).rejects.toThrow(/CRC/);
    expect(log.producerState.size).toBe(0);
    await expect(log.appendAsLeader(batch(3, 0, 0), 0)).resolves.toMatchObject({ firstOffset: 0 });
  });

  it('under LogAppendTime a duplicate carries the original append time', async () => {
    const h = harness(dir, { messageTimestampType: TimestampType.LogAppendTime });
    const log = await open(h);
    const original = await log.appendAsLeader(batch(4, 0, 0), 0);
    h.clock.advance(5_000);
    const retry = await log.appendAsLeader(batch(4, 0, 0), 0);
    expect(retry).toMatchObject({ duplicate: true, logAppendTimeMs: original.logAppendTimeMs });
    expect(original.logAppendTimeMs).toBe(T0);
  });

  it('a follower builds the same state from the batches it copies', async () => {
    const leader = await open(harness(dir));
    await leader.appendAsLeader(batch(6, 0, 0, ['x', 'y']), 0);
    await leader.appendAsLeader(batch(6, 0, 2), 0);
    const { batches } = await leader.read(0, { maxBytes: 1 << 20 });
    const followerDir = `${dir}-follower`;
    const follower = await open(harness(followerDir));
    await follower.appendAsFollower(batches);
    expect([...follower.producerState.all()]).toEqual(
      [...leader.producerState.all()].map((entry) => ({ ...entry, lastUpdateMs: T0 })),
    );
    await follower.delete();
  });
});
