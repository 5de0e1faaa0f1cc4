// The batches a leader appended last to its log's active segment, kept in memory for the readers at the log end
// (followers' fetches, caught-up consumers and WebSocket/SSE streams), so that a read of what was just written
// needs no thread-pool file read (Kafka leaves this to the page cache, which Node cannot read without one).
//
// A copy of the bytes exactly as written: a batch enters only once its group's write succeeded (log-appender.ts),
// in offset order, and only while someone reads at the log end (a read of the active segment within
// READ_INTEREST_MS), so a log nobody tails holds nothing. Batches are copied end to end into slabs of SLAB_BYTES,
// written once and never reused, so a read of consecutive batches is a view of one slab (no copy; only a read
// across two slabs joins them) and stays valid after the slab is dropped. All is dropped when the log loses its end
// (truncation, reset), rolls, or compaction replaces the active segment; a batch that does not continue the last
// one starts it over; a batch larger than a slab is not kept. Bounded twice: each log keeps at most
// RECENT_APPENDS_LOG_SLABS_MAX slabs, and all logs sharing a RecentAppendsBudget at most its slabsMax, the oldest
// slab of any log going first.

/** The unit of memory: consecutive batches of one log. */
export const SLAB_BYTES = 1024 * 1024;
/** Most slabs one log keeps. */
export const RECENT_APPENDS_LOG_SLABS_MAX = 4;
/** Most slabs all the logs of a broker keep together (64 MiB). */
export const RECENT_APPENDS_BROKER_SLABS_MAX = 64;
/** Batches are kept while a read of the log's active segment came within this long. */
export const READ_INTEREST_MS = 2_000;

interface Slab {
  readonly owner: RecentAppends;
  readonly buffer: Buffer;
  used: number;
  /** False once its log dropped it. */
  live: boolean;
}

interface Entry {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly slab: Slab;
  readonly start: number;
  readonly end: number;
}

/** The bound shared by the logs of a broker: a queue of every kept slab, oldest first. */
export class RecentAppendsBudget {
  private readonly queue: Slab[] = [];
  private head = 0;
  private count = 0;

  constructor(readonly slabsMax = RECENT_APPENDS_BROKER_SLABS_MAX) {}

  /** Slabs kept now, over all logs. */
  get slabs(): number {
    return this.count;
  }

  add(slab: Slab): void {
    this.queue.push(slab);
    this.count++;
    while (this.count > this.slabsMax && this.head < this.queue.length) {
      const oldest = this.queue[this.head++];
      if (oldest.live) oldest.owner.dropOldest(oldest);
    }
    // the dropped prefix is released in one step once it is half the queue
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** A slab its log dropped (it leaves the queue when it reaches the head). */
  released(slab: Slab): void {
    slab.live = false;
    this.count--;
  }
}

export class RecentAppends {
  private slabs: Slab[] = [];
  private entries: Entry[] = [];
  private first = 0;
  /** The base offset of the segment the entries were written to. */
  private segmentBaseOffset = -1;
  private lastReadMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly budget: RecentAppendsBudget,
    private readonly slabsMax = RECENT_APPENDS_LOG_SLABS_MAX,
    private readonly slabBytes = SLAB_BYTES,
  ) {}

  /** How many batches are kept. */
  get size(): number {
    return this.entries.length - this.first;
  }

  /** A read of the active segment came at `nowMs`: appends are kept from now on (for READ_INTEREST_MS). */
  noteRead(nowMs: number): void {
    this.lastReadMs = nowMs;
  }

  /** Whether batches written at `nowMs` are to be kept: someone read the active segment lately. Else clears. */
  wanted(nowMs: number): boolean {
    if (nowMs - this.lastReadMs <= READ_INTEREST_MS) return true;
    if (this.slabs.length > 0) this.clear();
    return false;
  }

