import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClassicHarness, subscription } from '../../test/support/groups/classic-harness.js';
import { ClassicEffects, type JoinAnswer, type SyncAnswer } from './classic-answers.js';

// Simulated Kafka clients that follow the classic protocol (join, rejoin with the id MEMBER_ID_REQUIRED gave,
// the leader assigns, sync, heartbeat, rejoin on REBALANCE_IN_PROGRESS, start over on UNKNOWN_MEMBER_ID or
// ILLEGAL_GENERATION), driven in random order with restarts, crashes, time, ticks and writes that land or fail.
// After every step: answers go only to requests that wait, generations never go back, and a member never holds an
// assignment of another generation, nor the same as another member of the current generation. At the end every
// wait has been answered, and the clients still running settle in one stable generation.

const SESSION_MS = 10_000;
/** Rebalance timeouts below and above the session timeout (a slow static member may outlive a join phase). */
const REBALANCE_TIMEOUTS_MS = [5_000, 20_000];
const CLIENTS = 4;
const INSTANCES = [null, 'i0', 'i1'] as const;

type Phase = 'join' | 'sync' | 'stable' | 'stopped';

interface Client {
  index: number;
  instanceId: string | null;
  requireKnownMemberId: boolean;
  memberId: string;
  generation: number;
  leaderAssignments: Array<{ memberId: string; assignment: Buffer }>;
  phase: Phase;
  /** The member id a request of this client waits under (a JoinGroup or a SyncGroup), or null. */
  waiting: { kind: 'join' | 'sync'; as: string } | null;
  assignment: Buffer | null;
  crashed: boolean;
  started: boolean;
}

type Action =
  | { kind: 'act'; client: number }
  | { kind: 'start'; client: number; instance: number; requireKnownMemberId: boolean }
  | { kind: 'leave'; client: number }
  | { kind: 'crash'; client: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'settle'; ok: boolean };

const client = fc.nat(CLIENTS - 1);
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('act' as const), client }), weight: 8 },
  {
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      client,
      instance: fc.nat(INSTANCES.length - 1),
      requireKnownMemberId: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('leave' as const), client }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('crash' as const), client }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(3000) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(30_000) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean() }), weight: 3 },
);

class Simulation {
  readonly h: ClassicHarness;
  readonly clients: Client[] = [];
  private nextId = 0;
  private lastGeneration = 0;

  constructor(
    initialRebalanceDelayMs: number,
    private readonly rebalanceTimeoutMs: number,
  ) {
    this.h = new ClassicHarness({ initialRebalanceDelayMs, maxSessionTimeoutMs: 60_000 });
    for (let index = 0; index < CLIENTS; index++) {
      this.clients.push({
        index,
        instanceId: null,
        requireKnownMemberId: false,
        memberId: '',
        generation: -1,
        leaderAssignments: [],
        phase: 'stopped',
        waiting: null,
        assignment: null,
        crashed: false,
        started: false,
      });
    }
  }

  apply(action: Action): void {
    switch (action.kind) {
      case 'start': {
        const c = this.clients[action.client];
        if (c.waiting !== null) return; // one request at a time per client
        Object.assign(c, {
          instanceId: INSTANCES[action.instance],
          requireKnownMemberId: action.requireKnownMemberId,
          memberId: '',
          generation: -1,
          phase: 'join',
          assignment: null,
          crashed: false,
          started: true,
        });
        return;
      }
      case 'act':
        return this.act(this.clients[action.client]);
      case 'leave': {
        const c = this.clients[action.client];
        // also while a request of it waits: sent from another connection, as an administrator's removal is
        if (c.crashed || c.phase === 'stopped' || c.memberId === '') return;
        const result = this.h.group.classic.leave([{ memberId: c.memberId, groupInstanceId: c.instanceId }]);
        this.deliver(result.effects);
        c.phase = 'stopped';
        return;
      }
      case 'crash':
        this.clients[action.client].crashed = true;
        return;
      case 'advance':
        this.h.clock.advance(action.ms);
        this.deliver(this.tick());
        return;
      case 'settle':
        return this.settle(action.ok);
    }
  }

  private tick(): ClassicEffects {
    const { classic } = this.h.group.tick(new Map());
    return classic ?? new ClassicEffects();
  }

  settle(ok: boolean): void {
    const write = this.h.writes.shift();
    if (write === undefined) return;
    if (ok) {
      this.h.group.replay({ kind: 'group', group: this.h.group.groupId, value: write.value }, 'live');
      this.deliver(this.h.group.classic.written(write.id));
    } else {
      this.deliver(this.h.group.classic.writeFailed(write.id, 'NOT_COORDINATOR'));
    }
  }

