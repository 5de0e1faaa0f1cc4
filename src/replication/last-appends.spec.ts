import { describe, expect, it } from 'vitest';
import type { AppendInfo } from '../partition-log/append-queue.js';
import { assignOffsetAndEpoch, encodeBatch } from '../partition-log/record-batch.js';
import type { LeaderPartition } from './leader-partition.js';
import { LastAppends } from './last-appends.js';

/** A leadership as LastAppends looks at it: its key, high watermark and log start. */
function leaderOf(key: string, highWatermark = 0, logStartOffset = 0, replicas = [1, 2]): LeaderPartition {
  const state = { highWatermark, replicas, isr: [replicas[0]] };
  return { key, log: { logStartOffset }, state } as unknown as LeaderPartition;
}

function setHighWatermark(leader: LeaderPartition, highWatermark: number): void {
  (leader.state as { highWatermark: number }).highWatermark = highWatermark;
}

function info(firstOffset: number, lastOffset: number, duplicate = false): AppendInfo {
  const recordCount = lastOffset - firstOffset + 1;
  return { firstOffset, lastOffset, logAppendTimeMs: -1, maxTimestampMs: 0, recordCount, duplicate };
}

/** A written batch of offsets [first, last] with `valueBytes` in each record, in its own ArrayBuffer. */
function batchOf(first: number, last: number, valueBytes = 50): Buffer {
  const records = Array.from({ length: last - first + 1 }, () => ({
    key: null,
    value: Buffer.alloc(valueBytes, 7),
    timestamp: 1,
  }));
  const encoded = encodeBatch(records);
  const own = Buffer.alloc(encoded.length);
  encoded.copy(own);
  assignOffsetAndEpoch(own, first, 0);
  return own;
}

/** Appends [first, last] to `appends` as `leader` did; returns the batch. */
function append(appends: LastAppends, leader: LeaderPartition, first: number, last: number, valueBytes = 50): Buffer {
  const batch = batchOf(first, last, valueBytes);
  appends.remember(leader, info(first, last), batch);
  return batch;
}

describe('LastAppends, readers below the high watermark', () => {
  it('answers a read at a kept batch once the high watermark is at the end of what it takes, with the batch itself', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 10);
    const batch = append(appends, leader, 10, 14);
    expect(appends.read(leader, 10, 1024, true)).toBeNull(); // not committed yet
    setHighWatermark(leader, 15);
    const read = appends.read(leader, 10, 1024, true)!;
    expect(read.batches).toBe(batch);
    expect(read).toMatchObject({ nextOffset: 15, highWatermark: 15, logStartOffset: 0 });
    expect(appends.read(leader, 11, 1024, true)).toBeNull(); // inside the batch: the log answers
    expect(appends.read(leader, 15, 1024, true)).toBeNull();
  });

  it('joins the contiguous batches below the HW, and stops at maxBytes (the first batch of any size)', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 0);
    const batches = [append(appends, leader, 0, 1), append(appends, leader, 2, 3), append(appends, leader, 4, 5)];
    setHighWatermark(leader, 4);
    const read = appends.read(leader, 0, 1 << 20, true)!;
    expect(read.batches).toEqual(Buffer.concat(batches.slice(0, 2)));
    expect(read.nextOffset).toBe(4);
    const one = appends.read(leader, 0, batches[0].length + 1, true)!;
    expect(one.batches).toBe(batches[0]);
    expect(one.nextOffset).toBe(2);
    expect(appends.read(leader, 0, 1, true)!.nextOffset).toBe(2);
    expect(appends.read(leader, 0, 1, false)).toBeNull();
    expect(appends.read(leader, 2, 1 << 20, true)!.batches).toBe(batches[1]);
  });

  it('reads the file when the log holds more below the HW than the run, or retention removed the batch', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 5);
    append(appends, leader, 0, 4);
    setHighWatermark(leader, 8); // a later append this does not hold
    expect(appends.read(leader, 0, 1024, true)).toBeNull();
    setHighWatermark(leader, 5);
    (leader.log as { logStartOffset: number }).logStartOffset = 5;
    expect(appends.read(leader, 0, 1024, true)).toBeNull();
  });
});

