// A client batch's record walk (record-batch-validation.ts) where the native addon is built runs in the write's
// thread-pool job, after the CRC check: a batch it refuses is refused like a bad CRC (the appends behind it
// renumbered and written again) with the reason the JavaScript walk names. Without the addon (or with a compressed
// batch) the walk runs before the batch is queued; the outcomes below are the same either way.
import { describe, expect, it } from 'vitest';
import { dir, open, useLogDir } from '../../test/support/partition-log-spec.js';
import { batchOf, harness, readAll } from '../../test/support/log-fixtures.js';
import { record } from '../../test/support/record-batch-fixtures.js';
import { nativeWritevChecked } from './native-append.js';
import { encodeBatch } from './record-batch-builder.js';
import { hasValidCrc, readBatchHeader } from './record-batch-layout.js';
import { nativeWalkRecords, recordWalkDeferrable } from './record-batch-validation.js';
import type { PartitionLog } from './partition-log.js';

useLogDir();

const CLIENT = { validateRecords: true };

/** Appends as the Kafka listener does; a refusal thrown before queueing counts as a rejection. */
function appendClient(log: PartitionLog, batch: Buffer): Promise<{ firstOffset: number }> {
  return Promise.resolve().then(() => log.appendAsLeader(batch, 0, CLIENT));
}

describe('LogAppender: a client batch whose records fail the walk', () => {
  const badDeltas = () => encodeBatch([record(), record()], { offsetDeltas: [0, 2], lastOffsetDelta: 1 });

  it('has a right CRC and a header that passes: only the walk can refuse it', () => {
    const batch = badDeltas();
    expect(hasValidCrc(batch)).toBe(true);
    expect(readBatchHeader(batch).lastOffsetDelta).toBe(1);
  });

  it('is refused naming the record; the batches of its tick around it get dense offsets and are kept', async () => {
    const log = await open(harness(dir));
    await log.appendAsLeader(batchOf({ value: 'before' }), 0, CLIENT);
    const batches = [batchOf({ value: 'a' }), badDeltas(), batchOf({ value: 'c' })];
    const outcomes = await Promise.allSettled(batches.map((batch) => appendClient(log, batch)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/record 1 does not have offset delta 1/);
    expect(outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.firstOffset] : []))).toEqual([
      1, 2,
    ]);
    expect(log.logEndOffset).toBe(3);
    expect((await readAll(log)).map((one) => [one.offset, one.value?.toString()])).toEqual([
      [0, 'before'],
      [1, 'a'],
      [2, 'c'],
    ]);
    expect(await log.appendAsLeader(batchOf({ value: 'd' }), 0, CLIENT)).toMatchObject({ firstOffset: 3 });
  });

  it('on a compacted topic, a keyless record is refused naming it; keyed batches are kept', async () => {
    const log = await open(harness(dir, { cleanupPolicyCompact: true }));
    const keyed = (value: string) => encodeBatch([record({ key: Buffer.from('k'), value: Buffer.from(value) })]);
    const keyless = encodeBatch([record({ key: Buffer.from('k') }), record({ key: null })]);
    const outcomes = await Promise.allSettled(
      [keyed('a'), keyless, keyed('c')].map((batch) => appendClient(log, batch)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/record 1 has no key/);
    expect((await readAll(log)).map((one) => one.value?.toString())).toEqual(['a', 'c']);
  });

  describe.skipIf(nativeWritevChecked === null || nativeWalkRecords === null)('where the addon is built', () => {
    it('leaves the walk of an uncompressed client batch to the write job (queued, then refused there)', async () => {
      expect(recordWalkDeferrable(readBatchHeader(badDeltas()))).toBe(true);
      const log = await open(harness(dir));
      let appended: Promise<unknown> | undefined;
      // queued without a throw: the walk did not run on this thread
      expect(() => (appended = log.appendAsLeader(badDeltas(), 0, CLIENT))).not.toThrow();
      await expect(appended).rejects.toThrow(/record 1 does not have offset delta 1/);
      expect(log.logEndOffset).toBe(0);
    });
  });
});