  act(c: Client): void {
    if (c.crashed || c.waiting !== null || c.phase === 'stopped') return;
    const identity = { memberId: c.memberId, groupInstanceId: c.instanceId };
    if (c.phase === 'join') {
      const outcome = this.h.group.classicJoin(
        this.h.request({
          ...identity,
          requireKnownMemberId: c.requireKnownMemberId,
          sessionTimeoutMs: SESSION_MS,
          rebalanceTimeoutMs: this.rebalanceTimeoutMs,
          protocols: subscription('orders'),
          newMemberId: `m${this.nextId++}`,
        }),
      );
      if (outcome.reply === null) c.waiting = { kind: 'join', as: outcome.waitAs! };
      this.deliver(outcome.effects);
      if (outcome.reply !== null) this.onJoin(c, outcome.reply);
    } else if (c.phase === 'sync') {
      const outcome = this.h.group.classic.sync({
        ...identity,
        generation: c.generation,
        protocolType: 'consumer',
        protocolName: 'range',
        assignments: c.leaderAssignments,
      });
      if (outcome.reply === null) c.waiting = { kind: 'sync', as: outcome.waitAs! };
      this.deliver(outcome.effects);
      if (outcome.reply !== null) this.onSync(c, outcome.reply);
    } else {
      const error = this.h.group.classic.heartbeat(identity, c.generation);
      if (error === 'REBALANCE_IN_PROGRESS') c.phase = 'join';
      else if (error !== null) this.startOver(c, error);
    }
  }

  private startOver(c: Client, error: string): void {
    if (error === 'FENCED_INSTANCE_ID') {
      c.phase = 'stopped'; // another process took the instance id: the Java client stops too
      return;
    }
    if (error !== 'REBALANCE_IN_PROGRESS') {
      c.memberId = '';
      c.generation = -1;
    }
    c.phase = 'join';
  }

  private onJoin(c: Client, answer: JoinAnswer): void {
    if (answer.error === 'MEMBER_ID_REQUIRED') {
      c.memberId = answer.memberId;
      return;
    }
    if (answer.error !== null) return this.startOver(c, answer.error);
    expect(answer.generation).toBeGreaterThan(0);
    c.memberId = answer.memberId;
    c.generation = answer.generation;
    const leads = answer.leader === answer.memberId && !answer.skipAssignment;
    expect(leads || answer.members.length === 0 || answer.skipAssignment).toBe(true);
    c.leaderAssignments = leads
      ? answer.members.map(({ memberId }) => ({
          memberId,
          assignment: Buffer.from(`${answer.generation}:${memberId}`),
        }))
      : [];
    c.phase = 'sync';
  }

  private onSync(c: Client, answer: SyncAnswer): void {
    if (answer.error !== null) return this.startOver(c, answer.error);
    if (answer.assignment.length > 0) {
      // never an assignment made for another generation
      expect(answer.assignment.toString().split(':')[0]).toBe(String(c.generation));
    }
    c.assignment = answer.assignment;
    c.phase = 'stable';
  }

  deliver(effects: ClassicEffects): void {
    this.h.take(effects);
    for (const [kind, answers] of [
      ['join', this.h.joins],
      ['sync', this.h.syncs],
    ] as const) {
      for (const [memberId, answer] of answers) {
        const waiting = this.clients.find((c) => c.waiting?.kind === kind && c.waiting.as === memberId);
        expect(waiting, `a ${kind} answer for ${memberId}, which no request waits for`).toBeDefined();
        waiting!.waiting = null;
        if (!waiting!.crashed) {
          if (kind === 'join') this.onJoin(waiting!, answer as JoinAnswer);
          else this.onSync(waiting!, answer as SyncAnswer);
        }
      }
      answers.clear();
    }
    this.checkInvariants();
  }

  checkInvariants(): void {
    const group = this.h.group;
    expect(group.generation).toBeGreaterThanOrEqual(this.lastGeneration);
    this.lastGeneration = group.generation;
    // members of the current generation that the group still knows hold distinct assignments
    const holders = this.clients.filter(
      (c) =>
        c.phase === 'stable' &&
        c.generation === group.generation &&
        group.members.get(c.memberId)?.groupInstanceId === c.instanceId &&
        c.assignment !== null &&
        c.assignment.length > 0,
    );
    const held = holders.map((c) => c.assignment!.toString());
    expect(new Set(held).size).toBe(held.length);
  }

  /** No more faults: every client runs, writes land, time goes on; returns whether the group settled. */
  settleDown(): boolean {
    for (let round = 0; round < 400; round++) {
      while (this.h.writes.length > 0) this.settle(true);
      for (const c of this.clients) this.act(c);
      while (this.h.writes.length > 0) this.settle(true);
      const live = this.clients.filter((c) => !c.crashed && c.phase !== 'stopped');
      const waits = this.clients.some((c) => c.waiting !== null);
      const settled =
        !waits &&
        (live.length === 0 ||
          (this.h.group.state === 'Stable' &&
            live.every((c) => c.phase === 'stable' && c.generation === this.h.group.generation)));
      if (settled) return true;
      this.h.clock.advance(1000);
      this.deliver(this.tick());
    }
    return false;
  }
}

describe('the classic protocol with simulated clients', () => {
  it('answers each wait once, fences old generations, and settles in one stable generation', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 3000),
        fc.constantFrom(...REBALANCE_TIMEOUTS_MS),
        fc.array(fc.record({ instance: fc.nat(INSTANCES.length - 1), requireKnownMemberId: fc.boolean() }), {
          minLength: CLIENTS,
          maxLength: CLIENTS,
        }),
        fc.array(actionArbitrary, { minLength: 1, maxLength: 200 }),
        (initialDelay, rebalanceTimeout, starts, actions) => {
          const simulation = new Simulation(initialDelay, rebalanceTimeout);
          starts.forEach((start, client) => simulation.apply({ kind: 'start', client, ...start }));
          for (const action of actions) simulation.apply(action);
          expect(simulation.settleDown()).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
