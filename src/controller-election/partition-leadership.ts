// The controller's partition decisions on broker liveness (Kafka's PartitionStateMachine and ReplicaStateMachine
// for "broker online / offline"), pure: given the partition states and the live brokers, which states change.
//
//   state                                   -> next state                                          leader epoch
//   leader live, every ISR member live      -> unchanged
//   leader live, ISR members gone           -> ISR without them (Kafka's OfflineReplica)            kept
//   leader gone, a live ISR member          -> first live ISR member in replica order leads;        + 1
//                                              ISR = its live members
//   leader gone, no live ISR member,
//     unclean.leader.election.enable        -> first live replica in replica order leads, ISR = [it] + 1
//     otherwise                             -> offline (leader -1), ISR kept: only its members     + 1
//                                              may lead again, as Kafka keeps the last ISR member
//   offline, an ISR member returns          -> it leads (the row "leader gone" with leader -1)     + 1
// Every changed state carries the deciding controller epoch, and is written compare-and-set on the version it
// was decided from. A leader whose ISR the controller shrinks keeps its epoch: its own ISR writes are also
// compare-and-set on the version, so the two never overwrite each other.
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';

export interface LeaderChange {
  topic: string;
  partition: number;
  /** The version the change was decided from: written only if the state is still at it. */
  expectedVersion: number;
  state: PartitionState;
}

/** Whether a topic allows an out-of-sync replica to lead (its unclean.leader.election.enable). */
export type UncleanElectionPolicy = (topic: TopicMetadata) => boolean;

export function decideLeaderChanges(
  topics: Iterable<TopicMetadata>,
  liveBrokers: ReadonlySet<number>,
  controllerEpoch: number,
  uncleanAllowed: UncleanElectionPolicy = () => false,
): LeaderChange[] {
  const changes: LeaderChange[] = [];
  for (const topic of topics) {
    topic.states.forEach((state, partition) => {
      if (state === undefined) return;
      const replicas = topic.assignment.replicas[partition] ?? state.isr;
      const next = decidePartition(state, replicas, liveBrokers, () => uncleanAllowed(topic));
      if (next === null) return;
      changes.push({
        topic: topic.assignment.name,
        partition,
        expectedVersion: topic.stateVersions[partition] ?? 0,
        state: { ...next, controllerEpoch },
      });
    });
  }
  return changes;
}

function decidePartition(
  state: PartitionState,
  replicas: readonly number[],
  live: ReadonlySet<number>,
  uncleanAllowed: () => boolean,
): Omit<PartitionState, 'controllerEpoch'> | null {
  // everything else in the state (a reassignment's adding/removing replicas) is kept as it is
  const { controllerEpoch: _controllerEpoch, ...rest } = state;
  const liveIsr = state.isr.filter((broker) => live.has(broker));
  if (state.leader !== NO_LEADER && live.has(state.leader)) {
    if (liveIsr.length === state.isr.length) return null;
    return { ...rest, leader: state.leader, leaderEpoch: state.leaderEpoch, isr: liveIsr };
  }
  const leaderEpoch = state.leaderEpoch + 1;
  const clean = replicas.find((broker) => broker !== state.leader && liveIsr.includes(broker));
  if (clean !== undefined) return { ...rest, leader: clean, leaderEpoch, isr: liveIsr };
  if (uncleanAllowed()) {
    const unclean = replicas.find((broker) => broker !== state.leader && live.has(broker));
    if (unclean !== undefined) return { ...rest, leader: unclean, leaderEpoch, isr: [unclean] };
  }
  if (state.leader === NO_LEADER) return null;
  return { ...rest, leader: NO_LEADER, leaderEpoch, isr: [...state.isr] };
}
