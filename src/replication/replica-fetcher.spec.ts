import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchOfValues, harness, makeTempDir, readAll, removeDir } from '../../test/support/log-fixtures.js';
import { BrookError, FENCED_LEADER_EPOCH_CODE } from '../common/brook-error.js';
import type { PartitionLog } from '../partition-log/partition-log.js';
import { assignOffsetAndEpoch } from '../partition-log/record-batch.js';
import { divergingEpoch } from './fetch-divergence.js';
import type { ReplicaFetchAnswer, ReplicaFetchRequest } from './replica-fetch-protocol.js';
import { ReplicaFetcher } from './replica-fetcher.js';

const SETTINGS = { brokerId: 2, brokerEpoch: 20, maxBytes: 200, waitMs: 0, backoffMs: 5 };

let dirs: string[] = [];
let logs: PartitionLog[] = [];

beforeEach(() => {
  dirs = [];
  logs = [];
});

afterEach(async () => {
  for (const log of logs) await log.close().catch(() => undefined);
  for (const dir of dirs) await removeDir(dir);
});

async function openLog(): Promise<PartitionLog> {
  const dir = await makeTempDir();
  dirs.push(dir);
  const log = await harness(dir).open();
  logs.push(log);
  return log;
}

/** The leader's side of a fetch as the replica manager answers it, over a real log (no ISR bookkeeping). */
function leaderAnswering(leader: PartitionLog, epoch: number, highWatermark: () => number) {
  const requests: ReplicaFetchRequest[] = [];
  const fetch = async (_leaderId: number, request: ReplicaFetchRequest): Promise<ReplicaFetchAnswer> => {
    requests.push(request);
    const base = { leaderEpoch: epoch, highWatermark: highWatermark(), logStartOffset: leader.logStartOffset };
    const diverging = divergingEpoch(request.fetchOffset, request.lastFetchedEpoch, (e) => leader.endOffsetForEpoch(e));
    if (diverging !== null || request.fetchOffset < leader.logStartOffset) {
      return { ...base, diverging, batches: Buffer.alloc(0) };
    }
    if (request.fetchOffset >= leader.logEndOffset) {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the long poll, cut short
      return { ...base, diverging: null, batches: Buffer.alloc(0) };
    }
    const read = await leader.read(request.fetchOffset, { maxBytes: request.maxBytes, minOneBatch: true });
    return { ...base, diverging: null, batches: read.batches };
  };
  return { fetch, requests };
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function append(log: PartitionLog, prefix: string, batches: number, epoch: number): Promise<void> {
  for (let i = 0; i < batches; i++) await log.appendAsLeader(batchOfValues(`${prefix}${i}-`, 2), epoch);
}

function startFetcher(follower: PartitionLog, leader: ReturnType<typeof leaderAnswering>, epoch: number) {
  const highWatermarks: number[] = [];
  const errors: Error[] = [];
  const fetcher = new ReplicaFetcher(1, epoch, follower, SETTINGS, {
    fetch: (leaderId, request) => leader.fetch(leaderId, request),
    onHighWatermark: (hw) => highWatermarks.push(hw),
    onFenced: () => undefined,
    onError: (error) => errors.push(error),
  });
  return { fetcher, highWatermarks, errors };
}

describe('ReplicaFetcher', () => {
  it('copies the leader log as it is (offsets, epochs, bytes) and reports the HW capped at its own end', async () => {
    const leader = await openLog();
    const follower = await openLog();
    await append(leader, 'a', 5, 0);
    await leader.assignEpochAtEnd(3);
    await append(leader, 'b', 5, 3);
    const answering = leaderAnswering(leader, 3, () => 14);
    const { fetcher, highWatermarks } = startFetcher(follower, answering, 3);
    await waitFor('caught up', () => follower.logEndOffset === leader.logEndOffset);
    await fetcher.stop();
    expect(follower.epochs.all()).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 3, startOffset: 10 },
    ]);
    const leaderBytes = (await leader.read(0, { maxBytes: 1 << 20 })).batches;
    const followerBytes = (await follower.read(0, { maxBytes: 1 << 20 })).batches;
    expect(followerBytes.equals(leaderBytes)).toBe(true);
    // several fetches (200 bytes each), each reporting min(leader HW 14, own end)
    expect(highWatermarks.length).toBeGreaterThan(2);
    expect(Math.max(...highWatermarks)).toBe(14);
    expect(answering.requests.every((request) => request.replicaId === 2 && request.leaderEpoch === 3)).toBe(true);
  });

  it('truncates a tail the leader never had to the diverging epoch end, never below it, then catches up', async () => {
    const leader = await openLog();
    const follower = await openLog();
    await append(leader, 'common', 2, 1); // offsets 0..3 in epoch 1, on both
    await append(follower, 'common', 2, 1);
    await append(follower, 'lost', 3, 2); // the follower led briefly in epoch 2: 4..9 that nobody else has
    await leader.assignEpochAtEnd(3);
    await append(leader, 'new', 2, 3); // the new leader's 4..7 in epoch 3
    const answering = leaderAnswering(leader, 3, () => 8);
    const { fetcher } = startFetcher(follower, answering, 3);
    await waitFor('caught up', () => follower.logEndOffset === 8 && follower.epochs.latestEpoch() === 3);
    await fetcher.stop();
    const values = (await readAll(follower)).map((record) => record.value?.toString());
    expect(values).toEqual((await readAll(leader)).map((record) => record.value?.toString()));
    expect(values.some((value) => value?.startsWith('lost'))).toBe(false);
    // the first fetch carried the follower's end and epoch; the answer made it truncate to 4, not to 0
    expect(answering.requests[0]).toMatchObject({ fetchOffset: 10, lastFetchedEpoch: 2 });
    expect(answering.requests[1]).toMatchObject({ fetchOffset: 4, lastFetchedEpoch: 1 });
  });

  it('starts over at the leader log start when it is behind it', async () => {
    const leader = await openLog();
    const follower = await openLog();
    await leader.truncateFullyAndStartAt(100);
    const batch = batchOfValues('x', 2);
    assignOffsetAndEpoch(batch, 100, 4);
    await leader.appendAsFollower(batch);
    const answering = leaderAnswering(leader, 4, () => 102);
    const { fetcher } = startFetcher(follower, answering, 4);
    await waitFor('caught up', () => follower.logEndOffset === 102);
    await fetcher.stop();
    expect(follower.logStartOffset).toBe(100);
    expect((await readAll(follower)).map((record) => record.offset)).toEqual([100, 101]);
  });

  it('stop() returns after the last append, and nothing is written after it', async () => {
    const leader = await openLog();
    const follower = await openLog();
    await append(leader, 'a', 20, 0);
    const answering = leaderAnswering(leader, 0, () => 40);
    const { fetcher } = startFetcher(follower, answering, 0);
    await waitFor('started', () => follower.logEndOffset > 0);
    await fetcher.stop();
    const stoppedAt = follower.logEndOffset;
    await append(leader, 'b', 5, 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(follower.logEndOffset).toBe(stoppedAt);
    await follower.truncateTo(0); // no append is pending: truncation is allowed
    expect(follower.logEndOffset).toBe(0);
  });

  it('backs off and retries after a failed fetch; a fenced answer asks for fresh metadata', async () => {
    const follower = await openLog();
    let calls = 0;
    let fenced = 0;
    const fetcher = new ReplicaFetcher(1, 0, follower, SETTINGS, {
      fetch: () => {
        calls++;
        return Promise.reject(
          calls % 2 === 0 ? new BrookError(409, FENCED_LEADER_EPOCH_CODE, 'fenced') : new Error('unreachable'),
        );
      },
      onHighWatermark: () => undefined,
      onFenced: () => fenced++,
      onError: () => undefined,
    });
    await waitFor('retried', () => calls >= 4);
    await fetcher.stop();
    expect(fenced).toBeGreaterThanOrEqual(2);
    expect(follower.logEndOffset).toBe(0);
  });

  it('releases the buffer of an answer once its append is written, never after a failed append, and says when it stops', async () => {
    const leader = await openLog();
    const follower = await openLog();
    await append(leader, 'a', 2, 1);
    const answering = leaderAnswering(leader, 1, () => leader.logEndOffset);
    const released: number[] = [];
    const answered: number[] = [];
    let corruptNext = false;
    let stopped = 0;
    const fetcher = new ReplicaFetcher(1, 1, follower, SETTINGS, {
      fetch: async (leaderId, request) => {
        const answer = await answering.fetch(leaderId, request);
        const batches = Buffer.from(answer.batches);
        if (corruptNext && batches.length > 0) {
          corruptNext = false;
          batches[batches.length - 1] ^= 0xff; // a record byte: the CRC check refuses the batch
        }
        if (batches.length === 0) return answer;
        answered.push(request.fetchOffset);
        return { ...answer, batches, release: () => released.push(request.fetchOffset) };
      },
      onHighWatermark: () => undefined,
      onFenced: () => undefined,
      onError: () => undefined,
      onStopped: () => stopped++,
    });
    await waitFor('caught up', () => follower.logEndOffset === leader.logEndOffset);
    const releasedBefore = released.length;
    expect(released).toContain(0);
    corruptNext = true;
    const failedAt = follower.logEndOffset;
    await append(leader, 'b', 1, 1);
    await waitFor('caught up again', () => follower.logEndOffset === leader.logEndOffset);
    expect(answered.filter((offset) => offset === failedAt)).toHaveLength(2); // refused, then again
    expect(released.filter((offset) => offset === failedAt)).toHaveLength(1); // the retry's, not the refused one's
    expect(released.length).toBe(releasedBefore + 1);
    expect(stopped).toBe(0);
    await fetcher.stop();
    expect(stopped).toBe(1);
  });
});
