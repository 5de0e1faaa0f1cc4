// Where the records of one produce request go, as Kafka's Java client places them: a record's own partition (refused
// when the topic has no such partition), else its key's (murmur2, partitioner.ts), else the partition a keyless
// record goes to (the sticky one, or an Idempotency-Key's), given by the caller and asked for at most once per
// request. A compacted topic refuses records without a key. An idempotent producer's record needs a partition or a
// key (a retry must place it the same); records that all name their partition keep the strict sequence rule, others
// allow forward gaps (produce.service.ts's header). Pure: no I/O, the indexes by partition in request order.
import { BrookError, errors } from '../../common/brook-error.js';
import type { BatchProducer } from '../../partition-log/record-batch.js';
import { partitionForKey } from '../../topic/partitioner.js';

/** The most records whose indexes placeRecords lays out in one array made at its full size. */
const PREALLOCATED_INDEXES_MAX = 10_000;

/** The records of one request as produce.service.ts reads them: to place them here, then to encode each batch. */
export interface ProduceSource {
  count: number;
  key(i: number): Buffer | null;
  partition(i: number): number | null | undefined;
  /**
   * When known: every record has no key and this partition (null: none, as a record without a partition field), so
   * placeRecords places them all at once rather than one by one. Undefined: look at each record.
   */
  keylessPartition?: number | null;
  /** One batch of the records at `indexes` (in request order), with `producer`'s fields in its header when given. */
  encode(indexes: readonly number[], producer: BatchProducer | null): Buffer;
}

/** Where each record of a request goes: refused before appending (by index), or its partition's indexes. */
export interface Placement {
  refused: Map<number, { partition: number | null; error: BrookError }>;
  /** Read-only arrays: one may be shared with other requests (identityIndexes). */
  byPartition: Map<number, readonly number[]>;
  /** Whether the producer's sequences may leave forward gaps in a partition (producer-state.ts). */
  sequenceGaps: boolean;
}

/** The last identityIndexes array, frozen: shared by the requests of that many records until another count comes. */
let identity: readonly number[] = Object.freeze([]);

/** 0, 1, ..., count - 1: the indexes of a request whose records all go to one partition (made once per count). */
function identityIndexes(count: number): readonly number[] {
  if (identity.length !== count) {
    // past PREALLOCATED_INDEXES_MAX, V8 would make a dictionary of `new Array(n)`: then it grows as others do
    const indexes = count <= PREALLOCATED_INDEXES_MAX ? new Array<number>(count) : [];
    for (let i = 0; i < count; i++) indexes[i] = i;
    identity = Object.freeze(indexes);
  }
  return identity;
}

export function isPartitionOf(partition: number, partitions: number): boolean {
  return Number.isInteger(partition) && partition >= 0 && partition < partitions;
}

/**
 * Places the records of `source` on a topic of `partitions` partitions. `checkRouting`: an idempotent producer's
 * request (without an Idempotency-Key), whose every record must name a partition or have a key (else the request is
 * refused). `keylessPartition` is where records with neither go; it is called at most once.
 */
export function placeRecords(
  source: ProduceSource,
  partitions: number,
  compacted: boolean,
  checkRouting: boolean,
  keylessPartition: () => number,
): Placement {
  const named = checkRouting ? idempotentRouting(source) : false;
  const refused = new Map<number, { partition: number | null; error: BrookError }>();
  const byPartition = new Map<number, readonly number[]>();
  const same = source.keylessPartition;
  if (same !== undefined && source.count > 0 && !compacted && (same === null || isPartitionOf(same, partitions))) {
    // Every record goes where the loop below would put each one: the given partition, else the sticky one.
    byPartition.set(same ?? keylessPartition(), identityIndexes(source.count));
    return { refused, byPartition, sequenceGaps: !named };
  }
  let sticky: number | null = null;
  // The partition the first placed record goes to, usually every record's (a partition route, the sticky
  // partition): its indexes get room for all the records after it at once rather than growing by pushes, and
  // records to it skip the map. The array is cut to what it holds after the loop.
  let firstPartition = -1;
  let firstIndexes: number[] = [];
  let firstFilled = 0;
  for (let i = 0; i < source.count; i++) {
    const key = source.key(i);
    const given = source.partition(i);
    if (compacted && key === null) {
      // As Kafka: a compacted topic keeps the last record per key, so a record without one is refused.
      refused.set(i, {
        partition: given ?? null,
        error: errors.invalidPayload('Compacted topic cannot accept a record without a key.'),
      });
      continue;
    }
    let partition: number;
    if (given !== undefined && given !== null) {
      partition = given;
      if (!isPartitionOf(partition, partitions)) {
        refused.set(i, { partition, error: errors.partitionNotFound(partition) });
        continue;
      }
    } else if (key !== null) {
      partition = partitionForKey(key, partitions);
    } else {
      sticky ??= keylessPartition();
      partition = sticky;
    }
    if (partition === firstPartition) {
      firstIndexes[firstFilled++] = i;
      continue;
    }
    if (firstPartition === -1) {
      firstPartition = partition;
      // past PREALLOCATED_INDEXES_MAX, V8 would make a dictionary of `new Array(n)`: then it grows as others do
      if (source.count - i <= PREALLOCATED_INDEXES_MAX) firstIndexes = new Array<number>(source.count - i);
      firstIndexes[firstFilled++] = i;
      byPartition.set(partition, firstIndexes);
      continue;
    }
    const indexes = byPartition.get(partition) as number[] | undefined; // (arrays made here)
    if (indexes === undefined) byPartition.set(partition, [i]);
    else indexes.push(i);
  }
  firstIndexes.length = firstFilled;
  const sequenceGaps = !named || byPartition.size > 1;
  return { refused, byPartition, sequenceGaps };
}

/**
 * For an idempotent request: true when every record names its partition, false when every record has a key; a
 * request with a record that has neither is refused (its partition would not be the same on a retry).
 */
function idempotentRouting(source: ProduceSource): boolean {
  let named = 0;
  let keyed = 0;
  for (let i = 0; i < source.count; i++) {
    const partition = source.partition(i);
    if (partition !== undefined && partition !== null) named++;
    else if (source.key(i) !== null) keyed++;
    else {
      throw errors.invalidPayload(
        'A request with Brook-Producer-Sequence needs a named partition or a key on every record; ' +
          `record ${i} has neither.`,
      );
    }
  }
  return named === source.count && keyed === 0;
}
