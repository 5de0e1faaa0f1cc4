// One segment of a partition log: a `.log` file of record batches end to end, with its sparse offset and time
// indexes held in memory (segment-indexes.ts) and written beside it on roll, flush and close
// (segment-index-files.ts). A segment knows byte positions; the partition log above it knows offsets across
// segments. The walks over its batch headers are in segment-scan.ts, the write of an append with its CRC check in
// segment-append-write.ts.
//
// Compaction swaps a segment's file under the same path. A LogSegment object describes one version of the file
// (its size and index positions), so the cleaner retires the old object before the rename: a read through it
// that has not opened the file by then fails with SegmentRetiredError and retries with the new segment, while a
// read that already holds an open handle keeps reading the old inode to the end.
import { open, rm, truncate, type FileHandle } from 'node:fs/promises';
import { DATA_FILE_MODE } from '../common/file-modes.js';
import type { FileHandlePool } from './file-handle-pool.js';
import type { InlineWriteGate } from './inline-write-gate.js';
import { SegmentRetiredError } from './log-errors.js';
import type { OffsetIndex } from './offset-index.js';
import { BATCH_HEADER_BYTES, CorruptBatchError, lastOffsetOf, type BatchHeader } from './record-batch-layout.js';
import { maxIndexEntries } from './roll-policy.js';
import type { RecordWalk } from './record-batch-validation.js';
import {
  canWriteByPath,
  type CheckedWrite,
  writeBatchesOnThisThread,
  writeCheckedBatches,
  writeCheckedBatchesToPath,
} from './segment-append-write.js';
import { indexFilePath, logFilePath, timeIndexFilePath } from './segment-files.js';
import { readIndexFiles, writeIndexFiles } from './segment-index-files.js';
import { SegmentIndexes } from './segment-indexes.js';
import {
  locateBatch,
  readFirstHeader,
  scanHeaders,
  scanValidBatches,
  readBatchesAt,
  readBatchesFromIndexed,
  SegmentWindow,
  type LocatedBatch,
} from './segment-scan.js';
import type { TimeIndex } from './time-index.js';

export interface SegmentOptions {
  indexIntervalBytes: number;
  segmentIndexBytes: number;
}

export interface BatchToWrite {
  buffer: Buffer;
  header: BatchHeader; // already carries the assigned base offset
}

export interface RecoveryResult {
  validBytes: number;
  truncatedBytes: number;
  nextOffset: number;
}

export class LogSegment {
  /** Bytes written and readable. */
  sizeBytes: number;
  private readonly indexes: SegmentIndexes;
  private replaced: Promise<void> | null = null;
  /** The bytes a recovery read, kept while the log loads for its producer replay (keepRecoveredBytes). */
  private recovered: SegmentWindow | null = null;
  private keepRecovered = false;
  /** logPath, built on first use: every append and read passes it to the handle pool (a Map keyed by it). */
  private logPathBuilt: string | null = null;

  private constructor(
    readonly dir: string,
    readonly baseOffset: number,
    private readonly pool: FileHandlePool,
    private options: SegmentOptions,
    sizeBytes: number,
    readonly createdAtMs: number,
  ) {
    this.sizeBytes = sizeBytes;
    this.indexes = new SegmentIndexes(baseOffset, maxIndexEntries(options.segmentIndexBytes));
  }

  get logPath(): string {
    this.logPathBuilt ??= logFilePath(this.dir, this.baseOffset);
    return this.logPathBuilt;
  }

  /** One past the last offset in this segment; the base offset while empty. */
  get nextOffset(): number {
    return this.indexes.nextOffset;
  }

  /** The largest record timestamp in this segment; -1 while it has none. */
  get maxTimestampMs(): number {
    return this.indexes.maxTimestampMs;
  }

  /** The max timestamp of the first batch, which segment.ms measures the segment's age from; null while empty. */
  get firstBatchTimestamp(): number | null {
    return this.indexes.firstBatchTimestampMs;
  }

  get offsetIndex(): OffsetIndex {
    return this.indexes.offsetIndex;
  }

  get timeIndex(): TimeIndex {
    return this.indexes.timeIndex;
  }

  static async create(
    dir: string,
    baseOffset: number,
    pool: FileHandlePool,
    options: SegmentOptions,
    nowMs: number,
  ): Promise<LogSegment> {
    const file = await open(logFilePath(dir, baseOffset), 'w', DATA_FILE_MODE);
    await file.close();
    return new LogSegment(dir, baseOffset, pool, options, 0, nowMs);
  }

