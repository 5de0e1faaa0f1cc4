// Writes in flight: a leader's drain (log-appender.ts) whose group needs nothing but its write starts that write at
// once, right after the bytes of the writes still in flight (at most WRITES_IN_FLIGHT_MAX a log), and leaves the
// serial queue, so the next drain can start its write before this one returned. Each write is the same thread-pool
// job as a lone one: the CRCs of its batches are checked in the job, and nothing of the job is written when one
// fails (segment-append-write.ts). On a machine with few cores the two thread hand-offs of a job (queued to a pool
// thread, its completion back to the JavaScript thread) took most of its ~2 ms under K1's load (the CRC and the
// copy 0.3-0.45 ms); with one job at a time per log they were paid one after the other.
//
// The writes are settled in the order they started, each once it and every earlier one returned: a written group
// is committed to the segment (indexed, readable), the log end moves past it and it is answered. A job refused by
// its CRC check leaves a hole under the writes started after it, which may have landed: from the refused job on,
// nothing more is committed or answered, nothing new starts; once the last job in flight returned, the file is cut
// back to the refused job's position and the appender writes the good batches of all those jobs again with dense
// offsets (a batch's base offset lies outside its CRC), refusing the corrupt ones (AppendQueue.dropCorrupt). No
// answer is ever given for a batch above a hole. A crash before that cut leaves bytes past a hole, which recovery
// truncates at the hole (log-loader.ts); nothing there was answered.
//
// A write behind one in flight starts only for a group of more than one append, or once the write in flight
// returned: a lone append waits for company or for that write (waitForSlot). W1's 8 connections bring one ~110 KB
// batch at a time, and a second write for each lone one made about twice the writes of one at a time (1,215-1,248
// `pwritev` calls against 622 per 2,000 requests), each a thread-pool round trip and its context switches. K1's 20
// requests in flight to one partition bring several appends while a write is in flight, and keep their overlap.
//
// A write that finds none in flight and needs no check (batches Brook built), up to INLINE_LEADER_WRITE_BYTES_MAX,
// is done on this thread instead while the loop has time to spare (inline-write-gate.ts: the copy costs the loop
// less than the job's two thread switches, and W5's append of 100 records no longer waits 0.1-1.4 ms for them).
// It is settled the same way.
import { recordWalks, uncheckedCrcIndexes, type PendingAppend } from './append-queue.js';
import type { LocalLog } from './local-log.js';
import type { LogSegment } from './log-segment.js';
import type { CheckedWrite } from './segment-append-write.js';

/**
 * Most writes of one log in flight at once (see the header). Two: under K1's load (20 Produce requests in flight to
 * one partition) 4 in flight made more, smaller writes (2.5 batches a write against 4.5) for no more throughput.
 */
export const WRITES_IN_FLIGHT_MAX = 2;

/** What the appender does with the groups the pipeline settles. */
export interface PipelineHost {
  /** The group was written and committed to the segment: fsync it when the flush policy says so. */
  flushIfDue(items: PendingAppend[]): Promise<void>;
  /**
   * The groups from a refused one on, in offset order, none committed, the file cut back to where the first began:
   * refuse the `corrupt` ones, write the others again with dense offsets, answer them.
   */
  rewrite(items: PendingAppend[], corrupt: ReadonlySet<PendingAppend>): Promise<void>;
  /** An I/O error (or a log already offline): the log goes offline and `items` are refused. */
  fail(items: PendingAppend[], error: unknown): void;
}

interface WriteInFlight {
  items: PendingAppend[];
  segment: LogSegment;
  position: number;
  bytes: number;
  outcome: CheckedWrite | null;
  error: unknown;
}

export class LogWritePipeline {
  /** Bytes started and not yet settled: the next write goes this far past the segment's end. */
  private bytesStarted = 0;
  /**
   * The writes whose job has not returned, by the promise that settles when it does; null while none is (made for
   * each run of overlapping writes: an idle log, most of a broker's, holds no Set).
   */
  private returning: Set<Promise<void>> | null = null;
  /**
   * The write started last, until it is settled (then null: an idle log keeps no write's items, batches and
   * answers alive, nor the request buffers its batches were cut from).
   */
  private lastStarted: WriteInFlight | null = null;
  /** From a refused write on: the writes settled and not committed, oldest first; null while none was refused. */
  private uncommitted: WriteInFlight[] | null = null;
  /** The appender is writing those groups again. */
  private rewriting = false;
  /** Set while a lone append waits behind a write in flight (waitForSlot): ends that wait. */
  private companyQueued: (() => void) | null = null;

  constructor(
    private readonly local: LocalLog,
    private readonly host: PipelineHost,
  ) {}

  /** Bytes of writes started and not yet settled (they lie past the active segment's end). */
  get bytesInFlight(): number {
    return this.bytesStarted;
  }

  /** A write was refused and the ones after it are still to be written again: nothing new may start. */
  get refusalPending(): boolean {
    return this.uncommitted !== null || this.rewriting;
  }

