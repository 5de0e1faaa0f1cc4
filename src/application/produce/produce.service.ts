// The produce path shared by v3 single, v3 batch, v2 and WebSocket: choose each record's partition as Kafka's Java
// client does (record-placement.ts), group the request's records into one batch per partition, append each batch
// once, and report per record in request order. No per-record class instances; bytes are prepared by the caller. The Kafka listener's
// produce takes the client's batches as they are (appendClientBatch), on the partition's leader only; an
// idempotent client batch (a producer id in its header) goes through the same producer-state check in the log.
//
// An idempotent producer (Brook-Producer-* headers, WebSocket producer fields) stamps its id, epoch and sequences on
// each batch, and the leader's producer state dedupes retries (partition-log/producer-state.ts). Record i of the
// request has sequence `sequence + i`, so a partition's batch starts at the sequence of its first record. Every
// record must name its partition or have a key: a retry then puts the same records in the same batches. Records that
// all go to one named partition keep Kafka's strict rule (the next request starts at the next sequence); records
// spread by key leave gaps in each partition's sequence (`sequenceGaps`), which only ever moves forward.
import { DynamicBrokerConfigs } from '../../topic/dynamic-broker-configs.service.js';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { BrookError, errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerService } from '../../controller-election/controller.service.js';
import {
  encodeBatch,
  encodeSpansBatch,
  frameSpansBatch,
  type BatchProducer,
  type RecordInput,
  type RecordSpans,
} from '../../partition-log/record-batch.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { type Acks, ReplicaManager } from '../../replication/replica-manager.service.js';
import { readBatchHeader } from '../../partition-log/record-batch.js';
import type { AppendInfo } from '../../partition-log/partition-log.js';
import type { TopicMetadata } from '../../topic/cluster-metadata.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { StickyPartitioner } from '../../topic/partitioner.js';
import { isPartitionOf, placeRecords, type ProduceSource } from './record-placement.js';
import { replayedTimestampMs } from './replay.js';
import { type AppendedGroup, appendRequest, homePartition, type IdempotentProducer } from './partition-appends.js';
import { type Clock, CLOCK, systemClock } from '../../common/clock.js';

export type { AppendedGroup, IdempotentProducer } from './partition-appends.js';
import { resolveTopicConfig } from '../../config/topic-config.js';
import { isInternalTopic } from '../../topic/topic-name.js';
import { Metrics } from '../../metrics/metrics.service.js';

export interface ProduceInput extends RecordInput {
  partition?: number | null;
}

/**
 * The records of a produce request as an edge's scanner lays them out (laid-out-records.ts): the
 * records section of one batch in `data` up to `end` (the header's place left free before it), each key's and
 * value's span in it; `partitions[i]` is record i's own partition field (null: none), `partitions` null when no
 * record names one; `keyed` false when no record has a key.
 */
export interface ScannedRecords extends RecordSpans {
  readonly count: number;
  readonly end: number;
  readonly partitions: ReadonlyArray<number | null> | null;
  readonly keyed: boolean;
  key(i: number): Buffer | null;
}

export interface ProduceResult {
  refused: Map<number, { partition: number | null; error: BrookError }>;
  appended: AppendedGroup[];
}

/** Whether an answer is a replay: some record was appended before and none by this request (Idempotent-Replayed). */
export function isReplay(result: ProduceResult): boolean {
  let replayed = false;
  for (const group of result.appended) {
    if (group.error !== null) continue;
    if (group.info?.duplicate !== true) return false;
    replayed = true;
  }
  return replayed;
}

