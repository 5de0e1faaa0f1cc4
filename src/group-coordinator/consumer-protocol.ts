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
import { ByteReader, ByteWriter } from './byte-codec.js';

/** The consumer protocol's protocol type (JoinGroup's protocol_type). */
export const CONSUMER_PROTOCOL_TYPE = 'consumer';
/** Bound on the entries of one array read from a member's bytes (a topic list, a partition list). */
const ARRAY_ENTRIES_MAX = 1_000_000;

export class ConsumerProtocolFormatError extends Error {}

const protocolError = (message: string) => new ConsumerProtocolFormatError(message);

function readPartitions(cursor: ByteReader): TopicPartition[] {
  const partitions: TopicPartition[] = [];
  for (let topics = cursor.count(ARRAY_ENTRIES_MAX); topics > 0; topics--) {
    const topic = cursor.string();
    for (let count = cursor.count(ARRAY_ENTRIES_MAX); count > 0; count--)
      partitions.push({ topic, partition: cursor.int32() });
  }
  return partitions;
}

/** The topics a member subscribes to; throws ConsumerProtocolFormatError on bytes that are not a subscription. */
export function decodeSubscriptionTopics(metadata: Buffer): string[] {
  const cursor = new ByteReader(metadata, protocolError);
  const version = cursor.int16();
  if (version < 0) throw new ConsumerProtocolFormatError(`bad subscription version ${version}`);
  const topics: string[] = [];
  for (let count = cursor.count(ARRAY_ENTRIES_MAX); count > 0; count--) topics.push(cursor.string());
  return topics;
}

/** The partitions of an assignment; an empty buffer (a member the leader gave nothing) is no partitions. */
export function decodeAssignment(assignment: Buffer): TopicPartition[] {
  if (assignment.length === 0) return [];
  const cursor = new ByteReader(assignment, protocolError);
  const version = cursor.int16();
  if (version < 0) throw new ConsumerProtocolFormatError(`bad assignment version ${version}`);
  return readPartitions(cursor);
}

/** A v0 subscription of `topics` with no user data. */
export function encodeSubscription(topics: readonly string[]): Buffer {
  const builder = new ByteWriter(protocolError).int16(0).int32(topics.length);
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
  const builder = new ByteWriter(protocolError).int16(0).int32(byTopic.size);
  for (const [topic, list] of byTopic) {
    builder.string(topic).int32(list.length);
    for (const partition of list) builder.int32(partition);
  }
  return builder.int32(-1).done();
}
