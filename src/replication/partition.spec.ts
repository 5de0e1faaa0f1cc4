import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrookError, errors } from '../common/brook-error.js';
import { ManualClock } from '../common/clock.js';
import { FileHandlePool } from '../partition-log/file-handle-pool.js';
import { logConfig } from '../partition-log/log-config.js';
import { PartitionLog } from '../partition-log/partition-log.js';
import { encodeBatch } from '../partition-log/record-batch.js';
import type { PartitionState } from '../topic/cluster-metadata.js';
import type { LeaderPartition } from './leader-partition.js';
import type { PartitionEffects } from './partition-effects.js';
import { checkTransition, ROLE_TRANSITIONS, type Role } from './partition-role.js';
import { Partition } from './partition.js';
import { WaiterBudget } from './partition-waiters.js';
import type { ReplicaFetchRequest } from './replica-fetch-protocol.js';
import { retainedBytesEach } from '../../test/support/retained-bytes.js';

const SELF = 1;
const SELF_EPOCH = 7;
const FOLLOWER = 2;
const FOLLOWER_EPOCH = 3;
const ACKS_TIMEOUT_MS = 1_000;
const LAG_MS = 500;

let dir: string;
let pool: FileHandlePool;
let clock: ManualClock;
let log: PartitionLog;
let budget: WaiterBudget;
let partition: Partition;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'brook-partition-'));
  pool = new FileHandlePool();
  clock = new ManualClock();
  log = await PartitionLog.open(dir, logConfig({}), { clock, pool });
  budget = new WaiterBudget(100);
  partition = newPartition();
});

afterEach(async () => {
  await pool.closeAll();
  await rm(dir, { recursive: true, force: true });
});

function newPartition(seed?: number): Partition {
  return new Partition(
    'orders',
    0,
    log,
    { incarnation: { brokerId: SELF, brokerEpoch: SELF_EPOCH }, acksAllTimeoutMs: ACKS_TIMEOUT_MS },
    clock,
    budget,
    { hostedLog: () => log, highWatermarkOf: () => partition.highWatermark },
    seed,
  );
}

function ledState(leaderEpoch: number, isr = [SELF, FOLLOWER]): PartitionState {
  const isrBrokerEpochs: Record<string, number> = { [SELF]: SELF_EPOCH, [FOLLOWER]: FOLLOWER_EPOCH };
  return { leader: SELF, leaderEpoch, isr, isrBrokerEpochs, controllerEpoch: 1 };
}

async function lead(leaderEpoch = 1, isr = [SELF, FOLLOWER], version = 1): Promise<LeaderPartition> {
  run(await partition.makeLeader({ state: ledState(leaderEpoch, isr), replicas: [SELF, FOLLOWER], version }));
  return partition.leader!;
}

/** What the replica manager does with a partition's effects, for the waiters the Partition owns. */
function run(effects: PartitionEffects): PartitionEffects {
  if (effects.released) partition.acks.notify(Number.POSITIVE_INFINITY);
  if (effects.highWatermark !== null) partition.acks.notify(effects.highWatermark);
  return effects;
}

async function appendRecords(leader: LeaderPartition, count: number): Promise<number> {
  const records = Array.from({ length: count }, (_, i) => ({ key: null, value: Buffer.from(`v${i}`), timestamp: 1 }));
  const info = await partition.append(leader, encodeBatch(records), {});
  run(partition.leaderAppended(leader));
  return info.lastOffset + 1;
}

function fetchRequest(fetchOffset: number, overrides: Partial<ReplicaFetchRequest> = {}): ReplicaFetchRequest {
  return {
    replicaId: FOLLOWER,
    brokerEpoch: FOLLOWER_EPOCH,
    fetchOffset,
    lastFetchedEpoch: -1,
    leaderEpoch: partition.leader!.epoch,
    maxBytes: 1 << 20,
    waitMs: 0,
    ...overrides,
  };
}

