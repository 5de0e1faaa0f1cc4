// The coordinator's writes (handle -> records -> append -> replay): the records of one group go to the group's
// __consumer_offsets partition as one batch, in order with every other write to that partition (one chain per
// partition), with acks=all, and are replayed into the in-memory group only once durable.
import type { LoggerService } from '@nestjs/common';
import type { Clock } from '../common/clock.js';
import { encodeBatch } from '../partition-log/record-batch.js';
import type { ReplicaManager } from '../replication/replica-manager.service.js';
import { GROUP_METADATA_TOPIC_NAME } from '../topic/topic-name.js';
import type { TopicPartition } from './assignors/assignor.js';
import type { ConsumerGroup } from './consumer-group.js';
import { encodeGroupRecord, type GroupRecord } from './group-records.js';
import type { HeldGroups } from './held-groups.js';

export class GroupWriter {
  private readonly writeChains = new Map<number, Promise<unknown>>();

  constructor(
    private readonly held: HeldGroups,
    private readonly replicas: ReplicaManager,
    private readonly clock: Clock,
    private readonly logger: LoggerService,
    /** Creates __consumer_offsets on first use and waits for the partitions led here to load. */
    private readonly ensureOffsetsTopic: () => Promise<void>,
  ) {}

  /**
   * Appends the records of one group to its offsets partition (one batch, in order with every other write to
   * that partition) and replays them once written.
   */
  async append(groupId: string, records: GroupRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.ensureOffsetsTopic();
    this.held.assertCoordinator(groupId);
    const partition = this.held.offsetsPartition(groupId);
    const timestamp = this.clock.nowMs();
    const batch = encodeBatch(records.map((record) => ({ ...encodeGroupRecord(record), timestamp })));
    const previous = this.writeChains.get(partition) ?? Promise.resolve();
    const write = previous
      .catch(() => undefined)
      .then(() => this.replicas.produce(GROUP_METADATA_TOPIC_NAME, partition, batch, 'all'));
    this.writeChains.set(partition, write);
    try {
      await write;
    } finally {
      if (this.writeChains.get(partition) === write) this.writeChains.delete(partition);
    }
    const group = this.held.groupOrCreate(groupId);
    for (const record of records) group.replay(record, 'live');
    if (group.state === 'Dead') this.held.groups.delete(groupId);
  }

  /**
   * Removes from each group the offsets of the partitions `deletedOf` names, at once in memory, then writes their
   * tombstones. A failed write is logged (as Kafka does); the periodic expiry retries offsets of topics that are gone.
   */
  async removeOffsets(
    groups: readonly ConsumerGroup[],
    deletedOf: (group: ConsumerGroup) => readonly TopicPartition[],
  ): Promise<void> {
    for (const group of groups) {
      const tombstones = group.removeOffsets(deletedOf(group));
      if (tombstones.length === 0) continue;
      try {
        await this.append(group.groupId, tombstones);
      } catch (error) {
        this.logger.warn(
          `group ${group.groupId}: removing offsets of deleted partitions failed: ${(error as Error).message}`,
        );
      }
    }
  }
}