  /**
   * Opens an existing segment. With `trustIndexes` (clean shutdown, or below the recovery point) the index files
   * are loaded and the tail after the last index entry is scanned to find the end; a missing or inconsistent
   * index is rebuilt. Without, the caller runs `recover()`.
   */
  static async open(
    dir: string,
    baseOffset: number,
    pool: FileHandlePool,
    options: SegmentOptions,
    sizeBytes: number,
    nowMs: number,
    trustIndexes: boolean,
  ): Promise<LogSegment> {
    const segment = new LogSegment(dir, baseOffset, pool, options, sizeBytes, nowMs);
    if (!trustIndexes) return segment;
    try {
      if (await segment.loadIndexes()) {
        await segment.scanTailFromLastIndexEntry();
        return segment;
      }
    } catch (error) {
      if (!(error instanceof CorruptBatchError)) throw error;
    }
    await segment.recover();
    return segment;
  }

  /**
   * Compaction, before renaming a rewritten file over this segment's path: from now on, reads through this object
   * that have not opened the file yet fail with SegmentRetiredError. `replaced` settles once the log holds the
   * new segment object.
   */
  retire(replaced: Promise<void>): void {
    this.replaced = replaced;
  }

  /** Compaction, after the rename: drops the pooled handle so the next use opens the file now at the path. */
  forgetHandle(): void {
    this.pool.forget(this.logPath);
  }

  /**
   * Runs a read with the log file's handle. The check runs after the handle is open: a segment not yet retired
   * then means the rename had not started when the file was opened, so the handle is on this object's file.
   */
  private withReadHandle<T>(use: (handle: FileHandle) => Promise<T>): Promise<T> {
    return this.pool.withHandle(this.logPath, (handle) => {
      if (this.replaced !== null) throw new SegmentRetiredError(this.baseOffset, this.replaced);
      return use(handle);
    });
  }

  updateOptions(options: SegmentOptions): void {
    this.options = options;
  }

  /**
   * Writes batches at the end of the file (segment-append-write.ts) and indexes them. `uncheckedCrc` lists the
   * batches (by index) whose CRC is still to be checked, `recordWalks` (by index, [] for none) those whose records
   * are walked too; when one fails, nothing of this append stays in the file, nothing is indexed, and append
   * returns the indexes of the corrupt batches (else []). Readers never see refused bytes: every read stops at `sizeBytes`,
   * which only moves for kept batches. `inline`: a follower's append, written on this thread when small enough
   * (segment-append-write.ts).
   */
  async append(
    batches: BatchToWrite[],
    uncheckedCrc: readonly number[] = [],
    inline = false,
    recordWalks: readonly RecordWalk[] = [],
  ): Promise<number[]> {
    const position = this.sizeBytes;
    const write = await this.writeAt(position, batches, uncheckedCrc, inline, recordWalks);
    if (write.wroteRefused) await this.truncateFileTo(position);
    if (write.checkError !== null) throw write.checkError;
    if (write.corrupt.length > 0) return write.corrupt;
    this.commitWritten(position, batches);
    return write.corrupt;
  }

  /**
   * The write of an append at `position` alone (segment-append-write.ts): nothing indexed, `sizeBytes` unchanged.
   * For appends written while others are in flight (log-write-pipeline.ts), which commit them in order once written
   * (`commitWritten`), or cut them off again (`cutBackTo`). With the native addon, when the handle pool holds no
   * handle of this file and has no free descriptor, the write opens the file in its own thread-pool job instead.
   */
  async writeAt(
    position: number,
    batches: BatchToWrite[],
    uncheckedCrc: readonly number[],
    inline = false,
    recordWalks: readonly RecordWalk[] = [],
  ): Promise<CheckedWrite> {
    const buffers = batches.map((batch) => batch.buffer);
    const path = this.logPath;
    // Without a free descriptor, the native write opens the file in its own job rather than evicting a pooled one.
    const byPathIfFull = canWriteByPath && !inline;
    const lease = byPathIfFull ? this.pool.leaseUnlessFull(path) : this.pool.lease(path);
    if (lease === null) return writeCheckedBatchesToPath(path, buffers, position, uncheckedCrc, recordWalks);
    try {
      const handle = lease.opened ?? (await lease.opening);
      return await writeCheckedBatches(handle, path, buffers, position, uncheckedCrc, inline, recordWalks);
    } finally {
      lease.release();
    }
  }

