// The batches each leadership here appended last, kept in memory so that its followers' fetches and the readers a
// produce wakes (caught-up WebSocket and SSE streams, long polls) get them without a file read through the thread
// pool. Per partition a run of batches with contiguous offsets, exactly as written (offsets and epoch stamped in
// them); a batch that does not continue the run (another writer, a duplicate's gap, a new leadership) starts a new
// run. Answers come from here only when they are what the log would answer:
//   - the same leadership (the same log, never truncated while it leads), the read starting at a kept batch's first
//     offset, at or above the log start (retention and DeleteRecords);
//   - for a follower: whole batches from there, at least one, then while within `maxBytes`;
//   - for a reader: the same, but none at or past the high watermark, and only when the run reaches the HW or
//     `maxBytes` stops it first (the log holds nothing else below the HW that the answer leaves out).
// Anything else reads the file, as before.
//
// Bounded: a batch larger than LAST_APPEND_BYTES_MAX is not kept, a partition keeps at most
// PARTITION_APPENDS_BYTES_MAX and the broker LAST_APPENDS_BYTES_MAX (least recently appended partition's oldest
// batches evicted first). Batches every follower has fetched past are dropped (forgetFetched), the last one kept
// for readers. A batch is counted by the memory it holds alive (its whole ArrayBuffer: a batch cut out of a larger
// request keeps that request alive).
import type { AppendInfo } from '../partition-log/append-queue.js';
import { readBatchHeader } from '../partition-log/record-batch.js';
import type { LeaderPartition } from './leader-partition.js';

/** Largest batch kept (a larger one is read from the file). */
export const LAST_APPEND_BYTES_MAX = 1024 * 1024;
/** Memory one partition's kept batches may hold alive: followers further behind than this read the file. */
export const PARTITION_APPENDS_BYTES_MAX = 4 * 1024 * 1024;
/** Memory all kept batches of the broker may hold alive. */
export const LAST_APPENDS_BYTES_MAX = 32 * 1024 * 1024;

export interface LastAppendRead {
  batches: Buffer;
  nextOffset: number;
  highWatermark: number;
  logStartOffset: number;
}

interface KeptBatch {
  firstOffset: number;
  nextOffset: number;
  batch: Buffer;
  heldBytes: number;
}

interface Run {
  leader: LeaderPartition;
  /** Contiguous: each batch's nextOffset is the next one's firstOffset. */
  batches: KeptBatch[];
  heldBytes: number;
}

export class LastAppends {
  /** By partition key, least recently appended first. */
  private readonly runs = new Map<string, Run>();
  /** The key `remember` inserted last (the last in `runs` while it is there). */
  private newestKey: string | null = null;
  private heldBytes = 0;

  constructor(
    readonly batchBytesMax = LAST_APPEND_BYTES_MAX,
    readonly bytesMax = LAST_APPENDS_BYTES_MAX,
    readonly partitionBytesMax = PARTITION_APPENDS_BYTES_MAX,
  ) {}

  /** Memory the kept batches hold alive. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Partitions with kept batches. */
  get size(): number {
    return this.runs.size;
  }

  /** `leader` wrote `batch` (as `info` says, offsets stamped in it): it continues the partition's run, or starts one. */
  remember(leader: LeaderPartition, info: AppendInfo, batch: Buffer): void {
    if (info.duplicate === true) return; // nothing was written: the run, if any, still ends at the log end
    let run = this.runs.get(leader.key);
    // re-inserted last (the most recently appended), unless it is last already: under K1 (one partition) a Map
    // delete and insert on every append was about 1 % of the main thread (the table shrunk and rehashed)
    const newest = run !== undefined && this.newestKey === leader.key;
    if (!newest) this.runs.delete(leader.key);
    const heldBytes = batch.buffer.byteLength;
    const storable =
      batch.length <= this.batchBytesMax &&
      heldBytes <= this.partitionBytesMax &&
      readBatchHeader(batch).baseOffset === info.firstOffset;
    if (run !== undefined) {
      const last = run.batches[run.batches.length - 1];
      if (run.leader !== leader || last.nextOffset !== info.firstOffset || !storable) {
        this.heldBytes -= run.heldBytes;
        run = undefined;
      }
    }
    if (!storable) {
      if (newest) this.runs.delete(leader.key);
      return;
    }
    run ??= { leader, batches: [], heldBytes: 0 };
    run.batches.push({ firstOffset: info.firstOffset, nextOffset: info.lastOffset + 1, batch, heldBytes });
    run.heldBytes += heldBytes;
    this.heldBytes += heldBytes;
    this.runs.set(leader.key, run);
    this.newestKey = leader.key;
    while (run.heldBytes > this.partitionBytesMax) this.dropOldest(leader.key, run);
    for (const [key, oldest] of this.runs) {
      if (this.heldBytes <= this.bytesMax) break;
      while (oldest.batches.length > 0 && this.heldBytes > this.bytesMax) this.dropOldest(key, oldest);
    }
  }

