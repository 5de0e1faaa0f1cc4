// What the replica manager last applied to each hosted partition, so that a metadata change applies roles only to
// the partitions it touched. A restart's controller pass reaches a broker as several store changes (its leader
// moves are written 256 at a time), each a whole metadata load; at 10,000 partitions every one of them applied all
// 10,000 again (0.1-1.5 s a pass, 6-8 passes while the partitions were getting their new leaders).
//
// A partition is skipped only when all of these hold, else its role is applied as before:
//   - the telling is not a retelling (metadata-cache.ts: a fenced follower, an ISR change's outcome, new broker
//     configs, a failed telling, the 30 s safety net, a new store incarnation retell every partition);
//   - its last application succeeded with the same partition-state version, replicas and log (a re-created topic
//     is a new log), by the same incarnation of this broker;
//   - the role it holds is still the one that application gave it (`holds`, checked by the caller: leading in the
//     state's epoch, following its leader in its epoch with a fetcher on this log, or none).
import type { PartitionState } from '../topic/cluster-metadata.js';

export interface RoleInput {
  version: number;
  replicas: readonly number[];
  log: object;
  brokerEpoch: number;
  state: PartitionState;
}

export class AppliedRoles {
  private readonly applied = new Map<string, RoleInput>();

  /** Whether `input` is what was last applied to `key` successfully (the caller checks that the role still holds). */
  unchanged(key: string, input: RoleInput): boolean {
    const last = this.applied.get(key);
    return (
      last !== undefined &&
      last.version === input.version &&
      last.log === input.log &&
      last.brokerEpoch === input.brokerEpoch &&
      last.state.leader === input.state.leader &&
      last.state.leaderEpoch === input.state.leaderEpoch &&
      sameReplicas(last.replicas, input.replicas)
    );
  }

  /** `input` was applied to `key` successfully. */
  record(key: string, input: RoleInput): void {
    this.applied.set(key, input);
  }

  /** `key`'s role change failed, or it is no longer hosted: the next telling applies it again. */
  forget(key: string): void {
    this.applied.delete(key);
  }
}

function sameReplicas(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((replica, i) => replica === b[i]);
}