function followerFetch(fetchOffset: number, overrides: Partial<ReplicaFetchRequest> = {}): PartitionEffects {
  const step = partition.followerFetch(partition.leader!, fetchRequest(fetchOffset, overrides));
  if (step.kind !== 'read') throw new Error('expected a read');
  return run(step.effects);
}

function codeOf(action: () => unknown): number | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof BrookError ? error.errorCode : -1;
  }
  return undefined;
}

/** Settles pending promise reactions (the log's appends and reads are real I/O). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the role transition table', () => {
  const roles: Role[] = ['none', 'follower', 'leader'];
  const cases = roles.flatMap((from) => roles.map((to) => [from, to] as const));

  it.each(cases)('%s -> %s follows its epoch rule', (from, to) => {
    const rule = ROLE_TRANSITIONS[from][to];
    expect(checkTransition(from, 5, to, 6).allowed).toBe(true); // a newer epoch is always allowed
    expect(checkTransition(from, 5, to, 5).allowed).toBe(rule !== 'newer');
    const older = checkTransition(from, 5, to, 4);
    expect(older.allowed).toBe(rule === 'any');
    if (!older.allowed) expect(older.reason).toMatch(new RegExp(`^${from} in leader epoch 5 becomes ${to} only in`));
  });

  it('lets none take any role in any epoch, and refuses leaving or taking a leadership in the same epoch', () => {
    expect(ROLE_TRANSITIONS.none).toEqual({ none: 'any', follower: 'any', leader: 'any' });
    expect(checkTransition('leader', 3, 'follower', 3)).toEqual({
      allowed: false,
      reason: 'leader in leader epoch 3 becomes follower only in a newer epoch, not in epoch 3',
    });
    expect(checkTransition('follower', 3, 'leader', 3).allowed).toBe(false);
  });
});

describe('Partition roles', () => {
  it('none -> follower -> follower: a new fetcher only for a new leader or epoch; an older epoch is refused', () => {
    expect(partition.role).toBe('none');
    expect(partition.makeFollower(2, 4).startFetcher).toBe(true);
    expect(partition.makeFollower(2, 4).startFetcher).toBe(false);
    expect(partition.makeFollower(3, 5).startFetcher).toBe(true);
    expect(partition.followedLeader).toEqual({ leaderId: 3, leaderEpoch: 5 });
    expect(partition.check('follower', 4).allowed).toBe(false);
    expect(() => partition.makeFollower(2, 4)).toThrow(/refused transition/);
    expect(partition.followedLeader).toEqual({ leaderId: 3, leaderEpoch: 5 });
  });

  it('none -> leader assigns the epoch at the log end and starts from the seeded HW, capped at the log end', async () => {
    partition = newPartition(1_000);
    const leader = await lead(1);
    expect(partition.role).toBe('leader');
    expect(leader.epoch).toBe(1);
    expect(log.epochs.latestEpoch()).toBe(1);
    expect(partition.highWatermark).toBe(0);
    expect(leader.state.isr).toEqual([SELF, FOLLOWER]);
  });

  it('follower -> leader needs a newer epoch; leader -> follower too, keeping the leader HW', async () => {
    partition.makeFollower(2, 1);
    expect(partition.check('leader', 1).allowed).toBe(false);
    const leader = await lead(2);
    expect(partition.followedLeader).toBeNull();
    const end = await appendRecords(leader, 3);
    run(followerFetch(end));
    expect(partition.highWatermark).toBe(3);
    expect(partition.check('follower', 2).allowed).toBe(false);
    const { effects, startFetcher } = partition.makeFollower(2, 3);
    expect(effects.released).toBe(true);
    expect(startFetcher).toBe(true);
    expect(partition.leader).toBeNull();
    expect(partition.highWatermark).toBe(3);
    run(partition.followerLearnt(2));
    expect(partition.highWatermark).toBe(2);
  });

  it('leader -> leader in the same epoch updates the ISR (keeping the HW); a newer epoch rebuilds it', async () => {
    const first = await lead(1, [SELF, FOLLOWER], 1);
    const end = await appendRecords(first, 2);
    run(followerFetch(end));
    expect(partition.highWatermark).toBe(2);
    const shrunk = await partition.makeLeader({ state: ledState(1, [SELF]), replicas: [SELF, FOLLOWER], version: 2 });
    expect(partition.leader).toBe(first); // the same leadership, with a rebuilt state
    expect(first.state.isr).toEqual([SELF]);
    expect(shrunk.highWatermark).toBe(2);
    const again = await lead(2, [SELF], 3);
    expect(again).not.toBe(first);
    expect(again.state.epochStartOffset).toBe(2);
    expect(partition.check('leader', 1).allowed).toBe(false);
  });

  it('leader -> none releases every waiter and keeps the HW; none refuses nothing', async () => {
    const leader = await lead(1);
    const end = await appendRecords(leader, 1);
    const waiting = partition.untilReleased(leader, 10, 60_000);
    const effects = run(partition.makeNone());
    await waiting;
    expect(effects.released).toBe(true);
    expect(partition.role).toBe('none');
    expect(partition.highWatermark).toBe(0);
    expect(end).toBe(1);
    for (const to of ['none', 'follower', 'leader'] as const) expect(partition.check(to, 0).allowed).toBe(true);
  });

  it('a follower that goes away forgets the HW it learnt when told to', () => {
    partition.makeFollower(2, 1);
    partition.followerLearnt(5);
    expect(partition.makeNone(true).released).toBe(true);
    expect(partition.highWatermark).toBeUndefined();
  });
});

describe('Partition as leader', () => {
  it('acks=all waits until the follower fetch past the batch advances the HW', async () => {
    const leader = await lead(1);
    const end = await appendRecords(leader, 2);
    let committed = false;
    const waiting = partition.untilCommitted(leader, end, 2).then(() => (committed = true));
    await settle();
    expect(committed).toBe(false);
    const effects = followerFetch(end);
    expect(effects.highWatermark).toBe(2);
    await waiting;
    expect(committed).toBe(true);
  });

  it('acks=all times out on the clock with an unknown outcome', async () => {
    const leader = await lead(1);
    const end = await appendRecords(leader, 1);
    const waiting = partition.untilCommitted(leader, end, 2);
    const outcome = waiting.catch((error: BrookError) => error);
    await settle();
    clock.advance(ACKS_TIMEOUT_MS);
    const error = await outcome;
    expect(error).toBeInstanceOf(BrookError);
    expect((error as BrookError).errorCode).toBe(errors.outcomeUnknown('').errorCode);
    expect(budget.parked).toBe(0);
  });

  it('refuses acks=all below min.insync.replicas before appending, and when too many wait', async () => {
    const leader = await lead(1, [SELF]);
    expect(codeOf(() => partition.admitAcksAll(leader, 2, 10))).toBe(errors.notEnoughReplicas('').errorCode);
    expect(codeOf(() => partition.admitAcksAll(leader, 1, 10))).toBeUndefined();
    const parked = partition.untilReleased(leader, 10, 60_000);
    expect(codeOf(() => partition.admitAcksAll(leader, 1, 1))).toBe(errors.tooManyRequests('').errorCode);
    run(partition.makeNone());
    await parked;
  });

  it('fails a committed acks=all whose ISR shrank below min.insync.replicas meanwhile', async () => {
    const leader = await lead(1);
    const end = await appendRecords(leader, 1);
    run(await partition.makeLeader({ state: ledState(1, [SELF]), replicas: [SELF, FOLLOWER], version: 2 }));
    run(followerFetch(end));
    const error = await partition.untilCommitted(leader, end, 2).catch((failure: BrookError) => failure);
    expect((error as BrookError).errorCode).toBe(errors.notEnoughReplicasAfterAppend('').errorCode);
  });

  it('fences follower fetches by leader epoch and by broker epoch', async () => {
    await lead(2);
    const leader = partition.leader!;
    const fetch = (overrides: Partial<ReplicaFetchRequest>) => () =>
      partition.followerFetch(leader, fetchRequest(0, overrides));
    expect(codeOf(fetch({ leaderEpoch: 1 }))).toBe(errors.fencedLeaderEpoch('').errorCode);
    expect(codeOf(fetch({ leaderEpoch: 3 }))).toBe(errors.unknownLeaderEpoch('').errorCode);
    expect(codeOf(fetch({ replicaId: 9 }))).toBe(errors.invalidRequest('').errorCode);
    expect(codeOf(fetch({ replicaId: SELF }))).toBe(errors.invalidRequest('').errorCode);
    followerFetch(0, { brokerEpoch: FOLLOWER_EPOCH + 1 });
    expect(codeOf(fetch({ brokerEpoch: FOLLOWER_EPOCH }))).toBe(errors.staleBrokerEpoch('').errorCode);
  });

  it("answers a diverging fetch at once with where the leader ends the follower's epoch", async () => {
    const leader = await lead(2);
    await appendRecords(leader, 2);
    const step = partition.followerFetch(leader, fetchRequest(5, { lastFetchedEpoch: 1 }));
    expect(step.kind).toBe('answer');
    if (step.kind === 'answer') expect(step.answer.diverging).toEqual(log.endOffsetForEpoch(1));
    expect(log.endOffsetForEpoch(1).endOffset).toBeLessThan(5);
  });

  it('proposes an ISR expansion for a caught-up follower, which counts once written', async () => {
    const leader = await lead(1, [SELF]);
    const end = await appendRecords(leader, 1);
    expect(partition.highWatermark).toBe(1); // alone in the ISR
    const effects = followerFetch(end);
    const change = effects.isrChange!;
    expect(change).toEqual({ kind: 'expand', replica: FOLLOWER, brokerEpoch: FOLLOWER_EPOCH, isr: [SELF, FOLLOWER] });
    expect(partition.isrWritten(leader, change, { ok: true, version: 5 }).outcome).toBe('committed');
    expect(leader.state.isr).toEqual([SELF, FOLLOWER]);
    expect(leader.stateVersion).toBe(5);
    expect(partition.isrWritten(leader, change, { ok: true, version: 6 }).outcome).toBe('stale');
  });

  it('proposes shrinking the ISR once a follower lags for the lag time; a refused write drops the change', async () => {
    const leader = await lead(1);
    expect(partition.proposeShrink(LAG_MS).isrChange).toBeNull();
    clock.advance(LAG_MS + 1);
    const change = partition.proposeShrink(LAG_MS).isrChange!;
    expect(change).toEqual({ kind: 'shrink', isr: [SELF] });
    expect(partition.proposeShrink(LAG_MS).isrChange).toBeNull(); // one change in flight
    expect(partition.isrWritten(leader, change, { ok: false, reason: 'moved' }).outcome).toBe('refused');
    expect(leader.state.pendingChange).toBeNull();
    expect(leader.state.isr).toEqual([SELF, FOLLOWER]);
  });

  it('an acks=all request whose leadership moved is committed once the follower HW passes its batch', async () => {
    const leader = await lead(1);
    const end = await appendRecords(leader, 1);
    const waiting = partition.untilCommitted(leader, end, 2);
    await settle();
    run(partition.makeFollower(2, 2).effects);
    run(partition.followerLearnt(end));
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('the footprint of an idle partition (a broker hosts thousands)', () => {
  it('keeps no acks=all machinery and no waiter set until a request needs them', () => {
    const settings = { incarnation: { brokerId: SELF, brokerEpoch: SELF_EPOCH }, acksAllTimeoutMs: ACKS_TIMEOUT_MS };
    const ports = { hostedLog: () => log, highWatermarkOf: () => 0 };
    const bytes = retainedBytesEach(30_000, (i) => new Partition('orders', i, log, settings, clock, budget, ports));
    // the Partition, its key and its OffsetWaiters; with the acks=all wait (4 closures) and a waiter Set it was ~800
    expect(bytes).toBeLessThan(450);
  });
});
