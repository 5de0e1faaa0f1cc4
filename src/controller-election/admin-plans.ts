// Persisted admin commands (Kafka's /admin/delete_topics and the topic znodes a new controller picks up): a topic
// creation, partition addition or deletion touches several keys, so the controller first computes every write,
// stores that plan under ADMIN_PLANS_PREFIX, applies the writes in order, and deletes the plan last. A controller
// that dies half-way leaves the plan behind; the next controller re-applies it before it takes requests. Every
// write is a plain put or delete (idempotent, so applying twice is applying once) and is fenced by the epoch of the
// controller applying it.
//
// Write order inside plans keeps brokers from seeing half a topic: a creation writes configs and partition states
// first and the assignment (which makes the topic visible) last; a deletion removes the assignment first. A run of
// consecutive partition-state writes is applied together (at most PLAN_WRITES_CONCURRENT_MAX in flight), the run
// complete before the next write starts: a state whose partition no assignment names yet (or any more) is seen by
// nobody, so their order among themselves is not observable, and a topic of 100 partitions costs the store a few
// writes rather than 100 one after another (each a file write for the embedded store, a round trip for Redis).
//
// Plan value (JSON): {"description": string, "writes": [{"key": string, "value": string | null}]}; null deletes.
import { randomUUID } from 'node:crypto';
import { forEachBounded } from '../common/bounded-concurrency.js';
import { ADMIN_PLANS_PREFIX, PARTITION_STATE_PREFIX } from '../coordination/cluster-keys.js';
import type { CoordinationStore, Fence } from '../coordination/coordination-store.js';

/** Keys written by one plan at most: a topic of PARTITIONS_PER_TOPIC_MAX partitions plus its two other keys. */
export const PLAN_WRITES_MAX = 10_002;
/** Partition-state writes of one run in flight at once. */
export const PLAN_WRITES_CONCURRENT_MAX = 256;

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
  const apply = async (write: PlannedWrite): Promise<void> => {
    if (write.value === null) await store.delete(write.key, { fence });
    else await store.put(write.key, write.value, { fence });
  };
  for (const run of runsOf(writes)) await forEachBounded(run, PLAN_WRITES_CONCURRENT_MAX, apply);
}

/** The writes in order, consecutive partition-state writes as one run, every other write a run of its own. */
export function runsOf(writes: readonly PlannedWrite[]): PlannedWrite[][] {
  const runs: PlannedWrite[][] = [];
  let previousWasState = false;
  for (const write of writes) {
    const isState = write.key.startsWith(PARTITION_STATE_PREFIX);
    if (isState && previousWasState) runs[runs.length - 1].push(write);
    else runs.push([write]);
    previousWasState = isState;
  }
  return runs;
}
