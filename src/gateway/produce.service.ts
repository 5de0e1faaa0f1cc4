// The produce path shared by v3 single, v3 batch, v2 and (later) WebSocket: choose each record's partition as
// Kafka's Java client does, group the request's records into one batch per partition, append each batch once,
// and report per record in request order. No per-record class instances; bytes are prepared by the caller.
import { Inject, Injectable } from '@nestjs/common';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ControllerService } from '../controller-election/controller.service.js';
import { encodeBatch, type RecordInput } from '../partition-log/record-batch.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import type { Acks } from '../replication/replica-manager.service.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { partitionForKey, StickyPartitioner } from '../topic/partitioner.js';
import { resolveTopicConfig } from '../topic/topic-config.js';
import { isInternalTopic } from '../topic/topic-name.js';
import { Metrics } from '../metrics/metrics.service.js';

export interface ProduceInput extends RecordInput {
  partition?: number | null;
}

export type ProduceOutcome =
  | { ok: true; partition: number; offset: number; timestampMs: number }
  | { ok: false; partition: number | null; error: BrookError };

@Injectable()
export class ProduceService {
  private readonly partitioners = new Map<string, StickyPartitioner>();
  private readonly compactedByMetadata = new WeakMap<TopicMetadata, boolean>();

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    private readonly replicas: PartitionRouter,
    private readonly controller: ControllerService,
    private readonly metrics: Metrics,
  ) {}

  /** The topic's partition count; creates the topic first when auto-creation is on. */
  async partitionCount(topic: string): Promise<number> {
    return (await this.topicShape(topic)).partitions;
  }

  private async topicShape(topic: string): Promise<{ partitions: number; compacted: boolean }> {
    let metadata = this.metadata.topic(topic);
    if (metadata === undefined && this.config.autoCreateTopicsEnable) {
      await this.controller
        .createTopic({
          name: topic,
          partitions: this.config.numPartitions,
          replicationFactor: this.config.defaultReplicationFactor,
          configs: [],
        })
        .catch((error: unknown) => {
          if (!(error instanceof BrookError && error.errorCode === 40002)) throw error;
        });
      metadata = this.metadata.topic(topic);
    }
    if (metadata === undefined) throw errors.topicNotFound(topic);
    if (isInternalTopic(topic)) {
      throw errors.invalidRequest(`Topic ${topic} is internal to the broker; clients may read it but not write it.`);
    }
    // Resolved once per metadata snapshot (a reload replaces the object), not on every produce request.
    let compacted = this.compactedByMetadata.get(metadata);
    if (compacted === undefined) {
      compacted = resolveTopicConfig(metadata.configs, this.config.topicConfigDefaults).cleanupPolicyCompact;
      this.compactedByMetadata.set(metadata, compacted);
    }
    return { partitions: metadata.assignment.replicas.length, compacted };
  }

  /** Produces records of one request; outcomes in input order. Throws only for request-level errors. */
  async produce(topic: string, records: ProduceInput[], acks: Acks): Promise<ProduceOutcome[]> {
    const { partitions, compacted } = await this.topicShape(topic);
    const outcomes = new Array<ProduceOutcome>(records.length);
    const byPartition = new Map<number, number[]>();
    let sticky: number | null = null;
    records.forEach((record, i) => {
      if (compacted && record.key === null) {
        // As Kafka: a compacted topic keeps the last record per key, so a record without one is refused.
        outcomes[i] = {
          ok: false,
          partition: record.partition ?? null,
          error: errors.invalidPayload('Compacted topic cannot accept a record without a key.'),
        };
        return;
      }
      let partition: number;
      if (record.partition !== undefined && record.partition !== null) {
        partition = record.partition;
        if (!Number.isInteger(partition) || partition < 0 || partition >= partitions) {
          outcomes[i] = { ok: false, partition, error: errors.partitionNotFound(partition) };
          return;
        }
      } else if (record.key !== null) {
        partition = partitionForKey(record.key, partitions);
      } else {
        sticky ??= this.partitioner(topic).next(partitions);
        partition = sticky;
      }
      const indexes = byPartition.get(partition);
      if (indexes === undefined) byPartition.set(partition, [i]);
      else indexes.push(i);
    });
    await Promise.all(
      [...byPartition].map(async ([partition, indexes]) => {
        try {
          const batch = encodeBatch(indexes.map((i) => records[i]));
          const info = await this.replicas.produce(topic, partition, batch, acks);
          this.metrics.produced(topic, indexes.length, batch.length);
          indexes.forEach((recordIndex, position) => {
            outcomes[recordIndex] = {
              ok: true,
              partition,
              offset: info === null ? -1 : info.firstOffset + position,
              timestampMs:
                info !== null && info.logAppendTimeMs >= 0 ? info.logAppendTimeMs : records[recordIndex].timestamp,
            };
          });
        } catch (error) {
          const failure = error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
          for (const recordIndex of indexes) outcomes[recordIndex] = { ok: false, partition, error: failure };
        }
      }),
    );
    return outcomes;
  }

  private partitioner(topic: string): StickyPartitioner {
    let partitioner = this.partitioners.get(topic);
    if (partitioner === undefined) {
      partitioner = new StickyPartitioner();
      this.partitioners.set(topic, partitioner);
    }
    return partitioner;
  }
}
