// Persisting a leader's ISR change (Kafka's AlterPartition / ZooKeeper's versioned partition-state write): the
// partition state is read, checked to still name this broker as leader in this leader epoch with the ISR the
// leader believes in, and replaced compare-and-set on its version. Any change in between (a controller electing
// another leader, shrinking the ISR, or another write) bumps the version, so the write fails and the leader
// relies on nothing it proposed.
//
// An expansion admits the follower as the incarnation whose fetches caught up (KIP-903), and only while that
// incarnation is the one registered (KIP-841: the controller would take any other out again at once): a broker
// that restarted meanwhile is admitted later, as its new incarnation, once that one has caught up.
import { brokerKey, partitionStateKey } from '../coordination/cluster-keys.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import type { BrokerRegistration, PartitionState } from '../topic/cluster-metadata.js';
import { admitMember, keepMembers } from '../topic/replica-incarnations.js';
import type { IsrChange } from './leader-replica-state.js';

export type IsrWriteResult = { ok: true; version: number } | { ok: false; reason: string };

export interface IsrWriteRequest {
  topic: string;
  partition: number;
  leaderId: number;
  leaderEpoch: number;
  /** The committed ISR the leader changes from. */
  currentIsr: readonly number[];
  change: IsrChange;
}

export async function writeIsr(store: CoordinationStore, request: IsrWriteRequest): Promise<IsrWriteResult> {
  const key = partitionStateKey(request.topic, request.partition);
  const current = await store.get(key);
  if (current === null) return { ok: false, reason: 'the partition state is gone' };
  const stored = JSON.parse(current.value) as PartitionState;
  if (stored.leader !== request.leaderId || stored.leaderEpoch !== request.leaderEpoch) {
    return { ok: false, reason: `the partition is led by ${stored.leader} in epoch ${stored.leaderEpoch}` };
  }
  if (!sameMembers(stored.isr, request.currentIsr)) {
    return { ok: false, reason: `the stored ISR is [${stored.isr.join(',')}]` };
  }
  const { change } = request;
  if (change.kind === 'expand') {
    const registered = await registeredEpoch(store, change.replica);
    if (registered !== change.brokerEpoch) {
      return {
        ok: false,
        reason: `broker ${change.replica} caught up as incarnation ${change.brokerEpoch}, but ${registered === null ? 'is not registered' : `is registered as incarnation ${registered}`}`,
      };
    }
  }
  const next =
    change.kind === 'expand'
      ? admitMember(stored, change.replica, change.brokerEpoch)
      : keepMembers(
          stored,
          stored.isr.filter((member) => change.isr.includes(member)),
        );
  if (!sameMembers(next.isr, change.isr)) {
    return { ok: false, reason: `the change to [${change.isr.join(',')}] does not follow from the stored ISR` };
  }
  const written = await store.put(key, JSON.stringify(next), { expectedVersion: current.version });
  if (!written.ok) return { ok: false, reason: `the partition state changed (version ${written.currentVersion})` };
  return { ok: true, version: written.version };
}

async function registeredEpoch(store: CoordinationStore, brokerId: number): Promise<number | null> {
  const registration = await store.get(brokerKey(brokerId));
  if (registration === null) return null;
  return (JSON.parse(registration.value) as BrokerRegistration).brokerEpoch;
}

export function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((member) => b.includes(member));
}
