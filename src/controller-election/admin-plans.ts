// Persisted admin commands (Kafka's /admin/delete_topics and the topic znodes a new controller picks up): a topic
// creation, partition addition or deletion touches several keys, so the controller first computes every write,
// stores that plan under ADMIN_PLANS_PREFIX, applies the writes in order, and deletes the plan last. A controller
// that dies half-way leaves the plan behind; the next controller re-applies it before it takes requests. Every
// write is a plain put or delete (idempotent, so applying twice is applying once) and is fenced by the epoch of the
// controller applying it.
//
// Write order inside plans keeps brokers from seeing half a topic: a creation writes configs and partition states
// first and the assignment (which makes the topic visible) last; a deletion removes the assignment first.
//
// Plan value (JSON): {"description": string, "writes": [{"key": string, "value": string | null}]}; null deletes.
import { randomUUID } from 'node:crypto';
import { ADMIN_PLANS_PREFIX } from '../coordination/cluster-keys.js';
import type { CoordinationStore, Fence } from '../coordination/coordination-store.js';

/** Keys written by one plan at most: a topic of PARTITIONS_PER_TOPIC_MAX partitions plus its two other keys. */
export const PLAN_WRITES_MAX = 10_002;

export interface PlannedWrite {
  key: string;
  /** null: delete the key. */
  value: string | null;
}

export interface AdminPlan {
  description: string;
  writes: PlannedWrite[];
}

/** Stores the plan, applies it, and removes it; throws (leaving the plan for the next controller) on failure. */
export async function executePlan(store: CoordinationStore, plan: AdminPlan, fence: Fence): Promise<void> {
  if (plan.writes.length > PLAN_WRITES_MAX) throw new RangeError(`a plan of ${plan.writes.length} writes is too big`);
  const key = `${ADMIN_PLANS_PREFIX}${randomUUID()}`;
  await store.put(key, JSON.stringify(plan), { fence, expectedVersion: 0 });
  await applyWrites(store, plan.writes, fence);
  await store.delete(key, { fence });
}

/** Re-applies every plan a previous controller left; returns their descriptions. */
export async function resumePlans(store: CoordinationStore, fence: Fence): Promise<string[]> {
  const resumed: string[] = [];
  for (const entry of await store.list(ADMIN_PLANS_PREFIX)) {
    const plan = JSON.parse(entry.value) as AdminPlan;
    await applyWrites(store, plan.writes, fence);
    await store.delete(entry.key, { fence, expectedVersion: entry.version });
    resumed.push(plan.description);
  }
  return resumed;
}

async function applyWrites(store: CoordinationStore, writes: PlannedWrite[], fence: Fence): Promise<void> {
  for (const write of writes) {
    if (write.value === null) await store.delete(write.key, { fence });
    else await store.put(write.key, write.value, { fence });
  }
}
