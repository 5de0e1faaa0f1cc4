import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeaderEpochCache } from '../partition-log/leader-epoch-cache.js';
import { divergingEpoch, truncationOffset } from './fetch-divergence.js';

/**
 * A log as the list of the epochs of its records (record i has epoch log[i]); `leading` is the epoch a leader
 * assigned at its log end when it took over (Kafka records it before the leader appends anything).
 */
function cacheOf(
  log: number[],
  leading?: { epoch: number; startOffset: number },
): { endOffsetFor: (epoch: number) => { epoch: number; endOffset: number }; leo: number } {
  const cache = new LeaderEpochCache();
  log.forEach((epoch, offset) => {
    if (leading !== undefined && offset === leading.startOffset) cache.assign(leading.epoch, offset);
    cache.assign(epoch, offset);
  });
  if (leading !== undefined && leading.startOffset === log.length) cache.assign(leading.epoch, log.length);
  return { endOffsetFor: (epoch) => cache.endOffsetFor(epoch, log.length), leo: log.length };
}

describe('divergingEpoch and truncationOffset', () => {
  it("KIP-101's example: a follower with records of an epoch the leader never had truncates them", () => {
    // leader: epoch 1 for 0..1, epoch 2 from 2; follower wrote offset 2 in epoch 1 before the leader changed
    const leader = cacheOf([1, 1, 2, 2]);
    const follower = cacheOf([1, 1, 1]);
    const diverging = divergingEpoch(3, 1, leader.endOffsetFor);
    expect(diverging).toEqual({ epoch: 1, endOffset: 2 });
    expect(truncationOffset(diverging!, follower.endOffsetFor, follower.leo)).toBe(2);
  });

  it('a follower that is a prefix of the leader does not diverge', () => {
    const leader = cacheOf([0, 0, 1, 1, 3]);
    expect(divergingEpoch(4, 1, leader.endOffsetFor)).toBeNull();
    expect(divergingEpoch(2, 0, leader.endOffsetFor)).toBeNull();
    expect(divergingEpoch(0, -1, leader.endOffsetFor)).toBeNull();
  });

  it('a follower whose last epoch the leader does not know goes back to the largest epoch below it', () => {
    const leader = cacheOf([0, 0, 2, 2]);
    const follower = cacheOf([0, 0, 0, 1, 1]);
    const diverging = divergingEpoch(5, 1, leader.endOffsetFor);
    expect(diverging).toEqual({ epoch: 0, endOffset: 2 });
    expect(truncationOffset(diverging!, follower.endOffsetFor, follower.leo)).toBe(2);
  });

  it('after truncating, the follower is a prefix of the leader (property over random histories)', () => {
    // Histories: a common prefix, then each side appends under its own epochs (the follower's above the prefix's,
    // the leader's above all), as happens when a follower led briefly and the new leader took a higher epoch.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 10 }),
        (prefixSteps, followerSteps, leaderSteps) => {
          const prefix: number[] = [];
          let epoch = 0;
          for (const step of prefixSteps) prefix.push((epoch += step % 2));
          const followerLog = [...prefix];
          let followerEpoch = epoch + 1;
          for (const step of followerSteps) followerLog.push((followerEpoch += step % 2));
          const leaderLog = [...prefix];
          const takeOverEpoch = followerEpoch + 1;
          let leaderEpoch = takeOverEpoch;
          for (const step of leaderSteps) leaderLog.push((leaderEpoch += step % 2));
          const leader = cacheOf(leaderLog, { epoch: takeOverEpoch, startOffset: prefix.length });
          let follower = followerLog;
          for (let round = 0; round < 5; round++) {
            const cache = cacheOf(follower);
            const lastEpoch = follower.length === 0 ? -1 : follower[follower.length - 1];
            const diverging = divergingEpoch(follower.length, lastEpoch, leader.endOffsetFor);
            if (diverging === null) break;
            follower = follower.slice(0, truncationOffset(diverging, cache.endOffsetFor, cache.leo));
          }
          // a prefix of the leader's log, and nothing of the common prefix was thrown away
          expect(follower).toEqual(leaderLog.slice(0, follower.length));
          expect(follower.length).toBeGreaterThanOrEqual(prefix.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
