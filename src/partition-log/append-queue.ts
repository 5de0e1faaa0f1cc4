// The appends of one log that are queued or being written, and the offsets they hold. Offsets are given when an
// append is queued, so queue order is offset order and `nextOffset` is past everything queued.
//
// A batch whose CRC turns out wrong while it is being written is refused after it was given offsets, and so may
// be other appends' predecessor. `dropCorrupt` closes the gap it leaves: a leader's append queued after it moves
// down to the next free offset (offsets stay dense), an append copied from the leader keeps the leader's offsets
// and so cannot move and is refused; leader-epoch entries from the first corrupt offset on are assigned again
// from the appends that remain; a leader's idempotent batch that moves takes its new offsets into the producer
// state (the appender requeues it). Pure: no I/O, the appender (log-appender.ts) writes and answers.
import type { LeaderEpochCache } from './leader-epoch-cache.js';
import { UnexpectedOffsetError } from './log-errors.js';
import type { BatchToWrite } from './log-segment.js';
import type { ProducerBatch } from './producer-state.js';
import {
  assignOffsetAndEpoch,
  BATCH_BYTES_MAX,
  CorruptBatchError,
  hasValidCrc,
  lastOffsetOf,
} from './record-batch-layout.js';
import { RecordWalk, validateClientRecords } from './record-batch-validation.js';

export interface AppendInfo {
  firstOffset: number;
  lastOffset: number;
  /** The broker's time when the topic uses LogAppendTime, else -1. */
  logAppendTimeMs: number;
  maxTimestampMs: number;
  recordCount: number;
  /**
   * True when the batch repeated one the producer state remembers (producer-state.ts): nothing was appended, and
   * the offsets and timestamps are the original batch's.
   */
  duplicate?: boolean;
  /** The original batch's base timestamp (duplicates only). */
  baseTimestampMs?: number;
}

/** For each of `items`, its RecordWalk; [] when no record walk is left to any of them. */
export function recordWalks(items: readonly PendingAppend[]): RecordWalk[] {
  if (!items.some((item) => item.recordWalk !== RecordWalk.NONE)) return [];
  return items.map((item) => item.recordWalk);
}

/** The indexes of `items` whose CRC is still to be checked (by their write's job). */
export function uncheckedCrcIndexes(items: readonly PendingAppend[]): number[] {
  const unchecked: number[] = [];
  for (let i = 0; i < items.length; i++) if (items[i].crcUnchecked) unchecked.push(i);
  return unchecked;
}

export interface PendingAppend {
  batch: BatchToWrite;
  info: AppendInfo;
  /** The leader epoch this append starts, to be saved before it is written; null when it starts none. */
  newEpoch: number | null;
  /** The batch's CRC is still to be checked: the drain checks it while the batch is being written. */
  crcUnchecked: boolean;
  /**
   * The walk of the batch's records was left to the job that checks its CRC (with crcUnchecked; walked there only
   * while its CRC is unchecked): how, and why the job may have refused it (refusalOf).
   */
  recordWalk: RecordWalk;
  /** Copied from the leader with its offsets (never renumbered). */
  fromLeader: boolean;
  /** The batch as the producer state sees it, for an idempotent batch (null otherwise); its offsets move with it. */
  producer: ProducerBatch | null;
  resolve: (info: AppendInfo) => void;
  reject: (error: Error) => void;
}

export interface RefusedAppend {
  item: PendingAppend;
  error: Error;
}

export class AppendQueue {
  /** Waiting for a drain, in offset order. */
  pending: PendingAppend[] = [];

  /** @param nextOffset the offset the next append gets (the log end while nothing is queued) */
  constructor(public nextOffset: number) {}

  /** Takes up to `max` appends from the front of the queue, for one drain. */
  take(max: number): PendingAppend[] {
    return this.pending.splice(0, max);
  }

  /** Nothing is queued any more; the next append gets `offset` (after a truncation). */
  restartAt(offset: number): void {
    this.nextOffset = offset;
  }

  /**
   * Takes the `corrupt` appends out of `items` (a drain's appends, written up to `groupStart`, none from there on)
   * and out of the queue, renumbering or refusing what follows them (see the header). On return `items` and the
   * queue hold what is still to be written and `nextOffset` is past it; returns the refused appends with their
   * errors.
   */
  dropCorrupt(
    items: PendingAppend[],
    groupStart: number,
    corrupt: ReadonlySet<PendingAppend>,
    epochs: LeaderEpochCache,
  ): RefusedAppend[] {
    const refused: RefusedAppend[] = [];
    let firstCorruptOffset = Number.MAX_SAFE_INTEGER;
    for (const item of corrupt) firstCorruptOffset = Math.min(firstCorruptOffset, item.info.firstOffset);
    let nextOffset = items[groupStart].info.firstOffset;
    const renumber = (list: PendingAppend[], from: number): PendingAppend[] => {
      const kept: PendingAppend[] = [];
      for (let i = from; i < list.length; i++) {
        const item = list[i];
        if (corrupt.has(item)) {
          refused.push({ item, error: refusalOf(item) });
        } else if (item.info.firstOffset < firstCorruptOffset) {
          kept.push(item);
          nextOffset = item.info.lastOffset + 1;
        } else if (item.fromLeader) {
          const error = new UnexpectedOffsetError(
            `batch at offset ${item.info.firstOffset} follows a corrupt batch in the same replica fetch`,
          );
          refused.push({ item, error });
        } else {
          moveTo(item, nextOffset);
          kept.push(item);
          nextOffset = item.info.lastOffset + 1;
        }
      }
      return kept;
    };
    items.splice(groupStart, items.length - groupStart, ...renumber(items, groupStart));
    this.pending = renumber(this.pending, 0);
    this.nextOffset = nextOffset;
    epochs.truncateFromEnd(firstCorruptOffset);
    for (const item of [...items.slice(groupStart), ...this.pending]) {
      const epoch = item.batch.header.partitionLeaderEpoch;
      item.newEpoch = epoch > epochs.latestEpoch() ? epoch : null;
      if (item.newEpoch !== null) epochs.assign(item.newEpoch, item.info.firstOffset);
    }
    return refused;
  }
}

/** Why the write's check refused `item`: its CRC, else (its records were walked there) what the walk names. */
function refusalOf(item: PendingAppend): Error {
  const { buffer, header } = item.batch;
  if (item.recordWalk !== RecordWalk.NONE && hasValidCrc(buffer)) {
    try {
      validateClientRecords(buffer, header, {
        keysRequired: item.recordWalk === RecordWalk.KEYS_REQUIRED,
        maxDecompressedBytes: BATCH_BYTES_MAX,
      });
    } catch (error) {
      return error as Error;
    }
  }
  return new CorruptBatchError('batch CRC mismatch');
}

/** Gives a queued leader append a new base offset (the bytes, its header and what its caller will be told). */
function moveTo(item: PendingAppend, baseOffset: number): void {
  const { header } = item.batch;
  assignOffsetAndEpoch(item.batch.buffer, baseOffset, header.partitionLeaderEpoch);
  header.baseOffset = baseOffset;
  item.info.firstOffset = baseOffset;
  item.info.lastOffset = lastOffsetOf(header);
  if (item.producer !== null) {
    item.producer.firstOffset = item.info.firstOffset;
    item.producer.lastOffset = item.info.lastOffset;
  }
}
