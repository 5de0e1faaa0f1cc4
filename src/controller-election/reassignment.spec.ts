import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PartitionState } from '../topic/cluster-metadata.js';
import { admitMember, keepMembers } from '../topic/replica-incarnations.js';
import { nextReassignmentStep, reassignmentView, type ReassignmentCommand } from './reassignment.js';

const command = (target: number[], original = [1, 2, 3]): ReassignmentCommand => ({
  topic: 't',
  partition: 0,
  topicId: 'id',
  target,
  original,
});
/** Broker b runs as incarnation (broker epoch) 10 * b, as each ISR admitted it. */
const incarnationsOf = (brokers: number[]) => new Map(brokers.map((broker) => [broker, 10 * broker]));
const state = (leader: number, isr: number[], extra: Partial<PartitionState> = {}): PartitionState => ({
  leader,
  leaderEpoch: 4,
  isr,
  isrBrokerEpochs: Object.fromEntries(isr.map((broker) => [String(broker), 10 * broker])),
  controllerEpoch: 1,
  ...extra,
});
const step = (cmd: ReassignmentCommand, replicas: number[], partitionState: PartitionState, live = [1, 2, 3, 4, 5]) =>
  nextReassignmentStep({
    command: cmd,
    replicas,
    state: partitionState,
    liveBrokers: incarnationsOf(live),
    controllerEpoch: 7,
  });

describe('reassignment steps', () => {
  const move = command([2, 3, 4]);

  it('first adds the target replicas to the assignment, target order first', () => {
    expect(step(move, [1, 2, 3], state(1, [1, 2, 3]))).toEqual({ kind: 'extend-replicas', replicas: [2, 3, 4, 1] });
  });

  it('then records the adding and removing replicas in the partition state', () => {
    expect(step(move, [2, 3, 4, 1], state(1, [1, 2, 3]))).toEqual({
      kind: 'mark',
      state: state(1, [1, 2, 3], { controllerEpoch: 7, addingReplicas: [4], removingReplicas: [1] }),
    });
  });

  it('waits while a target replica is out of the ISR', () => {
    const marked = state(1, [1, 2, 3], { addingReplicas: [4], removingReplicas: [1] });
    expect(step(move, [2, 3, 4, 1], marked)).toMatchObject({ kind: 'wait' });
  });

  it('moves leadership to the first live target replica in the ISR, with a new leader epoch', () => {
    const caughtUp = state(1, [1, 2, 3, 4], { addingReplicas: [4], removingReplicas: [1] });
    expect(step(move, [2, 3, 4, 1], caughtUp, [1, 3, 4])).toEqual({
      kind: 'elect-leader',
      state: { ...caughtUp, leader: 3, leaderEpoch: 5, controllerEpoch: 7 },
    });
    expect(step(move, [2, 3, 4, 1], caughtUp, [1])).toMatchObject({ kind: 'wait' });
    // broker 3 restarted: live, but not as the incarnation the ISR admitted; 4 leads
    const restarted = nextReassignmentStep({
      command: move,
      replicas: [2, 3, 4, 1],
      state: caughtUp,
      liveBrokers: new Map([...incarnationsOf([1, 4]), [3, 31]]),
      controllerEpoch: 7,
    });
    expect(restarted).toMatchObject({ kind: 'elect-leader', state: { leader: 4 } });
  });

  it('then shrinks the ISR to the target, then the replicas, then clears the markers and completes', () => {
    const marks = { addingReplicas: [4], removingReplicas: [1] };
    expect(step(move, [2, 3, 4, 1], state(2, [1, 2, 3, 4], marks))).toEqual({
      kind: 'shrink-isr',
      state: state(2, [2, 3, 4], { ...marks, controllerEpoch: 7 }),
    });
    expect(step(move, [2, 3, 4, 1], state(2, [2, 3, 4], marks))).toEqual({
      kind: 'shrink-replicas',
      replicas: [2, 3, 4],
    });
    expect(step(move, [2, 3, 4], state(2, [2, 3, 4], marks))).toEqual({
      kind: 'clear',
      state: state(2, [2, 3, 4], { controllerEpoch: 7 }),
    });
    expect(step(move, [2, 3, 4], state(2, [2, 3, 4]))).toEqual({ kind: 'complete' });
  });

  it('reorders replicas (a new preferred leader) without moving data', () => {
    expect(step(command([3, 1, 2]), [1, 2, 3], state(1, [1, 2, 3]))).toEqual({
      kind: 'shrink-replicas',
      replicas: [3, 1, 2],
    });
  });

  it('a cancellation (target = original) drops the added replicas and keeps the original ones', () => {
    const cancel = command([1, 2, 3]);
    const inFlight = state(1, [1, 2, 3], { addingReplicas: [4], removingReplicas: [1] });
    expect(step(cancel, [2, 3, 4, 1], inFlight)).toEqual({
      kind: 'mark',
      state: { ...inFlight, addingReplicas: [], removingReplicas: [4], controllerEpoch: 7 },
    });
    expect(reassignmentView(cancel, [2, 3, 4, 1])).toEqual({ replicas: [1, 2, 3, 4], adding: [], removing: [4] });
  });
});

