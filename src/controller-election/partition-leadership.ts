// The controller's partition decisions on broker liveness (Kafka's PartitionStateMachine and ReplicaStateMachine
// for "broker online / offline", and KRaft's handling of a broker that registers again), pure: given the partition
// states and the live incarnations (broker id -> broker epoch), which states change. An ISR member is *current*
// when its broker is live as the incarnation the ISR admitted (replica-incarnations.ts); a broker that restarted
// is live but not current: the controller handles it as a failure followed by a start-up, even when its old
// registration never lapsed and even when it is itself the controller.
//
//   state                                   -> next state                                          leader epoch
//   leader current, every ISR member current-> unchanged
//   leader current, other members not       -> ISR = the current members (Kafka's OfflineReplica)  kept
//   leader not current (gone or restarted),
//     a current ISR member                  -> the first current member in replica order leads;    + 1
//                                              ISR = the current members
//     no current member, but a member is
//     live again as a new incarnation       -> the first such in replica order leads, ISR = [it]   + 1
//                                              as its new incarnation (the last in-sync replica is
//                                              back: it holds all it kept; RF 1 lands here)
//     unclean.leader.election.enable        -> the first live replica in replica order leads,      + 1
//                                              ISR = [it]
//     otherwise                             -> offline (leader -1), ISR kept with its incarnations:+ 1
//                                              only its members may lead again, as Kafka keeps the
//                                              last ISR member
//   offline                                 -> the rows "leader not current" with leader -1        + 1
// So a restarted broker never gets back a leadership in an epoch it held: every leadership it held moves, with
// leader epoch + 1, to another in-sync replica or back to it, and a follower that restarted leaves every ISR until
// its leader admits the new incarnation. Every changed state carries the deciding controller epoch, and is written
// compare-and-set on the version it was decided from. A leader whose ISR the controller shrinks keeps its epoch:
// its own ISR writes are also compare-and-set on the version, so the two never overwrite each other.
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';
import { currentMembers, keepMembers, type LiveIncarnations, soleMember } from '../topic/replica-incarnations.js';

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
  liveBrokers: LiveIncarnations,
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
  live: LiveIncarnations,
  uncleanAllowed: () => boolean,
): PartitionState | null {
  // everything else in the state (a reassignment's adding/removing replicas) is kept as it is
  const current = currentMembers(state, live);
  if (state.leader !== NO_LEADER && current.includes(state.leader)) {
    if (current.length === state.isr.length) return null;
    return keepMembers(state, current);
  }
  const leaderEpoch = state.leaderEpoch + 1;
  const clean = replicas.find((broker) => current.includes(broker));
  if (clean !== undefined) return { ...keepMembers(state, current), leader: clean, leaderEpoch };
  const restarted = replicas.find((broker) => state.isr.includes(broker) && live.has(broker));
  if (restarted !== undefined) {
    return { ...soleMember(state, restarted, live.get(restarted)!), leader: restarted, leaderEpoch };
  }
  if (uncleanAllowed()) {
    const unclean = replicas.find((broker) => live.has(broker));
    if (unclean !== undefined)
      return { ...soleMember(state, unclean, live.get(unclean)!), leader: unclean, leaderEpoch };
  }
  if (state.leader === NO_LEADER) return null;
  return { ...state, leader: NO_LEADER, leaderEpoch };
}

/**
 * decideLeaderChanges for the controller's periodic pass, without walking every partition again when nothing it
 * reads changed since a walk that decided no change: the same topics map (the metadata cache hands out a new map
 * whenever any key it holds changed, and its TopicMetadata are never mutated), the same live incarnations (by
 * content: the pass builds that map afresh), the same controller epoch and the same unclean-election inputs
 * (`policyInputs`: what `uncleanAllowed` reads besides the topics, the broker's topic config defaults). The
 * decision is a pure function of those, so a skipped walk would have decided no change too. An idle controller with
 * 10,000 partitions walked them all every heartbeat (2 s), ~2.8 MB of garbage a pass, which kept the broker from
 * ever counting as idle (idle-memory-reducer.ts). A walk that decides changes is not remembered: the next pass
 * walks again (its writes may fail, or bring a new topics map).
 */
export class LeaderDecisions {
  private quiet: {
    topics: ReadonlyMap<string, TopicMetadata>;
    live: Map<number, number>;
    epoch: number;
    policyInputs: unknown;
  } | null = null;

  decide(
    topics: ReadonlyMap<string, TopicMetadata>,
    liveBrokers: LiveIncarnations,
    controllerEpoch: number,
    uncleanAllowed: UncleanElectionPolicy,
    policyInputs: unknown,
  ): LeaderChange[] {
    const quiet = this.quiet;
    if (
      quiet !== null &&
      quiet.topics === topics &&
      quiet.epoch === controllerEpoch &&
      quiet.policyInputs === policyInputs &&
      sameIncarnations(quiet.live, liveBrokers)
    )
      return [];
    const changes = decideLeaderChanges(topics.values(), liveBrokers, controllerEpoch, uncleanAllowed);
    this.quiet =
      changes.length === 0 ? { topics, live: new Map(liveBrokers), epoch: controllerEpoch, policyInputs } : null;
    return changes;
  }
}

function sameIncarnations(a: LiveIncarnations, b: LiveIncarnations): boolean {
  if (a.size !== b.size) return false;
  for (const [broker, epoch] of b) if (a.get(broker) !== epoch) return false;
  return true;
}
