// The producer state of one partition (Kafka's ProducerStateManager and ProducerStateEntry): for every producer id
// that wrote to it, its epoch and the sequences and offsets of its last BATCHES_RETAINED_PER_PRODUCER batches. The
// leader checks each idempotent batch against it before the batch gets offsets (checkAppend), every replica applies
// the batches it writes (apply), in offset order, so that every replica holds the same state and a new leader
// dedupes the retries aimed at the old one. Pure: no I/O, time is passed in; snapshots are producer-state-file.ts.
//
// Two kinds of producer ids share the table:
//   - allocated ids, 0 <= id < KEY_PRODUCER_ID_BASE: Kafka's idempotent producers (InitProducerId, or
//     POST /v3/clusters/{c}/producers with the Brook-Producer-* headers). One entry per id; Kafka's rules.
//   - idempotency keys, KEY_PRODUCER_ID_BASE <= id < PRODUCER_ID_LIMIT: the id and epoch are a hash of one request's
//     (principal, topic, Idempotency-Key), the base sequence a hash of its body (application/idempotence/). One
//     entry per (id, epoch), one batch each: a retry is the same batch again.
//
// Transitions of checkAppend (a batch's sequences are first..last, last = first + lastOffsetDelta, wrapping past
// 2^31 - 1 to 0 as Kafka does; E the entry's epoch, B its retained batches, all of epoch E):
//
//   entry                      batch                                  outcome
//   allocated producer ids
//   absent (new, expired, or   any epoch, any sequence                append; entry = {batch's epoch, [batch]}
//     removed by retention)
//   epoch E, batches B         epoch E, the sequences of a batch in B duplicate: that batch's offsets, nothing appended
//                              epoch < E                              INVALID_PRODUCER_EPOCH (fenced)
//                              epoch E, first = last(B) + 1           append; B keeps its last five
//                              epoch E, any other first               OUT_OF_ORDER_SEQUENCE_NUMBER
//                              epoch > E, first = 0                   append; entry = {new epoch, [batch]} (KIP-360)
//                              epoch > E, first != 0                  OUT_OF_ORDER_SEQUENCE_NUMBER
//   with sequenceGaps (a Brook-Producer-* request routed by record keys, whose records of one request spread over
//   partitions): epoch E and first > last(B) appends (no wrap), epoch > E appends with any first.
//   idempotency keys
//   absent                     any                                    append; entry = {[batch]}
//   present with batch b       b's sequences                          duplicate: b's offsets (the leader refuses it
//                                                                     IDEMPOTENCY_KEY_IN_FLIGHT while b is queued,
//                                                                     log-appender.ts, or above the HW, replication)
//                              other sequences                        IDEMPOTENCY_KEY_REUSED (the body differs)
//
// apply never refuses: followers and recovery replay what a leader accepted. Entries leave the table when their
// time runs out (removeExpired: producer.id.expiration.ms for allocated ids, the idempotency retention for keys,
// measured from the broker's clock when the entry last changed), when retention deletes their last batch
// (removeBelow, Kafka's truncateHead), and when the table holds more than its bound (the entry changed longest ago
// goes first). The table's Map keeps entries in the order they last changed, so all three walk from the front.

/** Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN. */
export const BATCHES_RETAINED_PER_PRODUCER = 5;
/** Producer ids at and above this are idempotency keys (application/idempotence/), below it allocated ids. */
export const KEY_PRODUCER_ID_BASE = 2 ** 52;
/** One past the largest producer id: ids stay JavaScript safe integers. */
export const PRODUCER_ID_LIMIT = 2 ** 53;
export const SEQUENCE_MAX = 2 ** 31 - 1;
export const PRODUCER_EPOCH_MAX = 2 ** 15 - 1;

export type ProducerErrorKind =
  | 'OUT_OF_ORDER_SEQUENCE_NUMBER'
  | 'INVALID_PRODUCER_EPOCH'
  | 'UNKNOWN_PRODUCER_ID'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_FLIGHT';

/** What the state keeps of one batch. */
export interface BatchMetadata {
  firstSequence: number;
  lastSequence: number;
  firstOffset: number;
  lastOffset: number;
  /** The batch's max timestamp (the append time under LogAppendTime). */
  maxTimestampMs: number;
  /** The batch's base timestamp. */
  baseTimestampMs: number;
}

export interface ProducerEntry {
  producerId: number;
  epoch: number;
  /** Oldest first, at most BATCHES_RETAINED_PER_PRODUCER, all of `epoch`; never empty. */
  batches: BatchMetadata[];
  /** The broker's wall clock when the entry last changed (expiration counts from it). */
  lastUpdateMs: number;
}