// A simulated partition under reassignment: the controller's steps interleaved with what followers and the leader
// do on their own (a replica catches up and joins the ISR, a follower falls behind and leaves it), in any order.
type Event = { kind: 'controller' } | { kind: 'join'; broker: number } | { kind: 'leave'; broker: number };

const BROKERS = [1, 2, 3, 4, 5, 6];

const scenario = fc.record({
  original: fc.shuffledSubarray(BROKERS, { minLength: 1, maxLength: 4 }),
  target: fc.shuffledSubarray(BROKERS, { minLength: 1, maxLength: 4 }),
  events: fc.array(
    fc.oneof(
      fc.constant<Event>({ kind: 'controller' }),
      fc.constantFrom(...BROKERS).map((broker): Event => ({ kind: 'join', broker })),
      fc.constantFrom(...BROKERS).map((broker): Event => ({ kind: 'leave', broker })),
    ),
    { maxLength: 80 },
  ),
});

describe('reassignment steps, in any order of ISR events', () => {
  it('end with replicas = target, never remove the leader, and shrink the ISR only to the whole target', () => {
    fc.assert(
      fc.property(scenario, ({ original, target, events }) => {
        const cmd = command(target, original);
        let replicas = [...original];
        let partition = state(original[0], [...original]);
        const live = incarnationsOf(BROKERS);
        const check = () => {
          expect(replicas).toContain(partition.leader);
          expect(partition.isr).toContain(partition.leader);
          for (const member of partition.isr) expect(replicas).toContain(member);
        };
        const controllerStep = (): boolean => {
          const next = nextReassignmentStep({
            command: cmd,
            replicas,
            state: partition,
            liveBrokers: live,
            controllerEpoch: 1,
          });
          switch (next.kind) {
            case 'complete':
              return true;
            case 'wait':
              return false;
            case 'extend-replicas':
              expect(next.replicas.slice(0, target.length)).toEqual(target);
              for (const broker of replicas) expect(next.replicas).toContain(broker);
              replicas = next.replicas;
              break;
            case 'shrink-replicas':
              expect(next.replicas).toEqual(target);
              expect(target).toContain(partition.leader);
              for (const member of partition.isr) expect(target).toContain(member);
              replicas = next.replicas;
              break;
            case 'shrink-isr':
              expect([...next.state.isr].sort()).toEqual([...target].sort());
              expect(next.state.leader).toBe(partition.leader);
              partition = next.state;
              break;
            case 'elect-leader':
              expect(partition.isr).toContain(next.state.leader);
              expect(target).toContain(next.state.leader);
              expect(next.state.leaderEpoch).toBe(partition.leaderEpoch + 1);
              partition = next.state;
              break;
            case 'mark':
            case 'clear':
              expect(next.state.isr).toEqual(partition.isr);
              expect(next.state.leader).toBe(partition.leader);
              partition = next.state;
              break;
          }
          check();
          return false;
        };
        for (const event of events) {
          if (event.kind === 'controller') controllerStep();
          else if (event.kind === 'join') {
            // the leader lets a caught-up replica in, but never one being removed
            const removing = partition.removingReplicas ?? [];
            if (replicas.includes(event.broker) && !partition.isr.includes(event.broker)) {
              if (!removing.includes(event.broker)) partition = admitMember(partition, event.broker, 10 * event.broker);
            }
          } else if (event.broker !== partition.leader && partition.isr.includes(event.broker)) {
            partition = keepMembers(
              partition,
              partition.isr.filter((broker) => broker !== event.broker),
            );
          }
          check();
        }
        // then every replica catches up, and the controller finishes within a bounded number of steps
        for (let round = 0; round < 20; round++) {
          for (const broker of replicas) {
            const removing = partition.removingReplicas ?? [];
            if (!partition.isr.includes(broker) && !removing.includes(broker)) {
              partition = admitMember(partition, broker, 10 * broker);
            }
          }
          if (controllerStep()) break;
        }
        expect(replicas).toEqual(target);
        expect(target).toContain(partition.leader);
        expect([...partition.isr].sort()).toEqual([...target].sort());
        expect(partition.addingReplicas ?? []).toEqual([]);
        expect(partition.removingReplicas ?? []).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
