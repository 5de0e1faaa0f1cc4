import murmurhash from 'murmurhash';

/**
 * Partition choice for records produced without an explicit partition, compatible with Kafka's Java client
 * (`BuiltInPartitioner.partitionForKey`) and kafkajs's `DefaultPartitioner`: a keyed record goes to
 * `toPositive(murmur2(keyBytes)) % numPartitions`, so the same key lands on the same partition whichever of these
 * clients (or Brook's REST/WebSocket produce) wrote it. An empty key is a key (it hashes); only a null key is keyless.
 */

/** The seed of Kafka's `Utils.murmur2`. */
export const KAFKA_MURMUR2_SEED = 0x9747b28c;

/**
 * Kafka's `Utils.murmur2` over the key bytes, as the signed 32-bit int Java returns. The `murmurhash` package's v2
 * is the same MurmurHash2 (4-byte little-endian blocks, then a 1-3 byte tail) and returns it unsigned; the tests
 * check it against Kafka's own `UtilsTest.testMurmur2` vectors.
 */
export function murmur2(key: Uint8Array): number {
  return murmurhash.v2(key, KAFKA_MURMUR2_SEED) | 0;
}

/** Kafka's `Utils.toPositive`: clears the sign bit (not `Math.abs`, which fails for -2^31). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

/** The partition of a keyed record: `toPositive(murmur2(key)) % numPartitions`, as Kafka's default partitioner. */
export function partitionForKey(key: Uint8Array, numPartitions: number): number {
  checkPartitionCount(numPartitions);
  return toPositive(murmur2(key)) % numPartitions;
}

/**
 * Partition choice for keyless records, sticky per batch in the spirit of KIP-480: every keyless record of one
 * produce request (or one WebSocket produce frame) goes to the same partition, so it becomes one record batch and one
 * append instead of one per partition. The caller calls {@link next} once per request/batch and uses the result for
 * all its keyless records.
 *
 * Between batches the partition rotates round robin (from a random start), rather than KIP-480's random pick among
 * the other partitions: the spread over partitions is then even by construction, and tests can inject the start.
 * One instance per topic (the state is a single counter, so instances are cheap).
 */
export class StickyPartitioner {
  private readonly start: number;
  private current: number | null = null;

  /** `start` picks the first partition (`start % numPartitions`); by default random, so brokers do not all begin at 0. */
  constructor(start: number = Math.floor(Math.random() * 0x7fffffff)) {
    this.start = toPositive(start);
  }

  /**
   * The partition for the next batch of keyless records: the one after the previous batch's (modulo the partition
   * count), so consecutive calls differ whenever there are two partitions or more.
   */
  next(numPartitions: number): number {
    checkPartitionCount(numPartitions);
    this.current = this.current === null ? this.start % numPartitions : (this.current + 1) % numPartitions;
    return this.current;
  }

  /**
   * The partition of the current batch (the last {@link next} result), or a new one when there is none yet or the
   * partition count shrank below it.
   */
  sticky(numPartitions: number): number {
    checkPartitionCount(numPartitions);
    if (this.current === null || this.current >= numPartitions) return this.next(numPartitions);
    return this.current;
  }
}

function checkPartitionCount(numPartitions: number): void {
  if (!Number.isInteger(numPartitions) || numPartitions < 1) {
    throw new RangeError(`numPartitions must be a positive integer, got ${numPartitions}`);
  }
}