  /**
   * writeAt for batches that need no check, on this thread (a leader's inline write, log-write-pipeline.ts), timed
   * by `gate`. Through writeAt's thread-pool job when the handle pool holds no handle of this file and has no free
   * descriptor: that job opens the file itself rather than evicting a pooled handle.
   */
  async writeAtInline(position: number, batches: BatchToWrite[], gate: InlineWriteGate): Promise<CheckedWrite> {
    const lease = this.pool.leaseUnlessFull(this.logPath);
    if (lease === null) return this.writeAt(position, batches, []);
    try {
      const handle = lease.opened ?? (await lease.opening);
      const buffers = batches.map((batch) => batch.buffer);
      return gate.timed(() => writeBatchesOnThisThread(handle.fd, this.logPath, buffers, position));
    } finally {
      lease.release();
    }
  }

  /** Indexes `batches`, written at `position` (the current end), and moves the end past them: readers see them. */
  commitWritten(position: number, batches: BatchToWrite[]): void {
    if (position !== this.sizeBytes) {
      throw new Error(`${this.logPath}: a write at ${position} committed at the end ${this.sizeBytes}`);
    }
    let batchPosition = position;
    for (const batch of batches) {
      this.indexes.add(batch.header, batchPosition, this.options.indexIntervalBytes);
      batchPosition += batch.buffer.length;
    }
    this.sizeBytes = batchPosition;
  }

  /** Cuts the file back to `sizeBytes` (not below the end readers see): bytes written there were never committed. */
  async cutBackTo(sizeBytes: number): Promise<void> {
    if (sizeBytes < this.sizeBytes) throw new Error(`${this.logPath}: cannot cut committed bytes off`);
    await this.truncateFileTo(sizeBytes);
  }

  /**
   * The byte position of the first batch whose last offset is >= `offset`, with its header; null when the
   * segment holds no such batch.
   */
  locate(offset: number): Promise<LocatedBatch | null> {
    const position = this.offsetIndex.lookup(offset).position;
    return this.withReadHandle((handle) => locateBatch(handle, position, this.sizeBytes, offset, this.logPath));
  }

  /** Passes the header of every batch whose last offset is >= `offset`, in order (producer-state replay). */
  async forEachHeaderFrom(offset: number, onHeader: (header: BatchHeader) => void): Promise<void> {
    // one walk from the index entry at or below `offset` (locate's start), passing headers from the batch it finds
    const position = offset <= this.baseOffset ? 0 : this.offsetIndex.lookup(offset).position;
    await this.withReadHandle((handle) =>
      scanHeaders(
        handle,
        position,
        this.sizeBytes,
        onHeader,
        offset,
        this.recovered?.readingThrough(handle, this.sizeBytes),
      ),
    );
  }

  /**
   * Opening a log after a crash: the next recover() keeps the bytes it read (at most one chunk, 64 KB) until
   * dropRecoveredBytes(), so the producer replay that follows walks them without reading the file again.
   */
  keepRecoveredBytes(): void {
    this.keepRecovered = true;
  }

  dropRecoveredBytes(): void {
    this.keepRecovered = false;
    this.recovered = null;
  }

  /**
   * Reads whole batches starting at the first batch whose last offset is >= `offset`: at most `maxBytes`, at least
   * that batch when `minOneBatch`, none whose last offset is >= `maxOffsetExclusive`. null when the segment holds no
   * such batch. Usually one `pread` from the index position (the wanted batch lies within an index interval of it,
   * so the skipped bytes are few); when the wanted batch is not whole in that read, it locates the batch and reads
   * again from there.
   */
  async readFromOffset(
    offset: number,
    maxBytes: number,
    maxOffsetExclusive: number,
    minOneBatch: boolean,
  ): Promise<Buffer | null> {
    const indexed = this.offsetIndex.lookup(offset).position;
    const available = this.sizeBytes - indexed;
    if (available >= BATCH_HEADER_BYTES) {
      const direct = await this.withReadHandle((handle) =>
        readBatchesFromIndexed(handle, indexed, available, offset, maxBytes, maxOffsetExclusive),
      );
      if (direct !== undefined) return direct;
    }
    const found = await this.locate(offset);
    if (found === null) return null;
    if (lastOffsetOf(found.header) >= maxOffsetExclusive) return Buffer.alloc(0);
    return this.readFrom(found.position, maxBytes, maxOffsetExclusive, minOneBatch);
  }