describe('LastAppends, followers', () => {
  it('answers a follower at a kept batch with the batches from there up to maxBytes, past the HW too', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 0);
    const batches = [append(appends, leader, 0, 1), append(appends, leader, 2, 3), append(appends, leader, 4, 5)];
    expect(appends.readForFollower(leader, 0, 1 << 20)).toEqual(batches);
    const fromSecond = appends.readForFollower(leader, 2, batches[1].length + batches[2].length)!;
    expect(fromSecond).toHaveLength(2);
    expect(fromSecond[0]).toBe(batches[1]); // the kept batches themselves, not copies
    expect(fromSecond[1]).toBe(batches[2]);
    expect(appends.readForFollower(leader, 2, batches[1].length + batches[2].length - 1)).toEqual([batches[1]]);
    expect(appends.readForFollower(leader, 4, 1)).toEqual([batches[2]]); // one whole batch at least
    expect(appends.readForFollower(leader, 1, 1 << 20)).toBeNull(); // inside a batch
    expect(appends.readForFollower(leader, 6, 1 << 20)).toBeNull(); // the log end
  });

  it('drops what every follower fetched past, keeping the last batch for readers', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 0);
    const batches = [append(appends, leader, 0, 1), append(appends, leader, 2, 3), append(appends, leader, 4, 5)];
    appends.forgetFetched(leader, 4);
    expect(appends.readForFollower(leader, 0, 1 << 20)).toBeNull();
    expect(appends.readForFollower(leader, 2, 1 << 20)).toBeNull();
    expect(appends.bytes).toBe(batches[2].length);
    appends.forgetFetched(leader, 6);
    expect(appends.readForFollower(leader, 4, 1 << 20)).toEqual([batches[2]]);
  });

  it('keeps only the last batch below the HW of a leadership with no follower, all when it has followers (ISR of one too)', () => {
    const alone = leaderOf('t-0', 0, 0, [1]);
    const withFollowers = leaderOf('t-1', 0, 0, [1, 2]);
    const appends = new LastAppends();
    for (const leader of [alone, withFollowers]) {
      for (const [first, last] of [
        [0, 1],
        [2, 3],
        [4, 5],
      ]) {
        const batch = append(appends, leader, first, last);
        setHighWatermark(leader, last + 1);
        appends.appended(leader);
        expect(appends.read(leader, first, 1 << 20, true)!.batches).toBe(batch); // a woken reader gets it
      }
    }
    expect(appends.readForFollower(alone, 0, 1 << 20)).toBeNull();
    expect(appends.readForFollower(alone, 4, 1 << 20)).toHaveLength(1);
    expect(appends.readForFollower(withFollowers, 0, 1 << 20)).toHaveLength(3);
  });

  it('starts a new run at a batch that does not continue the last, and keeps the run at a duplicate', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 0);
    append(appends, leader, 0, 1);
    appends.remember(leader, info(0, 1, true), batchOf(0, 1)); // a duplicate: nothing written
    const second = append(appends, leader, 2, 3);
    expect(appends.readForFollower(leader, 0, 1 << 20)).toHaveLength(2);
    expect(appends.readForFollower(leader, 0, 1 << 20)![1]).toBe(second);
    const after = append(appends, leader, 7, 8); // offsets 4-6 written by something this did not see
    expect(appends.readForFollower(leader, 0, 1 << 20)).toBeNull();
    expect(appends.readForFollower(leader, 7, 1 << 20)).toEqual([after]);
    expect(appends.bytes).toBe(after.length);
  });

  it('keeps no batch whose header does not carry the offsets the append reported', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 0);
    appends.remember(leader, info(5, 6), batchOf(0, 1));
    expect(appends.size).toBe(0);
  });
});

describe('LastAppends, leaderships and bounds', () => {
  it('serves only the leadership that appended, and forgets the run at a batch too large', () => {
    const small = batchOf(0, 0).length;
    const appends = new LastAppends(small * 3, 1 << 20);
    const before = leaderOf('t-0', 5);
    append(appends, before, 0, 4, 1);
    const after = leaderOf('t-0', 5);
    expect(appends.read(after, 0, 1024, true)).toBeNull();
    expect(appends.readForFollower(after, 0, 1024)).toBeNull();
    expect(appends.size).toBe(0);
    append(appends, after, 5, 9, 1);
    append(appends, after, 10, 10, 4 * small);
    expect(appends.size).toBe(0);
    expect(appends.bytes).toBe(0);
  });

  it('holds at most its byte bounds, by the memory each batch keeps alive, evicting the oldest first', () => {
    const size = batchOf(0, 0, 3000).length;
    const appends = new LastAppends(4 * size, 3 * size + 10, 2 * size);
    const one = leaderOf('p-0');
    for (let offset = 0; offset < 3; offset++) append(appends, one, offset, offset, 3000);
    expect(appends.bytes).toBe(2 * size); // the partition's bound: offset 0 evicted
    expect(appends.readForFollower(one, 0, 1 << 20)).toBeNull();
    expect(appends.readForFollower(one, 1, 1 << 20)).toHaveLength(2);
    for (let i = 0; i < 3; i++) append(appends, leaderOf(`t-${i}`), 0, 0, 3000);
    expect(appends.bytes).toBeLessThanOrEqual(3 * size + 10);
    expect(appends.readForFollower(one, 1, 1 << 20)).toBeNull(); // the least recently appended went first
    const request = Buffer.alloc(3 * size);
    const slice = request.subarray(0, size);
    batchOf(0, 0, 3000).copy(slice);
    appends.remember(leaderOf('k-0'), info(0, 0), slice);
    expect(appends.size).toBe(3); // the whole request is more than a partition may hold: not kept
  });

  it('evicts the partition appended least recently first: one appended again goes after the others', () => {
    const size = batchOf(0, 0, 3000).length;
    const appends = new LastAppends(4 * size, 2 * size + 10, 2 * size);
    const a = leaderOf('a-0');
    const b = leaderOf('b-0');
    append(appends, a, 0, 0, 3000);
    append(appends, b, 0, 0, 3000);
    append(appends, a, 1, 1, 3000); // a is now the most recent: b goes
    expect(appends.readForFollower(b, 0, 1 << 20)).toBeNull();
    expect(appends.readForFollower(a, 0, 1 << 20)).toHaveLength(2);
    append(appends, a, 2, 2, 3000); // still the most recent; its own bound drops offset 0
    append(appends, b, 0, 0, 3000); // b the most recent: a's oldest goes
    expect(appends.readForFollower(a, 1, 1 << 20)).toBeNull();
    expect(appends.readForFollower(a, 2, 1 << 20)).toHaveLength(1);
    expect(appends.readForFollower(b, 0, 1 << 20)).toHaveLength(1);
  });
});
