// Partition reassignment as Kafka does it since KIP-455, pure: given one persisted reassignment command, the
// partition's current replicas (the assignment), its state and the live brokers, the next step the controller
// takes. The controller applies one step, reloads, and asks again; every step is derived from the stored state
// alone, so a new controller resumes an unfinished reassignment where the old one stopped.
//
// Command (persisted under cluster-keys.ts reassignmentKey, JSON): {"topic", "partition", "topicId",
// "target": [broker ids], "original": [the replicas before the first reassignment of this partition]}. A
// cancellation is a command whose target is the original replicas.
//
// With R the current replicas and T the target, the steps, checked in this order (the first that applies wins):
//
//   condition                                        step             writes
//   R = T (as sets)                                  clear or done    state without adding/removing (CAS); R in
//                                                                     T's order (a reordering changes only the
//                                                                     preferred leader); the command is deleted
//   T has members outside R                          extend-replicas  assignment: R := T ++ (R - T)
//   adding/removing in the state differ from         mark             state: adding = T - original,
//     (T - original, R - T)                                           removing = R - T (CAS)
//   a member of T is not in the ISR                  wait             (the new replicas are catching up)
//   the leader is not in T                           elect-leader     state: the first member of T that is live in
//                                                                     the ISR as the incarnation it admitted leads,
//                                                                     leader epoch + 1 (CAS); none: wait
//   the ISR has members outside T                    shrink-isr       state: ISR := ISR ∩ T (= T) (CAS)
//   otherwise                                        shrink-replicas  assignment: R := T
//
// So replicas are only removed once every target replica is in the ISR and leads or follows in sync: the ISR the
// controller writes is always the whole target, the leader is never removed before leadership moved, and a
// replica being removed is never let back into the ISR (the leader refuses to expand it: removingReplicas).
// State writes are compare-and-set on the partition-state version, like every ISR change; assignment writes are
// compare-and-set on the topic's version. Both are fenced by the controller epoch.
import type { PartitionState } from '../topic/cluster-metadata.js';
import { isCurrentMember, keepMembers, type LiveIncarnations } from '../topic/replica-incarnations.js';

export interface ReassignmentCommand {
  topic: string;
  partition: number;
  topicId: string;
  target: number[];
  original: number[];
}

export type ReassignmentStep =
  | { kind: 'extend-replicas'; replicas: number[] }
  | { kind: 'mark'; state: PartitionState }
  | { kind: 'wait'; reason: string }
  | { kind: 'elect-leader'; state: PartitionState }
  | { kind: 'shrink-isr'; state: PartitionState }
  | { kind: 'shrink-replicas'; replicas: number[] }
  | { kind: 'clear'; state: PartitionState }
  | { kind: 'complete' };

export interface ReassignmentInput {
  command: ReassignmentCommand;
  replicas: readonly number[];
  state: PartitionState;
  liveBrokers: LiveIncarnations;
  controllerEpoch: number;
}

export function nextReassignmentStep(input: ReassignmentInput): ReassignmentStep {
  const { command, replicas, state, liveBrokers, controllerEpoch } = input;
  const target = command.target;
  const withEpoch = (next: PartitionState): PartitionState => ({ ...next, controllerEpoch });
  if (sameSet(replicas, target)) {
    if (!isEmpty(state.addingReplicas) || !isEmpty(state.removingReplicas)) {
      return { kind: 'clear', state: withEpoch(withoutReassignment(state)) };
    }
    return sameList(replicas, target) ? { kind: 'complete' } : { kind: 'shrink-replicas', replicas: [...target] };
  }
  if (target.some((broker) => !replicas.includes(broker))) {
    return { kind: 'extend-replicas', replicas: [...target, ...minus(replicas, target)] };
  }
  const adding = minus(target, command.original);
  const removing = minus(replicas, target);
  if (!sameList(state.addingReplicas ?? [], adding) || !sameList(state.removingReplicas ?? [], removing)) {
    return { kind: 'mark', state: withEpoch({ ...state, addingReplicas: adding, removingReplicas: removing }) };
  }
  const catchingUp = target.filter((broker) => !state.isr.includes(broker));
  if (catchingUp.length > 0) return { kind: 'wait', reason: `replicas ${catchingUp.join(',')} are not in the ISR` };
  if (!target.includes(state.leader)) {
    const leader = target.find((broker) => isCurrentMember(state, broker, liveBrokers));
    if (leader === undefined) return { kind: 'wait', reason: 'no replica of the target is live to lead' };
    return { kind: 'elect-leader', state: withEpoch({ ...state, leader, leaderEpoch: state.leaderEpoch + 1 }) };
  }
  if (state.isr.some((broker) => !target.includes(broker))) {
    const kept = state.isr.filter((broker) => target.includes(broker));
    return { kind: 'shrink-isr', state: withEpoch(keepMembers(state, kept)) };
  }
  return { kind: 'shrink-replicas', replicas: [...target] };
}

/** The adding and removing replicas a reassignment shows (Confluent's ReassignmentData), from the command. */
export function reassignmentView(
  command: ReassignmentCommand,
  replicas: readonly number[],
): { replicas: number[]; adding: number[]; removing: number[] } {
  const full = [...command.target, ...minus(replicas, command.target)];
  return { replicas: full, adding: minus(command.target, command.original), removing: minus(full, command.target) };
}

function withoutReassignment(state: PartitionState): PartitionState {
  const { addingReplicas: _adding, removingReplicas: _removing, ...rest } = state;
  return rest;
}

function minus(a: readonly number[], b: readonly number[]): number[] {
  return a.filter((broker) => !b.includes(broker));
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((broker) => b.includes(broker));
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((broker, i) => broker === b[i]);
}

function isEmpty(list: readonly number[] | undefined): boolean {
  return list === undefined || list.length === 0;
}
