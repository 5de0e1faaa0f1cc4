// The controller's leader decisions (Kafka's PartitionStateMachine for "broker online / offline"), pure: given
// the partition states and the live brokers, which states change.
//
//   leader live                         -> unchanged
//   leader gone (registration expired)  -> new leader = first live ISR member other than it, else offline
//                                          (leader -1, ISR kept, as Kafka keeps the last ISR member), epoch + 1
//   offline (leader -1)                 -> first live ISR member becomes leader, leader epoch + 1
// Only ISR members lead (unclean election is off); every changed state carries the deciding controller epoch.
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';

export interface LeaderChange {
  topic: string;
  partition: number;
  /** The version the change was decided from: written only if the state is still at it. */
  expectedVersion: number;
  state: PartitionState;
}

export function decideLeaderChanges(
  topics: Iterable<TopicMetadata>,
  liveBrokers: ReadonlySet<number>,
  controllerEpoch: number,
): LeaderChange[] {
  const changes: LeaderChange[] = [];
  for (const topic of topics) {
    topic.states.forEach((state, partition) => {
      if (state === undefined) return;
      if (state.leader !== NO_LEADER && liveBrokers.has(state.leader)) return;
      const candidate = state.isr.find((broker) => broker !== state.leader && liveBrokers.has(broker));
      const next = candidate ?? (state.leader === NO_LEADER ? undefined : NO_LEADER);
      if (next === undefined) return;
      changes.push({
        topic: topic.assignment.name,
        partition,
        expectedVersion: topic.stateVersions[partition] ?? 0,
        state: { leader: next, leaderEpoch: state.leaderEpoch + 1, isr: [...state.isr], controllerEpoch },
      });
    });
  }
  return changes;
}
