// When this broker may take the leadership the partition state names it for (DESIGN.md §1: "a broker never leads,
// after a restart, an epoch it led before it"), pure. Two conditions, each enough on its own to keep a restarted
// broker from taking back a leadership it held before:
//
//   1. the state names this broker as the incarnation it runs now (isrBrokerEpochs, replica-incarnations.ts): a
//      state naming an earlier incarnation was written before this process started, and the controller, which
//      handles the restart as a failure, will replace it with leader epoch + 1;
//   2. the leader epoch is above every epoch the log knew when it was opened: its epoch checkpoint as read, with
//      the epochs of the batches recovery re-scanned (log-loader.ts), before recovery cut anything off. Whatever
//      epoch this broker led before a kill -9 is there, since a leader records its epoch in the checkpoint before
//      it leads. That write is not fsynced (local-log.ts), so after a power loss this rule covers every epoch of
//      which a batch survived, and rule 1 the rest.
//
// Until both hold, the broker serves the partition as nothing (no leader state, no fetcher) and waits for the
// controller. assertMayLead is the assertion at the one place leadership is taken: passing the check first is the
// caller's job, so a failure there is a broken invariant.
import type { PartitionState } from '../topic/cluster-metadata.js';
import { admittedEpoch } from '../topic/replica-incarnations.js';

export interface Incarnation {
  brokerId: number;
  brokerEpoch: number;
}

export type Admission = { lead: true } | { lead: false; reason: string };

export function leadershipAdmission(state: PartitionState, self: Incarnation, latestEpochAtOpen: number): Admission {
  if (state.leader !== self.brokerId) return { lead: false, reason: `broker ${state.leader} is named leader` };
  if (!state.isr.includes(self.brokerId)) {
    return { lead: false, reason: `named leader but not in the ISR [${state.isr.join(',')}]` };
  }
  const admitted = admittedEpoch(state, self.brokerId);
  if (admitted !== self.brokerEpoch) {
    return {
      lead: false,
      reason:
        `named leader in epoch ${state.leaderEpoch} as incarnation ${admitted ?? 'unknown'}, but this is ` +
        `incarnation ${self.brokerEpoch}: waiting for the controller to hand it over with a new leader epoch`,
    };
  }
  if (state.leaderEpoch <= latestEpochAtOpen) {
    return {
      lead: false,
      reason:
        `named leader in epoch ${state.leaderEpoch}, not above epoch ${latestEpochAtOpen} of its epoch ` +
        'checkpoint at start-up: waiting for a new leader epoch',
    };
  }
  return { lead: true };
}

export function assertMayLead(state: PartitionState, self: Incarnation, latestEpochAtOpen: number): void {
  const admission = leadershipAdmission(state, self, latestEpochAtOpen);
  if (!admission.lead)
    throw new Error(`refusing to lead (invariant: never an epoch led before a restart): ${admission.reason}`);
}
