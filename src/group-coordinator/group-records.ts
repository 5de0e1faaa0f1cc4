// The records of the internal topic __consumer_offsets: what the group coordinator writes and replays.
//
// Keys start with an int16 version that says what the record is (Kafka's convention; STRING = int16 length +
// UTF-8 bytes, integers big-endian):
//   0 or 1  offset commit     key: version, group STRING, topic STRING, partition int32          (Kafka's layout)
//                             value v3: version int16 = 3, offset int64, leader_epoch int32, metadata STRING,
//                             commit_timestamp int64                                             (Kafka's layout)
//   2       group metadata    key: version, group STRING                                          (Kafka's layout)
//                             value: version int16 = 100, then UTF-8 JSON of GroupMetadataValue   (Brook's own:
//                             members, generation and the server-side assignment, written once per generation;
//                             for a group of Kafka clients (classic protocol) also `classic`: the protocol type
//                             and name and the leader, and per member its host and, base64, the selected
//                             protocol's metadata and the assignment bytes the leader gave it)
//   100     consumer instance key: version, group STRING, instance STRING                         (Brook's own)
//                             value: version int16 = 100, then UTF-8 JSON of InstanceValue
// A null value is a tombstone: the topic is compacted, so the latest value per key is the state.
import type { TopicPartition } from './assignors/assignor.js';
import { ByteReader, ByteWriter } from './byte-codec.js';

export const OFFSET_COMMIT_KEY_VERSION = 1;
export const GROUP_METADATA_KEY_VERSION = 2;
export const INSTANCE_KEY_VERSION = 100;
export const OFFSET_COMMIT_VALUE_VERSION = 3;
export const BROOK_JSON_VALUE_VERSION = 100;

/** A pattern keeps who subscribed (principal and client host): it matches only topics they may DESCRIBE. */
export type Subscription =
  | { readonly topics: readonly string[] }
  | { readonly pattern: string; readonly principal?: string; readonly host?: string };
/** REST v2 instances and streaming (WebSocket, SSE) members, assigned by Brook; Kafka clients assign themselves. */
export type MemberKind = 'rest' | 'ws' | 'kafka';

export interface CommittedOffset {
  offset: number;
  leaderEpoch: number;
  metadata: string;
  commitTimestampMs: number;
}

export interface PersistedMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  kind: MemberKind;
  subscription: Subscription;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  assignment: TopicPartition[];
  /** A Kafka client's classic-protocol state (kind 'kafka' only). */
  classic?: PersistedClassicMember;
}

export interface PersistedClassicMember {
  clientHost: string;
  /** Base64 of the member's metadata for the group's selected protocol. */
  metadata: string;
  /** Base64 of the assignment bytes the leader gave the member. */
  assignment: string;
}

/** The group-level state of Kafka's classic protocol, present on the records of a group of Kafka clients. */
export interface PersistedClassicGroup {
  protocolType: string;
  protocolName: string | null;
  leader: string | null;
}

export interface GroupMetadataValue {
  generation: number;
  assignor: string;
  /** Wall-clock time the group entered its current state (offset retention counts from when it became empty). */
  stateTimestampMs: number;
  members: PersistedMember[];
  classic?: PersistedClassicGroup;
}

/** The embedded format a v2 consumer instance answers records in (Confluent's, schema formats included). */
export type InstanceFormat = 'binary' | 'json' | 'avro' | 'jsonschema' | 'protobuf';

/** A REST Proxy v2 consumer instance: kept with its group so any coordinator can serve it after a restart. */
export interface InstanceValue {
  format: InstanceFormat;
  autoOffsetReset: 'earliest' | 'latest' | 'none';
  autoCommitEnable: boolean;
  fetchMinBytes: number;
  requestTimeoutMs: number;
  subscription: Subscription | null;
  assignment: TopicPartition[] | null;
  createdAtMs: number;
}

export type GroupRecord =
  | { kind: 'offset'; group: string; topic: string; partition: number; value: CommittedOffset | null }
  | { kind: 'group'; group: string; value: GroupMetadataValue | null }
  | { kind: 'instance'; group: string; instance: string; value: InstanceValue | null };

export class GroupRecordFormatError extends Error {}

