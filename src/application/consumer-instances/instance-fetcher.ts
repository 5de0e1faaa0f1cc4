// One REST Proxy v2 consumer instance's reads (consumer-instances.service.ts runs the poll loop around them): where
// each newly assigned partition starts (the group's committed offset when the log still holds it, else
// auto.offset.reset), and one round over the assigned partitions that appends records to a poll's answer within
// its byte budget, starting where the previous round stopped so that no partition starves; in a schema format the
// records are decoded with the registry's schemas. A position the log no longer holds (retention) is reset as
// auto.offset.reset says.
import { BrookError, errors } from '../../common/brook-error.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import type { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { topicPartitionKey, type InstanceValue } from '../../group-coordinator/group-records.js';
import type { Metrics } from '../../metrics/metrics.service.js';
import { batchesIn, decodeRecords } from '../../partition-log/record-batch.js';
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import { recordJson } from '../record-json.js';
import { isSchemaReadFormat } from '../schemas/schema-fields.js';
import type { SchemaSerde } from '../schemas/schema-serde.service.js';
import type { ConsumerInstance } from './consumer-instance.js';
import type { PollAnswer } from './poll-answer.js';

/** Bytes read from one partition per step of a poll. */
const POLL_READ_BYTES_MAX = 1024 * 1024;

export class InstanceFetcher {
  constructor(
    private readonly coordinator: GroupCoordinator,
    private readonly router: PartitionRouter,
    private readonly metrics: Metrics,
    private readonly schemas: SchemaSerde,
  ) {}

  /** One round over the assigned partitions; adds records to `out` and returns the key+value bytes added. */
  async fetchOnce(
    runtime: ConsumerInstance,
    assigned: TopicPartition[],
    generation: number,
    out: PollAnswer,
    budgetBytes: number,
  ): Promise<number> {
    let added = 0;
    const count = assigned.length;
    const format = this.coordinator.instance(runtime.groupId, runtime.name)?.format ?? 'binary';
    for (let step = 0; step < count && added < budgetBytes; step++) {
      const index = (runtime.nextPartitionIndex + step) % count;
      const { topic, partition } = assigned[index];
      const key = topicPartitionKey(topic, partition);
      const position = runtime.positions.get(key);
      if (position === undefined) continue;
      let read;
      try {
        read = await this.router.read(topic, partition, position.offset, {
          maxBytes: Math.min(POLL_READ_BYTES_MAX, Math.max(budgetBytes - added, 1)),
          waitMs: 0,
        });
      } catch (error) {
        if (error instanceof BrookError && error.errorCode === 40002) {
          await this.resetOutOfRange(runtime, topic, partition);
          continue;
        }
        throw error;
      }
      if (isSchemaReadFormat(format)) await this.schemas.prepare(read.batches);
      let next = position.offset;
      const before = out.count;
      out.reading(read.batches, budgetBytes - added);
      outer: for (const { header, position: at } of batchesIn(read.batches)) {
        for (const record of decodeRecords(read.batches.subarray(at, at + header.sizeBytes))) {
          if (record.offset < next) continue;
          const size = (record.key?.length ?? 0) + (record.value?.length ?? 0);
          if (out.count > 0 && added + size > budgetBytes) break outer;
          out.add(recordJson(record, partition, format, topic, this.schemas.lookup));
          added += size;
          next = record.offset + 1;
        }
        next = Math.max(next, header.baseOffset + header.lastOffsetDelta + 1);
      }
      this.metrics.consumed(topic, out.count - before, read.batches.length);
      if (next > position.offset) {
        runtime.seek(topic, partition, next);
        runtime.markReturned(topic, partition, next, generation);
        runtime.nextPartitionIndex = (index + 1) % count;
      }
    }
    return added;
  }

  private async resetOutOfRange(runtime: ConsumerInstance, topic: string, partition: number): Promise<void> {
    const value = this.coordinator.instance(runtime.groupId, runtime.name);
    runtime.seek(topic, partition, await this.resetPosition(value, topic, partition));
  }

  async initPositions(runtime: ConsumerInstance, value: InstanceValue, assigned: TopicPartition[]): Promise<void> {
    for (const { topic, partition } of runtime.retainAssigned(assigned)) {
      const committed = this.coordinator.committed(runtime.groupId, topic, partition);
      const { earliest, latest } = await this.router.offsets(topic, partition);
      const offset =
        committed !== null && committed >= earliest && committed <= latest
          ? committed
          : await this.resetPosition(value, topic, partition);
      runtime.seek(topic, partition, offset);
    }
  }

  private async resetPosition(value: InstanceValue | undefined, topic: string, partition: number): Promise<number> {
    const { earliest, latest } = await this.router.offsets(topic, partition);
    switch (value?.autoOffsetReset ?? 'latest') {
      case 'earliest':
        return earliest;
      case 'latest':
        return latest;
      case 'none':
        throw errors.invalidRequest(
          `No committed offset for ${topic}-${partition} and auto.offset.reset is none; seek with .../positions first.`,
        );
    }
  }
}
