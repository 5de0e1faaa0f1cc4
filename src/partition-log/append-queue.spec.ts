import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppendQueue, type PendingAppend } from './append-queue.js';
import { LeaderEpochCache } from './leader-epoch-cache.js';
import { UnexpectedOffsetError } from './log-errors.js';
import { encodeBatch } from './record-batch-builder.js';
import { assignOffsetAndEpoch, CorruptBatchError, lastOffsetOf, readBatchHeader } from './record-batch-layout.js';
import { RecordWalk } from './record-batch-validation.js';

interface AppendSpec {
  records: number;
  fromLeader: boolean;
  epoch: number;
}

/** Queues `specs` from offset `base` as the appender does: offsets in order, an epoch entry where one starts. */
function queued(specs: AppendSpec[], base: number, epochs: LeaderEpochCache): PendingAppend[] {
  let offset = base;
  return specs.map(({ records, fromLeader, epoch }) => {
    const buffer = encodeBatch(Array.from({ length: records }, () => ({ key: null, value: null, timestamp: 0 })));
    assignOffsetAndEpoch(buffer, offset, epoch);
    const header = readBatchHeader(buffer);
    const newEpoch = epoch > epochs.latestEpoch() ? epoch : null;
    if (newEpoch !== null) epochs.assign(newEpoch, offset);
    const item: PendingAppend = {
      batch: { buffer, header },
      info: {
        firstOffset: offset,
        lastOffset: lastOffsetOf(header),
        logAppendTimeMs: -1,
        maxTimestampMs: 0,
        recordCount: records,
      },
      newEpoch,
      crcUnchecked: true,
      recordWalk: RecordWalk.NONE,
      fromLeader,
      producer: null,
      resolve: () => undefined,
      reject: () => undefined,
    };
    offset = item.info.lastOffset + 1;
    return item;
  });
}

const appendSpec = fc.record({
  records: fc.integer({ min: 1, max: 3 }),
  fromLeader: fc.boolean(),
  epoch: fc.integer({ min: 0, max: 4 }),
});

describe('AppendQueue.dropCorrupt', () => {
  it('refuses the corrupt appends and what cannot move, and keeps the rest dense from where the group started', () => {
    fc.assert(
      fc.property(
        fc.array(appendSpec, { minLength: 1, maxLength: 12 }),
        fc.array(appendSpec, { maxLength: 6 }),
        fc.nat(),
        fc.array(fc.nat()),
        (drainSpecs, queuedSpecs, groupStartSeed, corruptSeeds) => {
          const epochs = new LeaderEpochCache();
          const items = queued([...drainSpecs, ...queuedSpecs], 100, epochs);
          const queue = new AppendQueue(items[items.length - 1].info.lastOffset + 1);
          queue.pending = items.splice(drainSpecs.length);
          const groupStart = groupStartSeed % items.length;
          const unwritten = [...items.slice(groupStart), ...queue.pending];
          const corrupt = new Set(corruptSeeds.map((seed) => unwritten[seed % unwritten.length]));
          if (corrupt.size === 0) corrupt.add(items[groupStart]);
          const written = items.slice(0, groupStart);
          const lengths = new Map(unwritten.map((item) => [item, item.info.lastOffset - item.info.firstOffset]));
          const originalOffsets = new Map(unwritten.map((item) => [item, item.info.firstOffset]));
          const groupFirstOffset = items[groupStart].info.firstOffset;
          const firstCorruptOffset = Math.min(...[...corrupt].map((item) => item.info.firstOffset));
          const epochsBefore = epochs.all().filter((entry) => entry.startOffset < firstCorruptOffset);

          const refused = queue.dropCorrupt(items, groupStart, corrupt, epochs);

          // the written part is untouched; what is kept is dense from the group's first offset
          expect(items.slice(0, groupStart)).toEqual(written);
          const kept = [...items.slice(groupStart), ...queue.pending];
          let next = groupFirstOffset;
          for (const item of kept) {
            expect(item.info.firstOffset).toBe(next);
            expect(item.info.lastOffset - item.info.firstOffset).toBe(lengths.get(item));
            expect(readBatchHeader(item.batch.buffer).baseOffset).toBe(next);
            expect(item.batch.header.baseOffset).toBe(next);
            // a copy of the leader's batch keeps the leader's offsets
            if (item.fromLeader) expect(item.info.firstOffset).toBe(originalOffsets.get(item));
            next = item.info.lastOffset + 1;
          }
          expect(queue.nextOffset).toBe(next);
          // each unwritten append is kept or refused, never both; the corrupt ones and the leader's copies that
          // would have to move are refused
          expect(kept.length + refused.length).toBe(unwritten.length);
          for (const { item, error } of refused) {
            expect(kept).not.toContain(item);
            if (corrupt.has(item)) expect(error).toBeInstanceOf(CorruptBatchError);
            else {
              expect(item.fromLeader).toBe(true);
              expect(error).toBeInstanceOf(UnexpectedOffsetError);
            }
          }
          for (const item of corrupt) expect(kept).not.toContain(item);
          for (const item of unwritten) {
            const canStay = item.info.firstOffset < firstCorruptOffset || !item.fromLeader;
            if (!corrupt.has(item) && canStay) expect(kept).toContain(item);
          }
          // the epochs: what started before the first corrupt offset, then each epoch a kept append starts
          const expectedEpochs = new LeaderEpochCache(epochsBefore);
          for (const item of kept) {
            const epoch = item.batch.header.partitionLeaderEpoch;
            const startsEpoch = epoch > expectedEpochs.latestEpoch();
            if (startsEpoch) expectedEpochs.assign(epoch, item.info.firstOffset);
            expect(item.newEpoch).toBe(startsEpoch ? epoch : null);
          }
          expect(epochs.all()).toEqual(expectedEpochs.all());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("moves a leader's append down into the gap a corrupt one left", () => {
    const epochs = new LeaderEpochCache();
    const items = queued(
      [
        { records: 2, fromLeader: false, epoch: 1 },
        { records: 3, fromLeader: false, epoch: 1 },
        { records: 1, fromLeader: false, epoch: 1 },
      ],
      0,
      epochs,
    );
    const queue = new AppendQueue(6);
    const refused = queue.dropCorrupt(items, 0, new Set([items[1]]), epochs);
    expect(refused.map(({ error }) => error)).toEqual([new CorruptBatchError('batch CRC mismatch')]);
    expect(items.map((item) => [item.info.firstOffset, item.info.lastOffset])).toEqual([
      [0, 1],
      [2, 2],
    ]);
    expect(queue.nextOffset).toBe(3);
    expect(epochs.all()).toEqual([{ epoch: 1, startOffset: 0 }]);
  });
});
