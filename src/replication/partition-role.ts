// The role of one hosted replica (Kafka's Partition: makeLeader / makeFollower), as a transition table. The
// replica manager asks for a role from the controller's decision (the partition state in the metadata); the
// Partition (partition.ts) takes it only when the table allows it:
//
//   from \ to   none          follower                          leader
//   none        yes           yes                               yes (leadership-admission.ts decides first)
//   follower    yes           epoch >= its epoch (same epoch:   epoch > its epoch (the leadership moved here)
//                             the same fetcher goes on)
//   leader      yes           epoch > its epoch (the            epoch >= its epoch (same epoch: an ISR or replica
//                             leadership moved away)            update; a newer one: led again, rebuilt)
//
// Refused: any role in an epoch older than the one the replica is in (metadata older than what it has already
// acted on), and leaving or taking the leadership within the same epoch (a leader epoch names one leader). A
// refusal leaves the replica as it is; the next metadata decides again. `none` carries no epoch condition: the
// replica then neither leads nor follows, and taking the leadership from it is guarded by leadership-admission.ts
// (never an epoch led before a restart).

export type Role = 'none' | 'follower' | 'leader';

/** What a transition requires of the new leader epoch, against the epoch the replica is in. */
export type EpochRule = 'any' | 'not-older' | 'newer';

export const ROLE_TRANSITIONS: Readonly<Record<Role, Readonly<Record<Role, EpochRule>>>> = {
  none: { none: 'any', follower: 'any', leader: 'any' },
  follower: { none: 'any', follower: 'not-older', leader: 'newer' },
  leader: { none: 'any', follower: 'newer', leader: 'not-older' },
};

export type TransitionCheck = { allowed: true } | { allowed: false; reason: string };

/** Whether a replica that is `from` in leader epoch `fromEpoch` may become `to` in leader epoch `toEpoch`. */
export function checkTransition(from: Role, fromEpoch: number, to: Role, toEpoch: number): TransitionCheck {
  const rule = ROLE_TRANSITIONS[from][to];
  if (rule === 'any') return { allowed: true };
  if (rule === 'not-older' && toEpoch >= fromEpoch) return { allowed: true };
  if (rule === 'newer' && toEpoch > fromEpoch) return { allowed: true };
  const need = rule === 'newer' ? 'a newer epoch' : `epoch ${fromEpoch} or newer`;
  return {
    allowed: false,
    reason: `${from} in leader epoch ${fromEpoch} becomes ${to} only in ${need}, not in epoch ${toEpoch}`,
  };
}