  /**
   * After an append's effects: a leadership with no follower at all (one replica) has no fetch that would drop what
   * it holds (forgetFetched), so what is below its high watermark goes now, the last batch kept for readers (a
   * reader the append woke reads it in the same turn). Before, such a leadership held up to
   * PARTITION_APPENDS_BYTES_MAX of batches, each keeping the request it was cut from alive long enough to be
   * promoted to V8's old generation. A leadership whose followers are out of its ISR keeps them: a follower catching
   * up reads them (dropping them at an ISR of one cost W1c's leader twice the CPU a request, its followers then
   * reading the file).
   */
  appended(leader: LeaderPartition): void {
    if (leader.state.replicas.length <= 1) this.forgetFetched(leader, leader.state.highWatermark);
  }

  /** Every follower of `leader` holds the log below `offset`: batches ending there are dropped (the last one kept). */
  forgetFetched(leader: LeaderPartition, offset: number): void {
    const run = this.runs.get(leader.key);
    if (run === undefined || run.leader !== leader) return;
    while (run.batches.length > 1 && run.batches[0].nextOffset <= offset) this.dropOldest(leader.key, run);
  }

  /**
   * What a follower fetch of `leader`'s log at `offset` answers, when this holds it: whole batches, as kept (the
   * caller writes them one after the other); else null.
   */
  readForFollower(leader: LeaderPartition, offset: number, maxBytes: number): Buffer[] | null {
    const found = this.from(leader, offset);
    if (found === null) return null;
    const { run, index } = found;
    const taken: Buffer[] = [];
    let bytes = 0;
    for (let at = index; at < run.batches.length; at++) {
      const { batch } = run.batches[at];
      if (taken.length > 0 && bytes + batch.length > maxBytes) break;
      taken.push(batch);
      bytes += batch.length;
    }
    return taken;
  }

  /** What a read of `leader`'s log below its high watermark at `offset` answers, when this holds it; else null. */
  read(leader: LeaderPartition, offset: number, maxBytes: number, minOneBatch: boolean): LastAppendRead | null {
    const found = this.from(leader, offset);
    if (found === null) return null;
    const { run, index } = found;
    const highWatermark = leader.state.highWatermark;
    const taken: Buffer[] = [];
    let bytes = 0;
    let nextOffset = offset;
    let limited = false;
    for (let at = index; at < run.batches.length; at++) {
      const kept = run.batches[at];
      if (kept.nextOffset > highWatermark) break;
      if (bytes + kept.batch.length > maxBytes && (taken.length > 0 || !minOneBatch)) {
        limited = true;
        break;
      }
      taken.push(kept.batch);
      bytes += kept.batch.length;
      nextOffset = kept.nextOffset;
    }
    // the log may hold more below the HW than the run: then it answers
    if (taken.length === 0 || (!limited && nextOffset !== highWatermark)) return null;
    const batches = taken.length === 1 ? taken[0] : Buffer.concat(taken, bytes);
    return { batches, nextOffset, highWatermark, logStartOffset: leader.log.logStartOffset };
  }

  /** The kept batch of `leader` starting at `offset`, when the run is this leadership's and above the log start. */
  private from(leader: LeaderPartition, offset: number): { run: Run; index: number } | null {
    const run = this.runs.get(leader.key);
    if (run === undefined) return null;
    if (run.leader !== leader) {
      this.forget(leader.key, run);
      return null;
    }
    const first = run.batches[0];
    if (offset < first.firstOffset || offset < leader.log.logStartOffset) return null;
    // a short run: a linear search from the newest end finds a caught-up follower's batch first
    for (let index = run.batches.length - 1; index >= 0; index--) {
      const kept = run.batches[index];
      if (kept.firstOffset === offset) return { run, index };
      if (kept.firstOffset < offset) return null;
    }
    return null;
  }

  private dropOldest(key: string, run: Run): void {
    const dropped = run.batches.shift()!;
    run.heldBytes -= dropped.heldBytes;
    this.heldBytes -= dropped.heldBytes;
    if (run.batches.length === 0) this.runs.delete(key);
  }

  private forget(key: string, run: Run): void {
    this.runs.delete(key);
    this.heldBytes -= run.heldBytes;
  }
}
