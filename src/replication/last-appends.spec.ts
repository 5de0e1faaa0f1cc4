import { describe, expect, it } from 'vitest';
import type { AppendInfo } from '../partition-log/append-queue.js';
import type { LeaderPartition } from './leader-partition.js';
import { LastAppends } from './last-appends.js';

/** A leadership as LastAppends looks at it: its key, high watermark and log start. */
function leaderOf(key: string, highWatermark = 0, logStartOffset = 0): LeaderPartition {
  return { key, log: { logStartOffset }, state: { highWatermark } } as unknown as LeaderPartition;
}

function info(firstOffset: number, lastOffset: number, duplicate = false): AppendInfo {
  const recordCount = lastOffset - firstOffset + 1;
  return { firstOffset, lastOffset, logAppendTimeMs: -1, maxTimestampMs: 0, recordCount, duplicate };
}

/** A batch of `bytes` in its own ArrayBuffer (Buffer.alloc does not pool). */
function batchOf(bytes: number): Buffer {
  return Buffer.alloc(bytes, 7);
}

describe('LastAppends', () => {
  it('answers a read at the last append once the high watermark is at its end, with the batch itself', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 10);
    const batch = batchOf(100);
    appends.remember(leader, info(10, 14), batch);
    expect(appends.read(leader, 10, 1024, true)).toBeNull(); // not committed yet
    (leader.state as { highWatermark: number }).highWatermark = 15;
    const read = appends.read(leader, 10, 1024, true)!;
    expect(read.batches).toBe(batch);
    expect(read).toMatchObject({ nextOffset: 15, highWatermark: 15, logStartOffset: 0 });
    expect(appends.read(leader, 11, 1024, true)).toBeNull(); // inside the batch: the log answers
    expect(appends.read(leader, 15, 1024, true)).toBeNull();
  });

  it('reads the file when the log holds more below the HW, retention removed the batch, or maxBytes refuses it', () => {
    const appends = new LastAppends();
    const leader = leaderOf('t-0', 5);
    appends.remember(leader, info(0, 4), batchOf(100));
    (leader.state as { highWatermark: number }).highWatermark = 8; // a later append this does not hold
    expect(appends.read(leader, 0, 1024, true)).toBeNull();
    (leader.state as { highWatermark: number }).highWatermark = 5;
    (leader.log as { logStartOffset: number }).logStartOffset = 5;
    expect(appends.read(leader, 0, 1024, true)).toBeNull();
    (leader.log as { logStartOffset: number }).logStartOffset = 0;
    expect(appends.read(leader, 0, 50, false)).toBeNull();
    expect(appends.read(leader, 0, 50, true)).not.toBeNull(); // a first batch of any size
  });

  it('serves only the leadership that appended, and forgets the batch at a duplicate or a batch too large', () => {
    const appends = new LastAppends(1000, 10_000);
    const before = leaderOf('t-0', 5);
    appends.remember(before, info(0, 4), batchOf(100));
    const after = leaderOf('t-0', 5);
    expect(appends.read(after, 0, 1024, true)).toBeNull();
    expect(appends.size).toBe(0);
    appends.remember(after, info(5, 9), batchOf(100));
    appends.remember(after, info(0, 4, true), batchOf(100));
    expect(appends.size).toBe(0);
    appends.remember(after, info(5, 9), batchOf(100));
    appends.remember(after, info(10, 19), batchOf(2000));
    expect(appends.size).toBe(0);
    expect(appends.bytes).toBe(0);
  });

  it('holds at most its byte bound, counted by the memory each batch keeps alive, evicting the oldest', () => {
    const appends = new LastAppends(4096, 10_000);
    for (let i = 0; i < 10; i++) appends.remember(leaderOf(`t-${i}`, 1), info(0, 0), batchOf(3000));
    expect(appends.bytes).toBeLessThanOrEqual(10_000);
    expect(appends.size).toBe(3);
    expect(appends.read(leaderOf('t-0', 1), 0, 4096, true)).toBeNull();
    const request = Buffer.alloc(8000);
    appends.remember(leaderOf('k-0', 1), info(0, 0), request.subarray(0, 100));
    expect(appends.bytes).toBeGreaterThanOrEqual(8000);
    expect(appends.bytes).toBeLessThanOrEqual(10_000);
  });
});
