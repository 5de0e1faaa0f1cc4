// On-demand leader election (Kafka's ElectLeaders request and kafka-leader-election.sh), pure: for one partition
// and an election type, the new partition state, or why there is none (Kafka's error names).
//
// "Current" is partition-leadership.ts's word: an ISR member live as the incarnation the ISR admitted.
//
//   PREFERRED  the first replica of the assignment leads, when it is a current ISR member:
//                already leading                        -> ELECTION_NOT_NEEDED
//                not live, or not current in the ISR    -> PREFERRED_LEADER_NOT_AVAILABLE
//                otherwise                              -> it leads, leader epoch + 1, ISR kept
//   UNCLEAN    only for a partition whose leader is gone (Kafka: "elect a leader when none is available"):
//                a current leader                       -> ELECTION_NOT_NEEDED
//                a current ISR member                   -> the first in replica order leads (a clean election),
//                                                          ISR = the current members, epoch + 1
//                a live replica, none current in the ISR-> the first in replica order leads, ISR = [it] as its
//                                                          live incarnation, epoch + 1 (records only the old ISR
//                                                          had are lost, as in Kafka)
//                no live replica                        -> ELIGIBLE_LEADERS_NOT_AVAILABLE
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';
import {
  currentMembers,
  isCurrentMember,
  keepMembers,
  type LiveIncarnations,
  soleMember,
} from '../topic/replica-incarnations.js';
import type { LeaderChange } from './partition-leadership.js';

export type ElectionType = 'PREFERRED' | 'UNCLEAN';

export type ElectionError =
  | 'ELECTION_NOT_NEEDED'
  | 'PREFERRED_LEADER_NOT_AVAILABLE'
  | 'ELIGIBLE_LEADERS_NOT_AVAILABLE'
  | 'UNKNOWN_TOPIC_OR_PARTITION';

export type ElectionDecision =
  { ok: true; change: LeaderChange } | { ok: false; error: ElectionError; message: string };

export function decideElection(
  type: ElectionType,
  topic: TopicMetadata,
  partition: number,
  liveBrokers: LiveIncarnations,
  controllerEpoch: number,
): ElectionDecision {
  const name = `${topic.assignment.name}-${partition}`;
  const replicas = topic.assignment.replicas[partition];
  const state = topic.states[partition];
  if (replicas === undefined || state === undefined) {
    return { ok: false, error: 'UNKNOWN_TOPIC_OR_PARTITION', message: `${name} does not exist.` };
  }
  const next = type === 'PREFERRED' ? preferred(state, replicas, liveBrokers) : unclean(state, replicas, liveBrokers);
  if ('error' in next) return { ok: false, error: next.error, message: `${name}: ${next.message}` };
  return {
    ok: true,
    change: {
      topic: topic.assignment.name,
      partition,
      expectedVersion: topic.stateVersions[partition] ?? 0,
      state: { ...next, leaderEpoch: state.leaderEpoch + 1, controllerEpoch },
    },
  };
}

type Decided = PartitionState | { error: ElectionError; message: string };

function preferred(state: PartitionState, replicas: readonly number[], live: LiveIncarnations): Decided {
  const first = replicas[0];
  if (state.leader === first) {
    return { error: 'ELECTION_NOT_NEEDED', message: `the preferred replica ${first} already leads.` };
  }
  if (!isCurrentMember(state, first, live)) {
    return {
      error: 'PREFERRED_LEADER_NOT_AVAILABLE',
      message: `the preferred replica ${first} is ${live.has(first) ? 'not in the ISR' : 'not live'}.`,
    };
  }
  return { ...state, leader: first };
}

function unclean(state: PartitionState, replicas: readonly number[], live: LiveIncarnations): Decided {
  if (state.leader !== NO_LEADER && isCurrentMember(state, state.leader, live)) {
    return { error: 'ELECTION_NOT_NEEDED', message: `broker ${state.leader} leads and is live.` };
  }
  const current = currentMembers(state, live);
  const clean = replicas.find((broker) => current.includes(broker));
  if (clean !== undefined) return { ...keepMembers(state, current), leader: clean };
  const any = replicas.find((broker) => live.has(broker));
  if (any !== undefined) return { ...soleMember(state, any, live.get(any)!), leader: any };
  return { error: 'ELIGIBLE_LEADERS_NOT_AVAILABLE', message: 'no replica is live.' };
}
