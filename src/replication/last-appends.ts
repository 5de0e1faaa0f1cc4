// The last batch each leadership here appended, kept in memory so that the readers a produce wakes (caught-up
// WebSocket and SSE streams, long polls) get it without a file read through the thread pool. A read is answered
// from here only when it is exactly what the log would answer: the same leadership (so the same log, never
// truncated under it), a read starting at the batch's first offset, the high watermark at the batch's end (so the
// log holds nothing more below it), the batch not removed by retention or DeleteRecords (log start at or before
// it), and the batch within `maxBytes` unless the reader takes a first batch of any size. Anything else reads the
// file, as before.
//
// Bounded: one entry per partition, none larger than LAST_APPEND_BYTES_MAX, and LAST_APPENDS_BYTES_MAX in all
// (least recently appended evicted first). An entry is counted by the memory it holds alive (the batch's whole
// ArrayBuffer: a batch cut out of a larger request keeps that request alive).
import type { AppendInfo } from '../partition-log/append-queue.js';
import type { LeaderPartition } from './leader-partition.js';

/** Largest batch kept (a larger one is read from the file). */
export const LAST_APPEND_BYTES_MAX = 1024 * 1024;
/** Memory all kept batches of the broker may hold alive. */
export const LAST_APPENDS_BYTES_MAX = 16 * 1024 * 1024;

export interface LastAppendRead {
  batches: Buffer;
  nextOffset: number;
  highWatermark: number;
  logStartOffset: number;
}

interface Entry {
  leader: LeaderPartition;
  firstOffset: number;
  nextOffset: number;
  batch: Buffer;
  heldBytes: number;
}

export class LastAppends {
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  constructor(
    readonly batchBytesMax = LAST_APPEND_BYTES_MAX,
    readonly bytesMax = LAST_APPENDS_BYTES_MAX,
  ) {}

  /** Memory the kept batches hold alive. */
  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** `leader` wrote `batch` (as `info` says, offsets stamped in it): it replaces the partition's last append. */
  remember(leader: LeaderPartition, info: AppendInfo, batch: Buffer): void {
    this.forget(leader.key);
    if (info.duplicate === true) return; // nothing was written; the log's last batch is unknown here
    const heldBytes = batch.buffer.byteLength;
    if (batch.length > this.batchBytesMax || heldBytes > this.bytesMax) return;
    this.entries.set(leader.key, {
      leader,
      firstOffset: info.firstOffset,
      nextOffset: info.lastOffset + 1,
      batch,
      heldBytes,
    });
    this.heldBytes += heldBytes;
    for (const [key] of this.entries) {
      if (this.heldBytes <= this.bytesMax) break;
      this.forget(key);
    }
  }

  /** What a read of `leader`'s log below its high watermark at `offset` answers, when this holds it; else null. */
  read(leader: LeaderPartition, offset: number, maxBytes: number, minOneBatch: boolean): LastAppendRead | null {
    const entry = this.entries.get(leader.key);
    if (entry === undefined || entry.firstOffset !== offset) return null;
    if (entry.leader !== leader) {
      this.forget(leader.key);
      return null;
    }
    const highWatermark = leader.state.highWatermark;
    const logStartOffset = leader.log.logStartOffset;
    if (entry.nextOffset !== highWatermark || offset < logStartOffset) return null;
    if (entry.batch.length > maxBytes && !minOneBatch) return null;
    return { batches: entry.batch, nextOffset: entry.nextOffset, highWatermark, logStartOffset };
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= entry.heldBytes;
  }
}
