// Test support for the classic protocol's specs: a group on a ManualClock and a harness that plays the group
// coordinator around it (collecting the answers of waiting requests from every step's effects, and landing or
// failing the records the machine asks to write).
import { expect } from 'vitest';
import { ManualClock } from '../../../src/common/clock.js';
import type {
  ClassicEffects,
  ClassicError,
  ClassicJoinRequest,
  ClassicSyncRequest,
  ClassicWrite,
  JoinAnswer,
  SyncAnswer,
} from '../../../src/group-coordinator/classic-answers.js';
import { encodeAssignment, encodeSubscription } from '../../../src/group-coordinator/consumer-protocol.js';
import { ConsumerGroup, type GroupSettings } from '../../../src/group-coordinator/consumer-group.js';
import type { ClassicProtocol } from '../../../src/group-coordinator/group-member.js';

export const GROUP_ID = 'g';
export const INITIAL_DELAY_MS = 3000;
export const SESSION_MS = 10_000;
export const REBALANCE_MS = 30_000;

export function subscription(...topics: string[]): ClassicProtocol[] {
  return [{ name: 'range', metadata: encodeSubscription(topics) }];
}

export function assignmentOf(topic: string, ...partitions: number[]): Buffer {
  return encodeAssignment(partitions.map((partition) => ({ topic, partition })));
}

export class ClassicHarness {
  readonly clock = new ManualClock();
  readonly group: ConsumerGroup;
  /** The answer each waiting JoinGroup / SyncGroup got, by the member id it waited under. */
  readonly joins = new Map<string, JoinAnswer>();
  readonly syncs = new Map<string, SyncAnswer>();
  /** Records the machine asked to write and that have neither landed nor failed. */
  readonly writes: ClassicWrite[] = [];

  constructor(settings: Partial<GroupSettings> = {}) {
    this.group = new ConsumerGroup(
      GROUP_ID,
      {
        initialRebalanceDelayMs: INITIAL_DELAY_MS,
        defaultAssignor: 'range',
        maxSize: 10,
        minSessionTimeoutMs: 1000,
        maxSessionTimeoutMs: 60_000,
        ...settings,
      },
      this.clock,
    );
  }

  take(effects: ClassicEffects): void {
    for (const { memberId, answer } of effects.joins) {
      expect(this.joins.has(memberId), `a second join answer for ${memberId}`).toBe(false);
      this.joins.set(memberId, answer);
    }
    for (const { memberId, answer } of effects.syncs) {
      expect(this.syncs.has(memberId), `a second sync answer for ${memberId}`).toBe(false);
      this.syncs.set(memberId, answer);
    }
    this.writes.push(...effects.writes);
  }

  request(overrides: Partial<ClassicJoinRequest> = {}): ClassicJoinRequest {
    return {
      memberId: '',
      groupInstanceId: null,
      clientId: 'client',
      clientHost: '/127.0.0.1',
      protocolType: 'consumer',
      protocols: subscription('orders'),
      sessionTimeoutMs: SESSION_MS,
      rebalanceTimeoutMs: REBALANCE_MS,
      requireKnownMemberId: false,
      supportsSkipAssignment: true,
      newMemberId: 'new',
      ...overrides,
    };
  }

  /** A JoinGroup: its immediate answer, or 'waiting' (the answer then lands in `joins` under the returned id). */
  join(overrides: Partial<ClassicJoinRequest> = {}): JoinAnswer | { waiting: string } {
    this.joinsOf(overrides);
    const outcome = this.group.classicJoin(this.request(overrides));
    this.take(outcome.effects);
    return outcome.reply ?? { waiting: outcome.waitAs! };
  }

  private joinsOf(overrides: Partial<ClassicJoinRequest>): void {
    // a member waiting again replaces its earlier wait, as the coordinator's waiters do
    const id = overrides.memberId || overrides.newMemberId;
    if (id !== undefined) this.joins.delete(id);
  }

  sync(memberId: string, generation: number, overrides: Partial<ClassicSyncRequest> = {}): SyncAnswer | 'waiting' {
    this.syncs.delete(memberId);
    const outcome = this.group.classic.sync({
      memberId,
      groupInstanceId: null,
      generation,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [],
      ...overrides,
    });
    this.take(outcome.effects);
    return outcome.reply ?? 'waiting';
  }

  tick(): void {
    const { classic } = this.group.tick(new Map([['orders', 4]]));
    if (classic !== undefined) this.take(classic);
  }

  advance(ms: number): void {
    this.clock.advance(ms);
    this.tick();
  }

  /** The oldest write in flight lands: replayed into the group, then the machine is told. */
  land(): ClassicWrite {
    const write = this.writes.shift()!;
    expect(write, 'a write to land').toBeDefined();
    this.group.replay({ kind: 'group', group: GROUP_ID, value: write.value }, 'live');
    this.take(this.group.classic.written(write.id));
    return write;
  }

  fail(error: ClassicError = 'NOT_COORDINATOR'): void {
    const write = this.writes.shift()!;
    expect(write, 'a write to fail').toBeDefined();
    this.take(this.group.classic.writeFailed(write.id, error));
  }

  /** Joins the members (ids given up front, no MEMBER_ID_REQUIRED), ends the initial delay, and syncs to Stable. */
  stable(...memberIds: string[]): number {
    for (const id of memberIds) this.join({ newMemberId: id, clientId: id });
    this.advance(INITIAL_DELAY_MS);
    const leader = this.joins.get(memberIds[0])!;
    expect(leader.error).toBeNull();
    const generation = leader.generation;
    const assignments = memberIds.map((memberId, i) => ({ memberId, assignment: assignmentOf('orders', i) }));
    this.sync(memberIds[0], generation, { assignments });
    this.land();
    for (const id of memberIds.slice(1)) this.sync(id, generation);
    expect(this.group.state).toBe('Stable');
    this.joins.clear();
    this.syncs.clear();
    return generation;
  }
}
