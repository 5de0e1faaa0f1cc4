// The __consumer_offsets topic as the group coordinator uses it: which broker coordinates a group (the leader of
// the group's offsets partition), whether this broker serves it now (it leads that partition and has replayed it),
// the topic's creation on first use, and the replay of one partition's records at load. Plain functions over the
// metadata, the controller and the replica manager; the coordinator keeps the state.
import type { LoggerService } from '@nestjs/common';
import { BrookError, errors } from '../common/brook-error.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { ControllerService } from '../controller-election/controller.service.js';
import { batchesIn, decodeRecords } from '../partition-log/record-batch.js';
import type { ReplicaManager } from '../replication/replica-manager.service.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import { GROUP_METADATA_TOPIC_NAME } from '../topic/topic-name.js';
import { decodeGroupRecord, GroupRecordFormatError, offsetsPartitionFor, type GroupRecord } from './group-records.js';

/** Bytes read per step when replaying an offsets partition at start-up. */
const LOAD_READ_BYTES = 4 * 1024 * 1024;

/** Whether this broker serves a group now: it leads the group's offsets partition and has loaded it. */
export type CoordinatorState = 'ready' | 'not-coordinator' | 'loading' | 'no-offsets-topic';

/** The broker coordinating the group (the leader of its offsets partition), or null before the topic exists. */
export function coordinatorOf(topic: TopicMetadata | undefined, groupId: string): number | null {
  if (topic === undefined) return null;
  return topic.states[offsetsPartitionFor(groupId, topic.assignment.replicas.length)]?.leader ?? null;
}

export function coordinatorState(
  topic: TopicMetadata | undefined,
  groupId: string,
  brokerId: number,
  loaded: ReadonlySet<number>,
): CoordinatorState {
  if (topic === undefined) return 'no-offsets-topic';
  const partition = offsetsPartitionFor(groupId, topic.assignment.replicas.length);
  if (topic.states[partition]?.leader !== brokerId) return 'not-coordinator';
  return loaded.has(partition) ? 'ready' : 'loading';
}

/** Throws unless this broker coordinates the group and has loaded it (a retriable error otherwise). */
export function assertCoordinator(
  topic: TopicMetadata | undefined,
  groupId: string,
  brokerId: number,
  loaded: ReadonlySet<number>,
): void {
  if (topic === undefined) return; // no group exists yet anywhere; creating one creates the topic first
  const partition = offsetsPartitionFor(groupId, topic.assignment.replicas.length);
  if (topic.states[partition]?.leader !== brokerId) {
    throw errors.retriable(`Broker ${brokerId} is not the coordinator of group ${groupId}; retry.`);
  }
  if (!loaded.has(partition)) {
    throw errors.retriable(`The coordinator of group ${groupId} is loading its state; retry.`);
  }
}

/**
 * Creates __consumer_offsets (compacted, with the configured partitions, replication and segment size); a topic
 * created meanwhile by another broker is fine, too few brokers for its replication is a retriable error.
 */
export async function createOffsetsTopic(
  controller: ControllerService,
  config: BrokerConfig,
  exists: () => boolean,
): Promise<void> {
  try {
    await controller.createTopic({
      name: GROUP_METADATA_TOPIC_NAME,
      partitions: config.groups.offsetsTopicNumPartitions,
      replicationFactor: config.groups.offsetsTopicReplicationFactor,
      configs: [
        { name: 'cleanup.policy', value: 'compact' },
        { name: 'segment.bytes', value: String(config.groups.offsetsTopicSegmentBytes) },
      ],
      internal: true,
    });
  } catch (error) {
    if (!(error instanceof BrookError && error.errorCode === 40002)) throw error;
    if (exists()) return; // created meanwhile
    throw errors.retriable(
      `The offsets topic cannot be created yet (offsets.topic.replication.factor is ${config.groups.offsetsTopicReplicationFactor}): ${error.message}`,
    );
  }
}

/**
 * Replays one offsets partition from its start to its high watermark into `replay`; a record of an unknown
 * format is skipped with a warning. Returns how many records were replayed.
 */
export async function replayOffsetsPartition(
  replicas: ReplicaManager,
  partition: number,
  replay: (record: GroupRecord) => void,
  logger: LoggerService,
): Promise<number> {
  const { earliest, latest } = replicas.offsetsNow(GROUP_METADATA_TOPIC_NAME, partition);
  let offset = earliest;
  let count = 0;
  while (offset < latest) {
    const read = await replicas.read(GROUP_METADATA_TOPIC_NAME, partition, offset, {
      maxBytes: LOAD_READ_BYTES,
      waitMs: 0,
    });
    if (read.batches.length === 0) break;
    for (const { header, position } of batchesIn(read.batches)) {
      for (const record of decodeRecords(read.batches.subarray(position, position + header.sizeBytes))) {
        if (record.offset < offset || record.key === null) continue;
        try {
          replay(decodeGroupRecord(record.key, record.value));
          count++;
        } catch (error) {
          if (!(error instanceof GroupRecordFormatError)) throw error;
          logger.warn(`skipping ${GROUP_METADATA_TOPIC_NAME}-${partition}@${record.offset}: ${error.message}`);
        }
      }
    }
    offset = read.nextOffset ?? latest;
  }
  return count;
}
