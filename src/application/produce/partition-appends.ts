// The appends of one produce request once its records are placed (produce.service.ts): one batch per partition,
// stamped with the request's idempotent producer if it has one, all appended at once. A request with an
// Idempotency-Key (application/idempotence/idempotency-key.ts) appends to its key's home partition first.
//
// The home partition of a key is its producer id modulo the topic's partition count (where the request's records
// with neither a key nor a partition go), the same for every body sent with the key. The key's request writes
// there before any other partition: its own batch when some of its records go there, else a marker, an empty
// batch (no record, one offset; record-batch-layout.ts) with the key's producer id and epoch and the body digest as
// its sequence. So the home partition's producer state holds, for every key used, the digest of the first body:
// another body is refused there (42291), and a retry while the first request is in flight (40906), before anything
// was appended anywhere, whichever partitions the records of either body go to. Only once the home append has
// succeeded (or replayed) are the other partitions appended, all at once. A home append that failed otherwise fails
// the request: the home's records with its error, the others with 50003 (not attempted; nothing appended), the
// marker appended by the retry. A request whose records all go to its home partition (keyless records, as in W1) is
// one append, as before. The check holds while the partition count stays the same (a new count moves the home,
// as it moves keyed records); with acks=0 the home's refusal is not waited for.
import { BrookError, errors } from '../../common/brook-error.js';
import type { Clock } from '../../common/clock.js';
import type { Metrics } from '../../metrics/metrics.service.js';
import { incrementSequence } from '../../partition-log/producer-state.js';
import { type BatchProducer, encodeEmptyBatch } from '../../partition-log/record-batch.js';
import type { AppendInfo } from '../../partition-log/partition-log.js';
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import type { Acks } from '../../replication/replica-manager.service.js';
import { keyRequestError } from './replay.js';

/** An idempotent producer's fields for one request: record i has sequence `sequence + i`. */
export interface IdempotentProducer {
  producerId: number;
  producerEpoch: number;
  sequence: number;
  /**
   * An Idempotency-Key's producer (application/idempotence/idempotency-key.ts): records without a key or a partition
   * go to the key's home partition (a retry puts them in the same batch), which every request of the key writes
   * first (see the header), the whole request answers 42291 or 40906 when a batch did, and replayed batches are
   * answered from what the leader kept.
   */
  idempotencyKey?: boolean;
}

/** The records of one request that went to one partition, and how their append went. */
export interface AppendedGroup {
  partition: number;
  /** Read-only: may be shared with other requests. */
  indexes: readonly number[];
  /** null for acks=0 (and when error is set). */
  info: AppendInfo | null;
  error: BrookError | null;
}

export interface PartitionAppendPorts {
  replicas: PartitionRouter;
  metrics: Metrics;
  clock: Clock;
}

export interface RequestAppends {
  topic: string;
  /** The topic's partition count (the home partition depends on it). */
  partitions: number;
  /** Record indexes by partition, in request order. */
  byPartition: ReadonlyMap<number, readonly number[]>;
  /** One batch of the records at `indexes`, with `producer`'s fields in its header when given. */
  encode(indexes: readonly number[], producer: BatchProducer | null): Buffer;
  acks: Acks;
  producer: IdempotentProducer | null;
  sequenceGaps: boolean;
}

/** The partition an Idempotency-Key's request writes first (see the header). */
export function homePartition(producerId: number, partitions: number): number {
  return producerId % partitions;
}

/** Appends every partition's batch of one request (for a key's request, its home first); errors by group. */
export async function appendRequest(ports: PartitionAppendPorts, request: RequestAppends): Promise<AppendedGroup[]> {
  const { producer, byPartition } = request;
  if (producer?.idempotencyKey !== true) {
    // one partition, as every record of a partition route or of the sticky partition: no list and no Promise.all
    if (byPartition.size === 1) return [await append(ports, request, byPartition.entries().next().value!)];
    return Promise.all([...byPartition].map((group) => append(ports, request, group)));
  }
  const home = homePartition(producer.producerId, request.partitions);
  const homeIndexes = byPartition.get(home);
  if (homeIndexes !== undefined && byPartition.size === 1)
    return refuseKeyErrors([await append(ports, request, [home, homeIndexes])]);
  const first =
    homeIndexes !== undefined
      ? await append(ports, request, [home, homeIndexes])
      : await appendMarker(ports, request, home);
  if (first.error !== null) {
    refuseKeyErrors([first]);
    const skipped = errors.retriable(
      `The request's first append, to its idempotency key's home partition ${home}, failed (${first.error.message}); ` +
        'nothing else was appended: retry.',
    );
    return [...byPartition].map(([partition, indexes]) => ({
      partition,
      indexes,
      info: null,
      error: partition === home ? first.error : skipped,
    }));
  }
  const rest = [...byPartition].filter(([partition]) => partition !== home);
  const appended = await Promise.all(rest.map((group) => append(ports, request, group)));
  return refuseKeyErrors(homeIndexes !== undefined ? [first, ...appended] : appended);
}

/** Throws the request-level key error (42291, 40906) of any group; else returns the groups. */
function refuseKeyErrors(groups: AppendedGroup[]): AppendedGroup[] {
  const keyError = keyRequestError(groups);
  if (keyError !== null) throw keyError;
  return groups;
}

async function append(
  ports: PartitionAppendPorts,
  request: RequestAppends,
  [partition, indexes]: [number, readonly number[]],
): Promise<AppendedGroup> {
  const { producer } = request;
  try {
    // the producer's fields written with the header, under its one CRC pass (a stamp afterwards was a second)
    const batch = request.encode(
      indexes,
      producer === null
        ? null
        : {
            producerId: producer.producerId,
            producerEpoch: producer.producerEpoch,
            baseSequence: incrementSequence(producer.sequence, indexes[0]),
          },
    );
    const info = await ports.replicas.produce(request.topic, partition, batch, request.acks, {
      sequenceGaps: request.sequenceGaps,
      keyProducers: producer?.idempotencyKey === true,
    });
    if (info?.duplicate !== true) ports.metrics.produced(request.topic, indexes.length, batch.length);
    return { partition, indexes, info, error: null };
  } catch (error) {
    return { partition, indexes, info: null, error: failureOf(error) };
  }
}

/** The key's marker on its home partition: an empty batch whose sequence is the body digest. */
async function appendMarker(
  ports: PartitionAppendPorts,
  request: RequestAppends,
  home: number,
): Promise<AppendedGroup> {
  const producer = request.producer!;
  try {
    const marker = encodeEmptyBatch(ports.clock.nowMs(), {
      producerId: producer.producerId,
      producerEpoch: producer.producerEpoch,
      baseSequence: producer.sequence,
    });
    const info = await ports.replicas.produce(request.topic, home, marker, request.acks, {
      sequenceGaps: true,
      keyProducers: true,
    });
    return { partition: home, indexes: [], info, error: null };
  } catch (error) {
    return { partition: home, indexes: [], info: null, error: failureOf(error) };
  }
}

function failureOf(error: unknown): BrookError {
  return error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
}
