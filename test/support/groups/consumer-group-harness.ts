// Test support for the consumer group's specs (src/group-coordinator/consumer-group*.spec.ts): the state machine
// driven by a ManualClock, a fresh group before each test (`clock` and `group` are live bindings that
// `freshGroup` and `replaceGroup` set); the coordinator's tick computes a generation, the test plays the
// coordinator's write by replaying that record ('live'), or reports the write failed.
import { expect } from 'vitest';
import { BrookError } from '../../../src/common/brook-error.js';
import { ManualClock } from '../../../src/common/clock.js';
import type { TopicPartition } from '../../../src/group-coordinator/assignors/assignor.js';
import { ConsumerGroup, type GroupSettings, type JoinRequest } from '../../../src/group-coordinator/consumer-group.js';
import type { GroupMetadataValue, InstanceValue, Subscription } from '../../../src/group-coordinator/group-records.js';

export const GROUP_ID = 'g';
export const INITIAL_DELAY_MS = 3000;
export const SESSION_MS = 10_000;
export const REBALANCE_MS = 5000;
export const TOPICS: ReadonlyMap<string, number> = new Map([
  ['orders', 6],
  ['payments', 3],
]);

export let clock: ManualClock;
export let group: ConsumerGroup;

function newGroup(settings: Partial<GroupSettings> = {}): ConsumerGroup {
  return new ConsumerGroup(
    GROUP_ID,
    {
      initialRebalanceDelayMs: INITIAL_DELAY_MS,
      defaultAssignor: 'range',
      maxSize: 10,
      minSessionTimeoutMs: 1,
      maxSessionTimeoutMs: 1_800_000,
      ...settings,
    },
    clock,
  );
}

/** A new clock and a new group with the default settings (each spec's beforeEach). */
export function freshGroup(): void {
  clock = new ManualClock();
  group = newGroup();
}

/** The test's group replaced by a new one on the same clock, with `settings` over the defaults. */
export function replaceGroup(settings: Partial<GroupSettings> = {}): void {
  group = newGroup(settings);
}

export function request(memberId: string, overrides: Partial<JoinRequest> = {}): JoinRequest {
  return {
    memberId,
    groupInstanceId: null,
    clientId: 'client',
    kind: 'ws',
    subscription: { topics: ['orders'] },
    sessionTimeoutMs: SESSION_MS,
    rebalanceTimeoutMs: REBALANCE_MS,
    ...overrides,
  };
}

/** Ticks, expects a generation to be due, and makes its write durable. */
export function completeRebalance(topics: ReadonlyMap<string, number> = TOPICS): GroupMetadataValue {
  const { write } = group.tick(topics);
  expect(write).not.toBeNull();
  group.replay({ kind: 'group', group: GROUP_ID, value: write }, 'live');
  return write!;
}

/** Joins the members and runs the initial rebalance to Stable. */
export function stableGroup(...members: JoinRequest[]): GroupMetadataValue {
  for (const member of members) group.join(member);
  clock.advance(INITIAL_DELAY_MS);
  const write = completeRebalance();
  expect(group.state).toBe('Stable');
  return write;
}

export const render = ({ topic, partition }: TopicPartition): string => `${topic}-${partition}`;

export function partitionsOf(memberId: string): string[] {
  return (group.assignmentOf(memberId)?.partitions ?? []).map(render).sort();
}

export function allOwned(): string[] {
  return [...group.members.values()].flatMap((member) => member.assignment.map(render)).sort();
}

export function partitionsOfTopics(topics: ReadonlyMap<string, number>, names: readonly string[]): string[] {
  return names.flatMap((topic) => Array.from({ length: topics.get(topic) ?? 0 }, (_, p) => `${topic}-${p}`)).sort();
}

export function thrownBy(action: () => unknown): BrookError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(BrookError);
    return error as BrookError;
  }
  throw new Error('expected an error');
}

export const tp = (topic: string, partition: number): TopicPartition => ({ topic, partition });

export const instance = (subscription: Subscription | null): InstanceValue => ({
  format: 'binary',
  autoOffsetReset: 'latest',
  autoCommitEnable: true,
  fetchMinBytes: 1,
  requestTimeoutMs: 1000,
  subscription,
  assignment: null,
  createdAtMs: clock.nowMs(),
});
