// The assignor port: given the group's members (with what each subscribes to and owned last generation) and the
// partition count of every subscribed topic, decide which member owns which partitions. Assignment runs on the
// coordinator (server side, as KIP-848 does), so assignors are pure functions with no I/O.

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export interface AssignorMember {
  readonly memberId: string;
  /** Static membership (KIP-345): members that name themselves are ordered by this name instead of memberId. */
  readonly groupInstanceId: string | null;
  readonly topics: readonly string[];
  /** Partitions this member owned in the previous generation (used by sticky). */
  readonly owned: readonly TopicPartition[];
}

export type AssignorName = 'range' | 'roundrobin' | 'sticky';

export interface Assignor {
  readonly name: AssignorName;
  /**
   * Returns one entry per member (possibly an empty list). Every partition of a topic that at least one member
   * subscribes to is owned by exactly one member that subscribes to that topic. Topics missing from
   * `partitionsPerTopic` (unknown or deleted) are ignored.
   */
  assign(
    members: readonly AssignorMember[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Map<string, TopicPartition[]>;
}
