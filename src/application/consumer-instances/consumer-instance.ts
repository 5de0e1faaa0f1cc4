// The fetch state of one REST Proxy v2 consumer instance, kept in memory on the broker that serves it (Kafka
// keeps the same state inside its consumer client): the position to fetch next in each partition, and one past
// the last record returned to the client with the generation it was fetched in (what an empty-body commit
// stores). Calls on one instance are serialised through `exclusive`, so two polls never run at once.
import { topicPartitionKey } from '../../group-coordinator/group-records.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';

export interface Returned {
  topic: string;
  partition: number;
  /** One past the last record returned to the client. */
  nextOffset: number;
  generation: number;
}

export class ConsumerInstance {
  lastUsedMs: number;
  lastAutoCommitMs: number;
  readonly positions = new Map<string, { topic: string; partition: number; offset: number }>();
  readonly returned = new Map<string, Returned>();
  /** Where the next poll starts its round over the partitions, so no partition starves. */
  nextPartitionIndex = 0;
  /** Aborts a poll's wait when the instance is deleted. */
  readonly closing = new AbortController();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly groupId: string,
    readonly name: string,
    nowMs: number,
  ) {
    this.lastUsedMs = nowMs;
    this.lastAutoCommitMs = nowMs;
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Keeps fetch state only for `assigned`; returns the partitions that have no position yet. */
  retainAssigned(assigned: readonly TopicPartition[]): TopicPartition[] {
    const keys = new Set(assigned.map((tp) => topicPartitionKey(tp.topic, tp.partition)));
    for (const key of this.positions.keys()) if (!keys.has(key)) this.positions.delete(key);
    for (const key of this.returned.keys()) if (!keys.has(key)) this.returned.delete(key);
    return assigned.filter((tp) => !this.positions.has(topicPartitionKey(tp.topic, tp.partition)));
  }

  seek(topic: string, partition: number, offset: number): void {
    this.positions.set(topicPartitionKey(topic, partition), { topic, partition, offset });
  }

  markReturned(topic: string, partition: number, nextOffset: number, generation: number): void {
    this.returned.set(topicPartitionKey(topic, partition), { topic, partition, nextOffset, generation });
  }
}
