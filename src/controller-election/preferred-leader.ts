// Automatic preferred-leader election (Kafka's auto.leader.rebalance.enable), pure: after failovers leadership
// piles up on the brokers that stayed; the first replica of each partition's assignment is its preferred leader.
// A broker whose share of "preferred here but led elsewhere" partitions is above
// leader.imbalance.per.broker.percentage gets them back, each only when the preferred replica is live in the ISR
// as the incarnation it admitted (so it holds every committed record): leader-election.ts's PREFERRED election,
// the same as an operator's.
// The leader epoch goes up; the ISR stays as it is.
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import type { LiveIncarnations } from '../topic/replica-incarnations.js';
import { decideElection } from './leader-election.js';
import type { LeaderChange } from './partition-leadership.js';

export function decidePreferredLeaders(
  topics: Iterable<TopicMetadata>,
  liveBrokers: LiveIncarnations,
  controllerEpoch: number,
  imbalancePercentage: number,
): LeaderChange[] {
  const preferredCount = new Map<number, number>();
  const candidates = new Map<number, LeaderChange[]>();
  for (const topic of topics) {
    topic.assignment.replicas.forEach((replicas, partition) => {
      const preferred = replicas[0];
      const state = topic.states[partition];
      if (preferred === undefined || state === undefined) return;
      preferredCount.set(preferred, (preferredCount.get(preferred) ?? 0) + 1);
      const decision = decideElection('PREFERRED', topic, partition, liveBrokers, controllerEpoch);
      if (!decision.ok) return;
      candidates.set(preferred, [...(candidates.get(preferred) ?? []), decision.change]);
    });
  }
  const changes: LeaderChange[] = [];
  for (const [broker, moves] of candidates) {
    const imbalance = (moves.length * 100) / preferredCount.get(broker)!;
    if (imbalance > imbalancePercentage) changes.push(...moves);
  }
  return changes;
}
