// Persisting a leader's ISR change (Kafka's AlterPartition / ZooKeeper's versioned partition-state write): the
// partition state is read, checked to still name this broker as leader in this leader epoch with the ISR the
// leader believes in, and replaced compare-and-set on its version. Any change in between (a controller electing
// another leader, shrinking the ISR, or another write) bumps the version, so the write fails and the leader
// relies on nothing it proposed.
import { partitionStateKey } from '../coordination/cluster-keys.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import type { PartitionState } from '../topic/cluster-metadata.js';

export type IsrWriteResult = { ok: true; version: number } | { ok: false; reason: string };

export interface IsrWriteRequest {
  topic: string;
  partition: number;
  leaderId: number;
  leaderEpoch: number;
  /** The committed ISR the leader changes from. */
  currentIsr: readonly number[];
  nextIsr: readonly number[];
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
  const next: PartitionState = { ...stored, isr: [...request.nextIsr] };
  const written = await store.put(key, JSON.stringify(next), { expectedVersion: current.version });
  if (!written.ok) return { ok: false, reason: `the partition state changed (version ${written.currentVersion})` };
  return { ok: true, version: written.version };
}

export function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((member) => b.includes(member));
}