  /** A batch written to the segment at `segmentBaseOffset` (after the batches added before it), final offsets. */
  add(batch: Buffer, firstOffset: number, lastOffset: number, segmentBaseOffset: number): void {
    const last = this.size > 0 ? this.entries[this.entries.length - 1] : null;
    if (segmentBaseOffset !== this.segmentBaseOffset || (last !== null && last.lastOffset + 1 !== firstOffset)) {
      this.clear();
      this.segmentBaseOffset = segmentBaseOffset;
    }
    if (batch.length > this.slabBytes) {
      this.clear();
      return;
    }
    let slab = this.slabs.length > 0 ? this.slabs[this.slabs.length - 1] : null;
    if (slab === null || this.slabBytes - slab.used < batch.length) {
      slab = { owner: this, buffer: Buffer.allocUnsafeSlow(this.slabBytes), used: 0, live: true };
      this.slabs.push(slab);
      this.budget.add(slab);
      while (this.slabs.length > this.slabsMax) this.dropOldest(this.slabs[0]);
      if (!slab.live) return; // a budget of fewer slabs than logs
    }
    batch.copy(slab.buffer, slab.used);
    this.entries.push({ baseOffset: firstOffset, lastOffset, slab, start: slab.used, end: slab.used + batch.length });
    slab.used += batch.length;
  }

  /**
   * Whole batches from the one holding `offset`, as LogSegment.readFromOffset answers them (at most `maxBytes`, but
   * the first even when larger with `minOneBatch`; none whose last offset is >= `maxOffsetExclusive`), when the
   * kept batches of the segment at `segmentBaseOffset` reach back to `offset`; undefined when they do not.
   */
  read(
    segmentBaseOffset: number,
    offset: number,
    maxBytes: number,
    maxOffsetExclusive: number,
    minOneBatch: boolean,
  ): Buffer | undefined {
    if (this.size === 0 || segmentBaseOffset !== this.segmentBaseOffset) return undefined;
    const entries = this.entries;
    if (offset < entries[this.first].baseOffset || offset > entries[entries.length - 1].lastOffset) return undefined;
    // the first entry whose last offset is >= offset
    let low = this.first;
    let high = entries.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (entries[middle].lastOffset >= offset) high = middle;
      else low = middle + 1;
    }
    const start = low;
    let end = start;
    let bytes = 0;
    while (end < entries.length) {
      const entry = entries[end];
      const length = entry.end - entry.start;
      if (entry.lastOffset >= maxOffsetExclusive || bytes + length > maxBytes) break;
      bytes += length;
      end++;
    }
    if (end === start) {
      const only = entries[start];
      if (only.lastOffset >= maxOffsetExclusive || !minOneBatch) return Buffer.alloc(0);
      end = start + 1;
    }
    const firstEntry = entries[start];
    const lastEntry = entries[end - 1];
    if (firstEntry.slab === lastEntry.slab) return firstEntry.slab.buffer.subarray(firstEntry.start, lastEntry.end);
    const pieces: Buffer[] = [];
    for (let i = start; i < end; i++) {
      const entry = entries[i];
      const previous = pieces.length > 0 && entries[i - 1].slab === entry.slab;
      if (previous) continue;
      let pieceEnd = i;
      while (pieceEnd + 1 < end && entries[pieceEnd + 1].slab === entry.slab) pieceEnd++;
      pieces.push(entry.slab.buffer.subarray(entry.start, entries[pieceEnd].end));
    }
    return Buffer.concat(pieces);
  }

  /** Drops every kept batch (the log lost its end, rolled, or its active segment was replaced). */
  clear(): void {
    for (const slab of this.slabs) this.budget.released(slab);
    this.slabs = [];
    this.entries = [];
    this.first = 0;
    this.segmentBaseOffset = -1;
  }

  /** Drops `slab` and its batches: this log's oldest (the budget's queue and this log's are both in append order). */
  dropOldest(slab: Slab): void {
    if (this.slabs[0] !== slab) throw new Error('recent appends: the slab dropped is not the oldest one kept');
    this.slabs.shift();
    this.budget.released(slab);
    while (this.first < this.entries.length && this.entries[this.first].slab === slab) this.first++;
    if (this.first > 256 && this.first * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.first);
      this.first = 0;
    }
  }
}
