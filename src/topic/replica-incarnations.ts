// Which incarnation of each broker a partition's ISR admitted (Kafka's broker epochs in the ISR, KIP-903), and the
// rules that follow from it. Every start of a broker process is a new incarnation, with a new broker epoch from
// the store's counter in its registration. An ISR member counts as in sync only as the incarnation that was
// admitted: the same broker id running a later incarnation has restarted and may have lost writes it had not
// fsynced, so the controller treats it as failed (it leaves the ISR, its leadership moves) and it comes back as a
// follower that catches up and is admitted again, with its new epoch.
//
// Stored in PartitionState.isrBrokerEpochs as {"<broker id>": <broker epoch>}, one entry per ISR member. A member
// without an entry (a state written before incarnations were recorded) counts as a failed incarnation: the
// controller's next pass replaces it, which costs one leader epoch and a rejoin, never an acknowledged record.
import type { PartitionState } from './cluster-metadata.js';

/** The live incarnation of each registered broker: broker id -> broker epoch. */
export type LiveIncarnations = ReadonlyMap<number, number>;

/** The broker epoch the ISR admitted `broker` with; undefined when it is not a member or none was recorded. */
export function admittedEpoch(state: PartitionState, broker: number): number | undefined {
  if (!state.isr.includes(broker)) return undefined;
  return state.isrBrokerEpochs?.[String(broker)];
}

/** Whether `broker` is an ISR member running, now, the incarnation the ISR admitted. */
export function isCurrentMember(state: PartitionState, broker: number, live: LiveIncarnations): boolean {
  const admitted = admittedEpoch(state, broker);
  return admitted !== undefined && live.get(broker) === admitted;
}

/** The ISR members that are live as the incarnation the ISR admitted, in ISR order. */
export function currentMembers(state: PartitionState, live: LiveIncarnations): number[] {
  return state.isr.filter((broker) => isCurrentMember(state, broker, live));
}

/** The state with the ISR cut down to `members` (a subset of its ISR), each keeping its admitted epoch. */
export function keepMembers(state: PartitionState, members: readonly number[]): PartitionState {
  const epochs: Record<string, number> = {};
  for (const broker of members) {
    const epoch = admittedEpoch(state, broker);
    if (epoch !== undefined) epochs[String(broker)] = epoch;
  }
  return { ...state, isr: [...members], isrBrokerEpochs: epochs };
}

/** The state with `broker`, as incarnation `brokerEpoch`, its only ISR member. */
export function soleMember(state: PartitionState, broker: number, brokerEpoch: number): PartitionState {
  return { ...state, isr: [broker], isrBrokerEpochs: { [String(broker)]: brokerEpoch } };
}

/** The state with `broker`, as incarnation `brokerEpoch`, added to (or re-admitted in) the ISR, kept sorted. */
export function admitMember(state: PartitionState, broker: number, brokerEpoch: number): PartitionState {
  const isr = [...new Set([...state.isr, broker])].sort((a, b) => a - b);
  return { ...state, isr, isrBrokerEpochs: { ...state.isrBrokerEpochs, [String(broker)]: brokerEpoch } };
}

/** An ISR of live brokers with their live incarnations (a new partition's first state). */
export function membersAsLive(members: readonly number[], live: LiveIncarnations): Record<string, number> {
  const epochs: Record<string, number> = {};
  for (const broker of members) {
    const epoch = live.get(broker);
    if (epoch === undefined) throw new Error(`broker ${broker} is not live: it cannot join an ISR`);
    epochs[String(broker)] = epoch;
  }
  return epochs;
}