/** An idempotent batch as the state sees it: its producer fields and, once it has them, its offsets. */
export interface ProducerBatch extends BatchMetadata {
  producerId: number;
  epoch: number;
}

export interface AppendRules {
  /** Accept forward gaps in the sequence (see the header). */
  sequenceGaps: boolean;
}

export type AppendCheck =
  | { outcome: 'append' }
  | { outcome: 'duplicate'; batch: BatchMetadata }
  | { outcome: 'refused'; error: ProducerErrorKind; message: string };

export interface ExpirationPolicy {
  /** Kafka's producer.id.expiration.ms, for allocated ids. */
  producerIdExpirationMs: number;
  /** BROOK_IDEMPOTENCY_RETENTION_MS, for idempotency keys. */
  idempotencyRetentionMs: number;
}

/** The entry key: the id for allocated producers, id and epoch for idempotency keys. */
export type ProducerKey = number | string;

export function isKeyProducer(producerId: number): boolean {
  return producerId >= KEY_PRODUCER_ID_BASE;
}

/** The last idempotency key's entry key: one append looks its producer up several times (check, queue, write). */
let lastKey = { producerId: -1, epoch: -1, key: '' };

export function producerKeyOf(producerId: number, epoch: number): ProducerKey {
  if (!isKeyProducer(producerId)) return producerId;
  if (lastKey.producerId !== producerId || lastKey.epoch !== epoch)
    lastKey = { producerId, epoch, key: `${producerId}/${epoch}` };
  return lastKey.key;
}

/** Kafka's DefaultRecordBatch.incrementSequence: sequences wrap from 2^31 - 1 to 0. */
export function incrementSequence(sequence: number, increment: number): number {
  return sequence > SEQUENCE_MAX - increment ? increment - (SEQUENCE_MAX - sequence) - 1 : sequence + increment;
}

/** Whether `next` directly follows `last`. */
export function inSequence(last: number, next: number): boolean {
  return next === incrementSequence(last, 1);
}

/** The decision for an idempotent batch on the entry of its producer (see the header's table). */
export function checkAppend(entry: ProducerEntry | undefined, batch: ProducerBatch, rules: AppendRules): AppendCheck {
  if (entry === undefined) return { outcome: 'append' };
  const duplicate = entry.epoch === batch.epoch ? findBatch(entry, batch) : undefined;
  if (duplicate !== undefined) return { outcome: 'duplicate', batch: duplicate };
  if (isKeyProducer(batch.producerId)) {
    return refused('IDEMPOTENCY_KEY_REUSED', 'this idempotency key was used with a different request body');
  }
  const last = entry.batches[entry.batches.length - 1].lastSequence;
  if (batch.epoch < entry.epoch) {
    return refused(
      'INVALID_PRODUCER_EPOCH',
      `producer ${batch.producerId} is fenced: epoch ${batch.epoch} is older than its current epoch ${entry.epoch}`,
    );
  }
  if (batch.epoch > entry.epoch) {
    if (batch.firstSequence === 0 || rules.sequenceGaps) return { outcome: 'append' };
    return refused(
      'OUT_OF_ORDER_SEQUENCE_NUMBER',
      `a new epoch ${batch.epoch} of producer ${batch.producerId} starts at sequence 0, not ${batch.firstSequence}`,
    );
  }
  if (inSequence(last, batch.firstSequence) || (rules.sequenceGaps && batch.firstSequence > last)) {
    return { outcome: 'append' };
  }
  return refused(
    'OUT_OF_ORDER_SEQUENCE_NUMBER',
    `producer ${batch.producerId} epoch ${batch.epoch}: sequence ${batch.firstSequence} does not follow ${last}`,
  );
}

function findBatch(entry: ProducerEntry, batch: ProducerBatch): BatchMetadata | undefined {
  return entry.batches.find(
    (kept) => kept.firstSequence === batch.firstSequence && kept.lastSequence === batch.lastSequence,
  );
}

function refused(error: ProducerErrorKind, message: string): AppendCheck {
  return { outcome: 'refused', error, message };
}

function metadataOf(batch: ProducerBatch): BatchMetadata {
  return {
    firstSequence: batch.firstSequence,
    lastSequence: batch.lastSequence,
    firstOffset: batch.firstOffset,
    lastOffset: batch.lastOffset,
    maxTimestampMs: batch.maxTimestampMs,
    baseTimestampMs: batch.baseTimestampMs,
  };
}

/** The entry after `batch` (which checkAppend accepted, or a replica replays); `entry` is not changed. */
export function entryAfter(entry: ProducerEntry | undefined, batch: ProducerBatch, nowMs: number): ProducerEntry {
  let kept: BatchMetadata[];
  if (entry === undefined || entry.epoch !== batch.epoch || isKeyProducer(batch.producerId)) {
    kept = [metadataOf(batch)]; // (a push onto [] would reserve 17 elements for each entry of the table)
  } else {
    kept = entry.batches.slice(-(BATCHES_RETAINED_PER_PRODUCER - 1));
    kept.push(metadataOf(batch));
  }
  return { producerId: batch.producerId, epoch: batch.epoch, batches: kept, lastUpdateMs: nowMs };
}