export type ProduceOutcome =
  | { ok: true; partition: number; offset: number; timestampMs: number; replayed?: boolean }
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
    private readonly replicaManager: ReplicaManager,
    private readonly brokerConfigs: DynamicBrokerConfigs,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Appends one record batch as a Kafka client built it (its CRC and records checked by the log, its offsets and
   * leader epoch assigned there) to a partition this broker leads; never forwarded: a partition led elsewhere, or
   * by nobody, is refused before anything is appended (40404), and the client asks its metadata again. Unknown
   * topics and partitions are 40401 and 40402, internal topics are refused. Synchronous until the append is
   * queued, so that appends called in some order take offsets in that order.
   */
  appendClientBatch(topic: string, partition: number, batch: Buffer, acks: Acks): Promise<AppendInfo | null> {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) return Promise.reject(errors.topicNotFound(topic));
    if (isInternalTopic(topic)) {
      return Promise.reject(
        errors.invalidTopic(`Topic ${topic} is internal to the broker; clients may read it but not write it.`),
      );
    }
    if (!isPartitionOf(partition, metadata.assignment.replicas.length)) {
      return Promise.reject(errors.partitionNotFound(partition));
    }
    const appended = this.replicaManager.produce(topic, partition, batch, acks, { clientBatch: true });
    return appended.then((info) => {
      // acks=0 answers no info; the header was checked by the log before it took the batch
      this.metrics.produced(topic, info?.recordCount ?? readBatchHeader(batch).recordCount, batch.length);
      return info;
    });
  }

  /** The topic's partition count; creates the topic first when auto-creation is on. */
  async partitionCount(topic: string): Promise<number> {
    return (await this.topicShape(topic)).partitions;
  }

  private async topicShape(topic: string): Promise<{ partitions: number; compacted: boolean }> {
    let metadata = this.metadata.topic(topic);
    const settings = this.brokerConfigs.settings();
    if (metadata === undefined && settings.autoCreateTopicsEnable) {
      await this.controller
        .createTopic({
          name: topic,
          partitions: settings.numPartitions,
          replicationFactor: settings.defaultReplicationFactor,
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
      compacted = resolveTopicConfig(metadata.configs, settings.topicConfigDefaults).cleanupPolicyCompact;
      this.compactedByMetadata.set(metadata, compacted);
    }
    return { partitions: metadata.assignment.replicas.length, compacted };
  }

  /** Produces records of one request; outcomes in input order. Throws only for request-level errors. */
  async produce(
    topic: string,
    records: ProduceInput[],
    acks: Acks,
    producer: IdempotentProducer | null = null,
  ): Promise<ProduceOutcome[]> {
    const result = await this.produceFrom(
      topic,
      {
        count: records.length,
        key: (i) => records[i].key,
        partition: (i) => records[i].partition,
        encode: (indexes, stamp) =>
          encodeBatch(
            indexes.map((i) => records[i]),
            stamp ?? {},
          ),
      },
      acks,
      producer,
    );
    return produceOutcomes(result, records.length, (i) => records[i].timestamp);
  }

  /**
   * Produces records of one request an edge's scanner read (v2 binary or schema body, WebSocket produce frame; all
   * stamped `timestamp`), each batch
   * encoded straight from the scanned bytes; `partition` is the route's partition, when it names one. The same
   * partition choice, batching and failures as produce() gives the same records as ProduceInputs.
   */
  produceScanned(
    topic: string,
    records: ScannedRecords,
    partition: number | undefined,
    timestamp: number,
    acks: Acks,
    producer: IdempotentProducer | null = null,
  ): Promise<ProduceResult> {
    const partitions = records.partitions;
    return this.produceFrom(
      topic,
      {
        count: records.count,
        key: (i) => records.key(i),
        partition: partition !== undefined ? () => partition : partitions === null ? () => null : (i) => partitions[i],
        keylessPartition:
          records.keyed || (partition === undefined && partitions !== null) ? undefined : (partition ?? null),
        // Every record in one batch (indexes are in request order): the scanner already laid it out.
        encode: (indexes, stamp) =>
          indexes.length === records.count
            ? frameSpansBatch(records.data, records.end, records.count, timestamp, stamp)
            : encodeSpansBatch(records, records.count, indexes, timestamp, stamp),
      },
      acks,
      producer,
    );
  }

  /**
   * The partition choice, one batch and one append per partition: records refused before appending (a compacted
   * topic and no key, an unknown partition) in `refused` by index, the others by partition in `appended`, each
   * with the indexes of its records in request order and its append (null for acks=0) or the error that failed it.
   */
  private async produceFrom(
    topic: string,
    source: ProduceSource,
    acks: Acks,
    producer: IdempotentProducer | null,
  ): Promise<ProduceResult> {
    const { partitions, compacted } = await this.topicShape(topic);
    const checkRouting = producer !== null && producer.idempotencyKey !== true;
    const { refused, byPartition, sequenceGaps } = placeRecords(source, partitions, compacted, checkRouting, () =>
      this.keylessPartition(topic, partitions, producer),
    );
    return {
      refused,
      appended: await this.appendEach(topic, partitions, byPartition, source, acks, producer, sequenceGaps),
    };
  }

  /** One batch and one append per partition (partition-appends.ts). */
  private appendEach(
    topic: string,
    partitions: number,
    byPartition: Map<number, readonly number[]>,
    source: ProduceSource,
    acks: Acks,
    producer: IdempotentProducer | null,
    sequenceGaps: boolean,
  ): Promise<AppendedGroup[]> {
    const ports = { replicas: this.replicas, metrics: this.metrics, clock: this.clock };
    const encode = (indexes: readonly number[], stamp: BatchProducer | null) => source.encode(indexes, stamp);
    return appendRequest(ports, { topic, partitions, byPartition, encode, acks, producer, sequenceGaps });
  }

  /**
   * The partition of records with neither a key nor a partition: the sticky one, or for an Idempotency-Key's
   * request its home partition, so that a retry puts them in the same batch again (partition-appends.ts).
   */
  private keylessPartition(topic: string, partitions: number, producer: IdempotentProducer | null): number {
    if (producer?.idempotencyKey === true) return homePartition(producer.producerId, partitions);
    return this.partitioner(topic).next(partitions);
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

/**
 * Each record's outcome of a produce, in request order: refused, or its append's partition and offset (-1 for
 * acks=0) or error; a retried append's records are `replayed` with the time of the first append.
 */
export function produceOutcomes(
  result: ProduceResult,
  count: number,
  timestampOf: (i: number) => number,
): ProduceOutcome[] {
  const outcomes = new Array<ProduceOutcome>(count);
  for (const [i, refusal] of result.refused) outcomes[i] = { ok: false, ...refusal };
  for (const { partition, indexes, info, error } of result.appended) {
    const retried = info?.duplicate === true ? indexes.map((i) => timestampOf(i)) : null;
    indexes.forEach((recordIndex, position) => {
      outcomes[recordIndex] =
        error !== null
          ? { ok: false, partition, error }
          : {
              ok: true,
              partition,
              offset: info === null ? -1 : info.firstOffset + position,
              timestampMs:
                info !== null && retried !== null
                  ? replayedTimestampMs(info, retried, position)
                  : info !== null && info.logAppendTimeMs >= 0
                    ? info.logAppendTimeMs
                    : timestampOf(recordIndex),
              ...(retried !== null ? { replayed: true } : {}),
            };
    });
  }
  return outcomes;
}
