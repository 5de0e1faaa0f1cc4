// The consumer group state machine's states and its legal transitions, in one table (as Kafka's ClassicGroupState
// keeps each state's valid previous states). For Brook-assigned members (REST v2 instances, WebSocket and SSE)
// the coordinator computes assignments itself (server side, as in KIP-848), so CompletingRebalance is the short
// phase in which the new generation's assignment is being written to __consumer_offsets. For Kafka clients
// (Kafka's classic protocol, classic-membership.ts lists its events) it is the phase in which the generation's
// members have their JoinGroup answers and wait for the leader's SyncGroup and its write. Either way a generation
// becomes Stable only once its record is durable.
//
//   Empty ──join──▶ PreparingRebalance ──deadline──▶ CompletingRebalance ──written──▶ Stable
//     ▲                 │  ▲                              │                              │
//     └──last member ───┘  └──── membership changed, or the write failed ────────────────┘
//   any state ──group deleted / offsets expired──▶ Dead

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/** For each state, the states it may be entered from. */
const VALID_PREVIOUS_STATES: Readonly<Record<GroupState, readonly GroupState[]>> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Empty', 'CompletingRebalance', 'Stable'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'],
};

export class IllegalGroupTransitionError extends Error {}

export function canTransition(from: GroupState, to: GroupState): boolean {
  return VALID_PREVIOUS_STATES[to].includes(from);
}

/** Throws on a transition the table does not allow: a broken invariant, not an operating error. */
export function assertTransition(group: string, from: GroupState, to: GroupState): void {
  if (!canTransition(from, to)) {
    throw new IllegalGroupTransitionError(`Group ${group} cannot move from ${from} to ${to}.`);
  }
}

/** The state names of Confluent's v3 API (ConsumerGroupState). */
export function apiGroupState(state: GroupState): string {
  switch (state) {
    case 'Empty':
      return 'EMPTY';
    case 'PreparingRebalance':
      return 'PREPARING_REBALANCE';
    case 'CompletingRebalance':
      return 'COMPLETING_REBALANCE';
    case 'Stable':
      return 'STABLE';
    case 'Dead':
      return 'DEAD';
  }
}
