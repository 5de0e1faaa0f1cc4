// The producer state one partition log keeps (producer-state.ts has the rules): the table of written batches,
// which replicas build alike and snapshots save, plus the leader's idempotent batches that are queued but not yet
// written. Offsets are given when an append is queued (append-queue.ts), so the leader checks each batch against
// what is written *and* queued before it: two copies of one batch queued in the same tick are one append and one
// duplicate. A queued batch becomes part of the table when the drain has written it, in offset order; until then
// it lives in `queued`, an entry per producer built from the table's entry plus its queued batches. Pure.
import type { BatchHeader } from './record-batch-layout.js';
import {
  type AppendCheck,
  type AppendRules,
  entryAfter,
  type ExpirationPolicy,
  incrementSequence,
  PRODUCER_ID_LIMIT,
  type ProducerBatch,
  type ProducerEntry,
  type ProducerKey,
  producerKeyOf,
  ProducerStateTable,
  checkAppend,
} from './producer-state.js';

export interface ProducerStateSettings extends ExpirationPolicy {
  /** The bound on producer ids (idempotency keys included) one partition remembers. */
  producerIdsMax: number;
}

/** Whether a batch header carries a producer id the state tracks (Kafka's hasProducerId, within Brook's range). */
export function isIdempotent(header: BatchHeader): boolean {
  return header.producerId >= 0 && header.producerId < PRODUCER_ID_LIMIT;
}

/** The state's view of a batch that starts at `firstOffset` (its header may still hold a placeholder). */
export function producerBatchOf(header: BatchHeader, firstOffset = header.baseOffset): ProducerBatch {
  return {
    producerId: header.producerId,
    epoch: header.producerEpoch,
    firstSequence: header.baseSequence,
    lastSequence: incrementSequence(header.baseSequence, header.lastOffsetDelta),
    firstOffset,
    lastOffset: firstOffset + header.lastOffsetDelta,
    maxTimestampMs: header.maxTimestamp,
    baseTimestampMs: header.baseTimestamp,
  };
}

interface QueuedEntry {
  entry: ProducerEntry;
  /** Queued batches of this producer not yet written. */
  queued: number;
}

export class ProducerStateManager {
  private table: ProducerStateTable;
  /** Made on the first queued idempotent batch: most partitions of a broker with many never have one. */
  private queued: Map<ProducerKey, QueuedEntry> | undefined;

  constructor(private settings: ProducerStateSettings) {
    this.table = new ProducerStateTable(settings.producerIdsMax);
  }

  /** What is written; snapshots save it. */
  get written(): ProducerStateTable {
    return this.table;
  }

  /** Replaces the written table (loaded from a snapshot and the log); nothing may be queued. */
  replaceWritten(table: ProducerStateTable): void {
    if (this.queuedProducers > 0) throw new Error('the producer state cannot be reloaded while batches are queued');
    this.table = table;
  }

  newTable(): ProducerStateTable {
    return new ProducerStateTable(this.settings.producerIdsMax);
  }

  updateSettings(settings: ProducerStateSettings): void {
    this.settings = settings;
  }

  /** The leader's decision for a batch before it is queued (the header's table in producer-state.ts). */
  check(batch: ProducerBatch, rules: AppendRules): AppendCheck {
    return checkAppend(this.current(batch.producerId, batch.epoch), batch, rules);
  }

  /** The producer's entry as it will be once everything queued is written. */
  current(producerId: number, epoch: number): ProducerEntry | undefined {
    return this.queued?.get(producerKeyOf(producerId, epoch))?.entry ?? this.table.get(producerId, epoch);
  }

  /** A batch `check` accepted has been queued with its offsets. */
  queue(batch: ProducerBatch, nowMs: number): void {
    const key = producerKeyOf(batch.producerId, batch.epoch);
    const queued = (this.queued ??= new Map());
    const pending = queued.get(key);
    const entry = entryAfter(pending?.entry ?? this.table.get(batch.producerId, batch.epoch), batch, nowMs);
    queued.set(key, { entry, queued: (pending?.queued ?? 0) + 1 });
  }

  /** A batch was written (a leader's queued one, or a follower's): the table takes it. */
  onWritten(batch: ProducerBatch, queuedByLeader: boolean, nowMs: number): void {
    this.table.apply(batch, nowMs);
    if (!queuedByLeader) return;
    const key = producerKeyOf(batch.producerId, batch.epoch);
    const queued = this.queued;
    const pending = queued?.get(key);
    if (queued === undefined || pending === undefined) return;
    if (--pending.queued === 0) queued.delete(key);
  }

  /** The queue renumbered or dropped batches: what is queued is now exactly `batches`, in queue order. */
  requeue(batches: readonly ProducerBatch[], nowMs: number): void {
    this.queued?.clear();
    for (const batch of batches) this.queue(batch, nowMs);
  }

  /** Nothing is queued any more (the log went offline, or everything queued was refused). */
  clearQueued(): void {
    this.queued?.clear();
  }

  get queuedProducers(): number {
    return this.queued?.size ?? 0;
  }

  removeExpired(nowMs: number): ProducerKey[] {
    return this.table.removeExpired(nowMs, this.settings);
  }

  removeBelow(logStartOffset: number): ProducerKey[] {
    return this.table.removeBelow(logStartOffset);
  }

  /** The last offset of every remembered producer's last batch (the cleaner keeps those batches whole). */
  lastBatchOffsets(): Set<number> {
    const offsets = new Set<number>();
    for (const entry of this.table.all()) offsets.add(entry.batches[entry.batches.length - 1].lastOffset);
    return offsets;
  }
}