/** What a table without entries iterates (never written). */
const NO_ENTRIES: ReadonlyMap<ProducerKey, ProducerEntry> = new Map();

/** The producer entries of one partition, in the order they last changed (see the header). */
export class ProducerStateTable {
  /** Made on the first entry: most partitions of a broker with many never see an idempotent producer. */
  private entriesMade: Map<ProducerKey, ProducerEntry> | undefined;
  /**
   * The bound's walk over the keys from the oldest: every key it passed was deleted when it passed it, and keys
   * only ever go to the end, so its next live key is the oldest. A new keys() each time would step over every
   * deleted slot before the first live one again (a Map keeps them until it rehashes): at a bound of 10,000 keys,
   * ~6 us an append. Made again when it ran out.
   */
  private oldestWalk: Iterator<ProducerKey> | undefined;

  /** @param producerIdsMax the bound on entries; beyond it the entry changed longest ago is forgotten */
  constructor(private readonly producerIdsMax: number) {
    if (!Number.isSafeInteger(producerIdsMax) || producerIdsMax < 1) throw new RangeError('producerIdsMax >= 1');
  }

  get size(): number {
    return this.entriesMade?.size ?? 0;
  }

  get(producerId: number, epoch: number): ProducerEntry | undefined {
    return this.entriesMade?.get(producerKeyOf(producerId, epoch));
  }

  /** Every entry, the one changed longest ago first. */
  all(): IterableIterator<ProducerEntry> {
    return (this.entriesMade ?? NO_ENTRIES).values();
  }

  check(batch: ProducerBatch, rules: AppendRules): AppendCheck {
    return checkAppend(this.get(batch.producerId, batch.epoch), batch, rules);
  }

  /** Records a written batch; returns how many entries the bound pushed out. */
  apply(batch: ProducerBatch, nowMs: number): number {
    const key = producerKeyOf(batch.producerId, batch.epoch);
    const entries = (this.entriesMade ??= new Map());
    const next = entryAfter(entries.get(key), batch, nowMs);
    entries.delete(key); // to the end of the order
    entries.set(key, next);
    let evicted = 0;
    while (entries.size > this.producerIdsMax) {
      entries.delete(this.oldestKey(entries));
      evicted++;
    }
    return evicted;
  }

  private oldestKey(entries: Map<ProducerKey, ProducerEntry>): ProducerKey {
    let next = this.oldestWalk?.next();
    if (next === undefined || next.done === true) {
      this.oldestWalk = entries.keys();
      next = this.oldestWalk.next();
    }
    return next.value as ProducerKey;
  }

  /** Puts an entry back as it was (loading a snapshot); entries must come oldest first. */
  restore(entry: ProducerEntry): void {
    const key = producerKeyOf(entry.producerId, entry.epoch);
    const entries = (this.entriesMade ??= new Map());
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > this.producerIdsMax) entries.delete(this.oldestKey(entries));
  }

  /** Forgets entries whose time ran out; returns their keys. */
  removeExpired(nowMs: number, policy: ExpirationPolicy): ProducerKey[] {
    const shortest = Math.min(policy.producerIdExpirationMs, policy.idempotencyRetentionMs);
    const removed: ProducerKey[] = [];
    const entries = this.entriesMade;
    if (entries === undefined) return removed;
    this.oldestWalk = undefined; // (it would hold the table a shrink leaves behind)
    for (const [key, entry] of entries) {
      const age = nowMs - entry.lastUpdateMs;
      if (age < shortest) break; // every later entry changed after this one
      const limit = isKeyProducer(entry.producerId) ? policy.idempotencyRetentionMs : policy.producerIdExpirationMs;
      if (age >= limit) {
        entries.delete(key);
        removed.push(key);
      }
    }
    return removed;
  }

  /** Forgets the producers whose last batch lies below `logStartOffset` (retention deleted it); returns their keys. */
  removeBelow(logStartOffset: number): ProducerKey[] {
    const removed: ProducerKey[] = [];
    const entries = this.entriesMade;
    if (entries === undefined) return removed;
    this.oldestWalk = undefined;
    for (const [key, entry] of entries) {
      if (entry.batches[entry.batches.length - 1].lastOffset < logStartOffset) {
        entries.delete(key);
        removed.push(key);
      }
    }
    return removed;
  }

  clear(): void {
    this.entriesMade?.clear();
    this.oldestWalk = undefined;
  }
}
