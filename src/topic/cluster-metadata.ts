// The cluster metadata every broker caches: topics with their replica assignment, partition states, configs,
// brokers. Plain data, stored as JSON in the coordination store under the keys of cluster-keys.ts.

export interface TopicAssignment {
  topicId: string;
  name: string;
  /** replicas[p] = broker ids holding partition p; the first is the preferred leader. */
  replicas: number[][];
}

export interface PartitionState {
  /** -1 when no replica can lead. */
  leader: number;
  leaderEpoch: number;
  isr: number[];
  /**
   * The incarnation (broker epoch) of each ISR member that was admitted, by broker id (KIP-903; see
   * replica-incarnations.ts). A member without an entry, or whose broker now runs another incarnation, is not
   * in sync: it restarted, and may have lost what it held.
   */
  isrBrokerEpochs?: Record<string, number>;
  controllerEpoch: number;
  /** During a partition reassignment (KIP-455): the replicas being added, and those to be removed once done. */
  addingReplicas?: number[];
  removingReplicas?: number[];
}

export interface BrokerRegistration {
  brokerId: number;
  url: string;
  /** The broker's advertised Kafka listener; absent when its Kafka listener is off. */
  kafka?: { host: string; port: number };
  brokerEpoch: number;
  highestControllerEpochSeen: number;
  /** The random id kept in the broker's data dir: a registration with the same id is this broker's own, earlier. */
  directoryId?: string;
  /** The highest producer-id block the broker took or saw (its data dir's broker-meta.json). */
  highestProducerIdBlockSeen?: number;
}

export const NO_LEADER = -1;

export interface TopicMetadata {
  assignment: TopicAssignment;
  states: PartitionState[];
  stateVersions: number[];
  configs: Record<string, string>;
}