/** group-records' errors: a truncated record says so. */
const recordError = (message: string) =>
  new GroupRecordFormatError(message === 'truncated' ? 'record is truncated' : message);

const newWriter = () => new ByteWriter(recordError);
const newReader = (bytes: Buffer) => new ByteReader(bytes, recordError);

function jsonValue(value: object): Buffer {
  return newWriter()
    .int16(BROOK_JSON_VALUE_VERSION)
    .raw(Buffer.from(JSON.stringify(value), 'utf8'))
    .done();
}

function readJsonValue<T>(reader: ByteReader): T {
  const version = reader.int16();
  if (version !== BROOK_JSON_VALUE_VERSION) throw new GroupRecordFormatError(`unknown value version ${version}`);
  try {
    return JSON.parse(reader.rest().toString('utf8')) as T;
  } catch (error) {
    throw new GroupRecordFormatError(`value is not valid JSON: ${(error as Error).message}`);
  }
}

export function encodeGroupRecord(record: GroupRecord): { key: Buffer; value: Buffer | null } {
  switch (record.kind) {
    case 'offset': {
      const key = newWriter()
        .int16(OFFSET_COMMIT_KEY_VERSION)
        .string(record.group)
        .string(record.topic)
        .int32(record.partition)
        .done();
      if (record.value === null) return { key, value: null };
      const value = newWriter()
        .int16(OFFSET_COMMIT_VALUE_VERSION)
        .int64(record.value.offset)
        .int32(record.value.leaderEpoch)
        .string(record.value.metadata)
        .int64(record.value.commitTimestampMs)
        .done();
      return { key, value };
    }
    case 'group': {
      const key = newWriter().int16(GROUP_METADATA_KEY_VERSION).string(record.group).done();
      return { key, value: record.value === null ? null : jsonValue(record.value) };
    }
    case 'instance': {
      const key = newWriter().int16(INSTANCE_KEY_VERSION).string(record.group).string(record.instance).done();
      return { key, value: record.value === null ? null : jsonValue(record.value) };
    }
  }
}

/** Decodes one stored record; throws GroupRecordFormatError on bytes that are not a record of this topic. */
export function decodeGroupRecord(key: Buffer, value: Buffer | null): GroupRecord {
  const keyReader = newReader(key);
  const keyVersion = keyReader.int16();
  switch (keyVersion) {
    case 0:
    case OFFSET_COMMIT_KEY_VERSION: {
      const group = keyReader.string();
      const topic = keyReader.string();
      const partition = keyReader.int32();
      if (value === null) return { kind: 'offset', group, topic, partition, value: null };
      const reader = newReader(value);
      const valueVersion = reader.int16();
      if (valueVersion !== OFFSET_COMMIT_VALUE_VERSION) {
        throw new GroupRecordFormatError(`unsupported offset commit value version ${valueVersion}`);
      }
      const offset = reader.int64();
      const leaderEpoch = reader.int32();
      const metadata = reader.string();
      const commitTimestampMs = reader.int64();
      return { kind: 'offset', group, topic, partition, value: { offset, leaderEpoch, metadata, commitTimestampMs } };
    }
    case GROUP_METADATA_KEY_VERSION: {
      const group = keyReader.string();
      return {
        kind: 'group',
        group,
        value: value === null ? null : readJsonValue<GroupMetadataValue>(newReader(value)),
      };
    }
    case INSTANCE_KEY_VERSION: {
      const group = keyReader.string();
      const instance = keyReader.string();
      return {
        kind: 'instance',
        group,
        instance,
        value: value === null ? null : readJsonValue<InstanceValue>(newReader(value)),
      };
    }
    default:
      throw new GroupRecordFormatError(`unknown key version ${keyVersion}`);
  }
}

/**
 * Kafka's choice of the __consumer_offsets partition for a group: Utils.abs(groupId.hashCode()) % partitions,
 * with Java's String.hashCode over UTF-16 code units, so a group maps to the same partition as in Kafka.
 */
export function offsetsPartitionFor(groupId: string, partitions: number): number {
  let hash = 0;
  for (let i = 0; i < groupId.length; i++) hash = (Math.imul(hash, 31) + groupId.charCodeAt(i)) | 0;
  const abs = hash === -2147483648 ? 0 : Math.abs(hash);
  return abs % partitions;
}

export function topicPartitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
