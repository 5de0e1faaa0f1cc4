// What a streaming group member (group-member.ts: a WebSocket group subscription, an SSE group stream) needs from
// the group coordinator, as a small port (so the member does not depend on the coordinator's internals), and its
// adapter over GroupCoordinator. A streaming member is a coordinator member of kind 'ws' with server-side
// assignment: the coordinator computes each generation and calls the watcher with the member's partitions (null
// once the member is gone). In a cluster the coordinator may be another broker: routing-group-port.ts sends the
// same calls there.
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';

/** The Nest token of the StreamGroupPort the streaming edges share (streaming.module.ts). */
export const STREAM_GROUP_PORT = Symbol('StreamGroupPort');

export interface GroupAssignment {
  generation: number;
  partitions: readonly TopicPartition[];
}

export interface StreamGroupPort {
  join(
    group: string,
    member: { memberId: string; groupInstanceId: string | null; topics: readonly string[]; sessionTimeoutMs: number },
  ): Promise<void>;
  /** Calls `listener` after every generation the member is part of, and with null once it is gone. */
  watch(group: string, memberId: string, listener: (assignment: GroupAssignment | null) => void): () => void;
  /** The member's partitions in the current generation (a static member that rejoined keeps its own). */
  assignment(group: string, memberId: string): Promise<GroupAssignment | null>;
  /** Extends the member's session; false when the coordinator no longer knows it. */
  heartbeat(group: string, memberId: string): Promise<boolean>;
  leave(group: string, memberId: string): Promise<void>;
  /** Stores next-to-read offsets; rejects (40903) a partition not owned since `generations` says it was read. */
  commit(
    group: string,
    memberId: string,
    offsets: ReadonlyArray<{ topic: string; partition: number; offset: number }>,
    generations: ReadonlyMap<string, number>,
  ): Promise<void>;
  committed(group: string, topic: string, partition: number): Promise<number | null>;
}

export class CoordinatorGroupPort implements StreamGroupPort {
  constructor(private readonly coordinator: GroupCoordinator) {}

  join(
    group: string,
    member: { memberId: string; groupInstanceId: string | null; topics: readonly string[]; sessionTimeoutMs: number },
  ): Promise<void> {
    return this.coordinator.join(group, {
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.memberId,
      kind: 'ws',
      subscription: { topics: member.topics },
      sessionTimeoutMs: member.sessionTimeoutMs,
      rebalanceTimeoutMs: member.sessionTimeoutMs,
    });
  }

  watch(group: string, memberId: string, listener: (assignment: GroupAssignment | null) => void): () => void {
    return this.coordinator.watchMember(group, memberId, (assignment) =>
      listener(assignment === null ? null : { generation: assignment.generation, partitions: assignment.partitions }),
    );
  }

  async assignment(group: string, memberId: string): Promise<GroupAssignment | null> {
    const assignment = this.coordinator.assignment(group, memberId);
    return assignment === null ? null : { generation: assignment.generation, partitions: assignment.partitions };
  }

  async heartbeat(group: string, memberId: string): Promise<boolean> {
    return this.coordinator.heartbeat(group, memberId);
  }

  async leave(group: string, memberId: string): Promise<void> {
    this.coordinator.leave(group, memberId);
  }

  commit(
    group: string,
    memberId: string,
    offsets: ReadonlyArray<{ topic: string; partition: number; offset: number }>,
    generations: ReadonlyMap<string, number>,
  ): Promise<void> {
    return this.coordinator.commit(group, memberId, offsets, generations);
  }

  async committed(group: string, topic: string, partition: number): Promise<number | null> {
    return this.coordinator.committed(group, topic, partition);
  }
}
