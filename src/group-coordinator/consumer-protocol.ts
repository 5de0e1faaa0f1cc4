// Kafka's consumer protocol: the bytes that members of a group of protocol type "consumer" put in JoinGroup (their
// subscription, as each protocol's metadata) and that the leader hands out in SyncGroup (each member's
// assignment). The broker treats them as opaque for the protocol itself; Brook reads them only to show a Kafka
// group's subscriptions and owners in the REST routes, and writes them to describe the groups Brook assigns itself
// to Kafka tools (DescribeGroups). Big-endian; STRING = int16 length + UTF-8; ARRAY = int32 count + items;
// BYTES = int32 length (-1: null) + bytes. Not flexible in any version.
//
//   Subscription  v0: version int16, topics ARRAY<STRING>, user_data BYTES
//                 v1: + owned_partitions ARRAY<topic STRING, partitions ARRAY<int32>>
//                 v2: + generation_id int32          v3: + rack_id nullable STRING
//   Assignment    v0-v3: version int16, assigned_partitions ARRAY<topic STRING, partitions ARRAY<int32>>,
//                 user_data BYTES
//
// Decoding reads the fields every version has and ignores what follows, as Kafka's clients do with a newer version.
import type { TopicPartition } from './assignors/assignor.js';

/** The consumer protocol's protocol type (JoinGroup's protocol_type). */
export const CONSUMER_PROTOCOL_TYPE = 'consumer';
/** Bound on the entries of one array read from a member's bytes (a topic list, a partition list). */
const ARRAY_ENTRIES_MAX = 1_000_000;

export class ConsumerProtocolFormatError extends Error {}

class Cursor {
  private position = 0;
  constructor(private readonly bytes: Buffer) {}

  private need(count: number): void {
    if (this.position + count > this.bytes.length) throw new ConsumerProtocolFormatError('truncated');
  }
  int16(): number {
    this.need(2);
    const value = this.bytes.readInt16BE(this.position);
    this.position += 2;
    return value;
  }
  int32(): number {
    this.need(4);
    const value = this.bytes.readInt32BE(this.position);
    this.position += 4;
    return value;
  }
  string(): string {
    const length = this.int16();
    if (length < 0) throw new ConsumerProtocolFormatError('null string where a string is required');
    this.need(length);
    const value = this.bytes.toString('utf8', this.position, this.position + length);
    this.position += length;
    return value;
  }
  count(): number {
    const count = this.int32();
    if (count < 0 || count > ARRAY_ENTRIES_MAX) throw new ConsumerProtocolFormatError(`bad array length ${count}`);
    return count;
  }
}

function readPartitions(cursor: Cursor): TopicPartition[] {
  const partitions: TopicPartition[] = [];
  for (let topics = cursor.count(); topics > 0; topics--) {
    const topic = cursor.string();
    for (let count = cursor.count(); count > 0; count--) partitions.push({ topic, partition: cursor.int32() });
  }
  return partitions;
}

/** The topics a member subscribes to; throws ConsumerProtocolFormatError on bytes that are not a subscription. */
export function decodeSubscriptionTopics(metadata: Buffer): string[] {
  const cursor = new Cursor(metadata);
  const version = cursor.int16();
  if (version < 0) throw new ConsumerProtocolFormatError(`bad subscription version ${version}`);
  const topics: string[] = [];
  for (let count = cursor.count(); count > 0; count--) topics.push(cursor.string());
  return topics;
}

/** The partitions of an assignment; an empty buffer (a member the leader gave nothing) is no partitions. */
export function decodeAssignment(assignment: Buffer): TopicPartition[] {
  if (assignment.length === 0) return [];
  const cursor = new Cursor(assignment);
  const version = cursor.int16();
  if (version < 0) throw new ConsumerProtocolFormatError(`bad assignment version ${version}`);
  return readPartitions(cursor);
}

class Builder {
  private readonly parts: Buffer[] = [];
  int16(value: number): this {
    const buffer = Buffer.allocUnsafe(2);
    buffer.writeInt16BE(value);
    this.parts.push(buffer);
    return this;
  }
  int32(value: number): this {
    const buffer = Buffer.allocUnsafe(4);
    buffer.writeInt32BE(value);
    this.parts.push(buffer);
    return this;
  }
  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** A v0 subscription of `topics` with no user data. */
export function encodeSubscription(topics: readonly string[]): Buffer {
  const builder = new Builder().int16(0).int32(topics.length);
  for (const topic of topics) builder.string(topic);
  return builder.int32(-1).done();
}

/** A v0 assignment of `partitions`, grouped by topic in first-seen order, with no user data. */
export function encodeAssignment(partitions: readonly TopicPartition[]): Buffer {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions) {
    const list = byTopic.get(topic) ?? [];
    list.push(partition);
    byTopic.set(topic, list);
  }
  const builder = new Builder().int16(0).int32(byTopic.size);
  for (const [topic, list] of byTopic) {
    builder.string(topic).int32(list.length);
    for (const partition of list) builder.int32(partition);
  }
  return builder.int32(-1).done();
}