  /**
   * Reads whole batches from `position`: at most `maxBytes`, but at least the first batch when `minOneBatch`,
   * and none whose last offset is >= `maxOffsetExclusive`.
   */
  async readFrom(
    position: number,
    maxBytes: number,
    maxOffsetExclusive: number,
    minOneBatch: boolean,
  ): Promise<Buffer> {
    const available = this.sizeBytes - position;
    if (available < BATCH_HEADER_BYTES) return Buffer.alloc(0);
    return this.withReadHandle((handle) =>
      readBatchesAt(handle, position, available, maxBytes, maxOffsetExclusive, minOneBatch),
    );
  }

  /**
   * Re-scans the file batch by batch, rebuilding both indexes; stops at the first batch that is cut off, fails
   * its CRC, or breaks offset order, and truncates the file there. `onValidBatch` sees each batch kept, in order
   * (recovery assigns their leader epochs again, log-loader.ts).
   */
  async recover(
    expectedFirstOffset = this.baseOffset,
    onValidBatch?: (header: BatchHeader) => void,
  ): Promise<RecoveryResult> {
    this.indexes.reset();
    const { indexIntervalBytes } = this.options;
    const valid = await this.pool.withHandle(this.logPath, (handle) => {
      const window = new SegmentWindow(handle, this.sizeBytes);
      if (this.keepRecovered) this.recovered = window;
      return scanValidBatches(
        handle,
        this.sizeBytes,
        expectedFirstOffset,
        (header, position) => {
          this.indexes.add(header, position, indexIntervalBytes);
          onValidBatch?.(header);
        },
        window,
      );
    });
    const truncatedBytes = this.sizeBytes - valid.validBytes;
    if (truncatedBytes > 0) await this.truncateFileTo(valid.validBytes);
    this.indexes.nextOffset = Math.max(valid.nextOffset, this.baseOffset);
    return { validBytes: valid.validBytes, truncatedBytes, nextOffset: this.nextOffset };
  }

  /** Removes every batch whose last offset is >= `offset` (Kafka truncates whole batches). Returns bytes removed. */
  async truncateTo(offset: number): Promise<number> {
    if (offset >= this.nextOffset) return 0;
    const found = offset <= this.baseOffset ? { position: 0 } : await this.locate(offset);
    if (found === null) return 0;
    const removed = this.sizeBytes - found.position;
    await this.truncateFileTo(found.position);
    // The indexes and the max timestamp are rebuilt from what remains: simplest correct answer, and truncation
    // only happens on leader change or recovery.
    await this.recover();
    return removed;
  }

  private async truncateFileTo(sizeBytes: number): Promise<void> {
    await truncate(this.logPath, sizeBytes);
    this.sizeBytes = sizeBytes;
  }

  /** fsyncs the log file and writes both index files (with a final time index entry for the max timestamp). */
  async flush(): Promise<void> {
    await this.pool.withHandle(this.logPath, (handle) => handle.sync());
    await this.writeIndexes();
  }

  async writeIndexes(): Promise<void> {
    this.indexes.completeTimeIndex();
    await writeIndexFiles(this.dir, this.baseOffset, this.indexes);
  }

  async deleteFiles(): Promise<void> {
    this.pool.forget(this.logPath);
    await Promise.all(
      [this.logPath, indexFilePath(this.dir, this.baseOffset), timeIndexFilePath(this.dir, this.baseOffset)].map(
        (path) => rm(path, { force: true }),
      ),
    );
  }

  private async loadIndexes(): Promise<boolean> {
    const maxEntries = maxIndexEntries(this.options.segmentIndexBytes);
    const loaded = await readIndexFiles(this.dir, this.baseOffset, maxEntries, this.sizeBytes);
    if (loaded === null) return false;
    this.indexes.useLoaded(loaded.offsetIndex, loaded.timeIndex);
    return true;
  }

  /** After loading trusted indexes: walk the headers after the last entry to learn the end offset and timestamps. */
  private async scanTailFromLastIndexEntry(): Promise<void> {
    await this.pool.withHandle(this.logPath, async (handle) => {
      // segment.ms measures from the first batch's timestamp, which the indexes do not hold.
      const window = new SegmentWindow(handle, this.sizeBytes); // a small segment is one read for both walks
      const first = await readFirstHeader(handle, this.sizeBytes, window);
      if (first !== null) this.indexes.firstBatchTimestampMs = first.maxTimestamp;
      await scanHeaders(
        handle,
        this.indexes.lastIndexedPosition(),
        this.sizeBytes,
        (header) => this.indexes.addTail(header),
        -1,
        window,
      );
    });
  }
}