  /**
   * Whether `items` (the next drain's) can be written behind the writes in flight: the log is online, no refused
   * write is being redone, none of them was copied from the leader (a follower writes on its own thread) or starts
   * a leader epoch (saved before its write), and all fit `active` (`mustRoll`: whether one must go to a new segment,
   * given the bytes before it), which already has a first batch (the roll policy measures its age from it).
   */
  canStart(
    items: readonly PendingAppend[],
    active: LogSegment,
    mustRoll: (item: PendingAppend, bytesBefore: number) => boolean,
  ): boolean {
    if (this.local.offlineCause !== null || this.refusalPending) return false;
    if (items.length === 0 || active.sizeBytes === 0) return false;
    let bytesBefore = this.bytesStarted;
    for (const item of items) {
      if (item.fromLeader || item.newEpoch !== null || mustRoll(item, bytesBefore)) return false;
      bytesBefore += item.batch.buffer.length;
    }
    return true;
  }

  /**
   * Waits until fewer than WRITES_IN_FLIGHT_MAX writes are in flight, and, while one is, until the group that would
   * start behind it holds more than one append (`queued`: how many are queued now) or it returned: a lone append
   * behind a write in flight waits for company or for that write (see the header).
   */
  async waitForSlot(queued: () => number): Promise<void> {
    while (this.returning !== null && this.returning.size >= WRITES_IN_FLIGHT_MAX) await Promise.race(this.returning);
    if (this.returning === null || queued() !== 1) return;
    await new Promise<void>((resolve) => {
      this.companyQueued = resolve;
      for (const write of this.returning!) void write.then(resolve);
    });
    this.companyQueued = null;
  }

  /** A second append was queued: a lone append waiting behind a write in flight (waitForSlot) goes now. */
  appendQueued(): void {
    this.companyQueued?.();
  }

  /** Starts the write of `items` right after the bytes in flight in `segment`; settled in start order. */
  start(items: PendingAppend[], segment: LogSegment): void {
    const batches = items.map((item) => item.batch);
    let bytes = 0;
    for (const batch of batches) bytes += batch.buffer.length;
    const unchecked = uncheckedCrcIndexes(items);
    const write: WriteInFlight = {
      items,
      segment,
      position: segment.sizeBytes + this.bytesStarted,
      bytes,
      outcome: null,
      error: null,
    };
    this.bytesStarted += bytes;
    this.lastStarted = write;
    // on this thread when it needs no check and no other write is in flight (inline-write-gate.ts)
    const gate = this.local.deps.inlineWrites;
    const writing =
      gate !== undefined && this.returning === null && unchecked.length === 0 && gate.allows(bytes)
        ? segment.writeAtInline(write.position, batches, gate)
        : segment.writeAt(write.position, batches, unchecked, false, recordWalks(items));
    const returned: Promise<void> = writing.then(
      (outcome) => {
        write.outcome = outcome;
        this.returned(returned);
      },
      (error: unknown) => {
        write.error = error;
        this.returned(returned);
      },
    );
    (this.returning ??= new Set()).add(returned);
    const before = this.local.appendsWritten();
    this.local.writingBehind(before.then(() => returned).then(() => this.settle(write)));
  }

  private returned(write: Promise<void>): void {
    this.returning!.delete(write);
    if (this.returning!.size === 0) this.returning = null;
  }

  /** After `write` and every earlier write returned and were settled (see the header). Never rejects. */
  private async settle(write: WriteInFlight): Promise<void> {
    this.bytesStarted -= write.bytes;
    try {
      const { outcome } = write;
      const error = outcome === null ? write.error : outcome.checkError;
      if (error !== null) {
        this.host.fail(write.items, error);
      } else if (this.local.offlineCause !== null) {
        this.host.fail(write.items, this.local.offlineCause);
      } else if (this.uncommitted === null && outcome!.corrupt.length === 0 && !outcome!.wroteRefused) {
        await this.answer(write);
      } else {
        for (const item of write.items) item.crcUnchecked = false; // the job checked (and walked) every one
        (this.uncommitted ??= []).push(write);
      }
    } catch (error) {
      this.host.fail(write.items, error);
    }
    if (write !== this.lastStarted) return;
    this.lastStarted = null;
    if (this.uncommitted !== null) await this.writeAgain(this.uncommitted);
  }

  /** Commits `write` (every earlier one is), moves the log end past it, fsyncs when due, and only then answers. */
  private async answer({ items, segment, position }: WriteInFlight): Promise<void> {
    segment.commitWritten(
      position,
      items.map((item) => item.batch),
    );
    this.local.appendsCommitted(items);
    await this.host.flushIfDue(items);
    for (const item of items) item.resolve(item.info);
  }

  /** The last write in flight returned after a refusal: cut the file back, hand the groups to the appender. */
  private async writeAgain(uncommitted: WriteInFlight[]): Promise<void> {
    const items = uncommitted.flatMap((write) => write.items);
    this.uncommitted = null;
    this.rewriting = true;
    try {
      if (this.local.offlineCause !== null) throw this.local.offlineCause;
      const first = uncommitted[0];
      // bytes of this run may have landed: a later write's, or a refused one's written before its check (no addon)
      if (uncommitted.some((write) => write.outcome!.corrupt.length === 0 || write.outcome!.wroteRefused)) {
        await first.segment.cutBackTo(first.position);
      }
      const corrupt = new Set<PendingAppend>();
      for (const write of uncommitted) for (const index of write.outcome!.corrupt) corrupt.add(write.items[index]);
      await this.host.rewrite(items, corrupt);
    } catch (error) {
      this.host.fail(items, error);
    } finally {
      this.rewriting = false;
    }
  }
}
