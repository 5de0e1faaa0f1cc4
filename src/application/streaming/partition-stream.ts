// One partition streamed to one consumer (a WebSocket subscription or an SSE stream), in offset order: wait until
// the sink has room, read stored batches from the current offset, encode at most as many records as the sink can
// take now, hand them over, move on; when caught up, wait for the high watermark to move. Memory per stream is one
// fetch (BROOK_WS_FETCH_BYTES_MAX) at a time; nothing is read while the sink has no room, so a consumer that stops
// reading or stops granting credits costs the broker nothing but the open stream.
//
// Fan-out: streams of one partition that are caught up wake together when a produce lands and read the same
// offset. SharedReads lets them share one read (the same Buffer), and RecordJsonCache then hands them the same
// encoded run, so N subscribers cost one read and one serialisation, not N.
import { BrookError, errors } from '../../common/brook-error.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import type { PartitionRead } from '../../replication/replica-manager.service.js';
import type { ReadFormat } from '../record-format.js';
import type { EncodedRun, RecordJsonCache } from './record-json-cache.js';
import { type Clock, sleep, systemClock } from '../../common/clock.js';

/** Records handed to a sink at once: a WebSocket `records` frame, a run of SSE events. */
export const RECORDS_PER_FRAME_MAX = 500;
/** Long-poll of a partition stream that has caught up, and the pause after an empty read that came back at once. */
const STREAM_WAIT_MS = 5_000;
const EMPTY_READ_BACKOFF_MS = 50;

export interface StreamSink {
  /** Resolves when room() may have become positive, or when the signal aborts. */
  waitForRoom(signal: AbortSignal): Promise<void>;
  /** How many records the sink takes now (0 when out of credits or its socket is full). */
  room(): number;
  /** Takes consecutive records of one partition, in offset order; at most room() of them. Synchronous. */
  deliver(topic: string, partition: number, run: EncodedRun): void;
  /** The partition cannot be streamed any more (deleted topic, offset gone); the stream of it stops. */
  fail(topic: string, partition: number, error: BrookError): void;
  /**
   * The stream's position moved to `offset`: every offset below it was delivered or holds no record (an
   * idempotency key's marker, a compaction gap), so a commit of `offset` skips nothing. It may pass the last record
   * delivered: a partition whose last batch is a marker is read to its log end. Synchronous; optional.
   */
  reached?(topic: string, partition: number, offset: number): void;
}

/** Concurrent reads of the same partition, offset and size share one read (no waiting: reads here never long-poll). */
export class SharedReads {
  private readonly inFlight = new Map<string, Promise<PartitionRead>>();

  constructor(
    private readonly replicas: PartitionRouter,
    /** The clock the streams reading through these take their back-off times from. */
    readonly clock: Clock = systemClock,
  ) {}

  read(topic: string, partition: number, offset: number, maxBytes: number): Promise<PartitionRead> {
    const key = `${topic}\u0000${partition}\u0000${offset}\u0000${maxBytes}`;
    let read = this.inFlight.get(key);
    if (read === undefined) {
      read = this.replicas.read(topic, partition, offset, { maxBytes, waitMs: 0 });
      this.inFlight.set(key, read);
      const forget = () => this.inFlight.delete(key);
      read.then(forget, forget);
    }
    return read;
  }

  /** The same read answered now from the batches appended last, or null (replica-reads.ts, readRecent). */
  readRecent(topic: string, partition: number, offset: number, maxBytes: number): PartitionRead | null {
    return this.replicas.readRecent(topic, partition, offset, maxBytes);
  }
}

export interface StreamOptions {
  topic: string;
  partition: number;
  offset: number;
  format: ReadFormat;
  fetchBytes: number;
  /** The broker's shared cache of serialised records and its shared reads. */
  cache: RecordJsonCache;
  reads: SharedReads;
  signal: AbortSignal;
}

export async function streamPartition(
  replicas: PartitionRouter,
  sink: StreamSink,
  options: StreamOptions,
): Promise<void> {
  const { topic, partition, format, signal } = options;
  let offset = options.offset;
  let emptyReads = 0;
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (sink.room() === 0) {
        await sink.waitForRoom(signal);
        continue;
      }
      // the batch just appended, read in the same reaction as the wake-up; else a read through the log
      const { batches, nextOffset: readNext } =
        options.reads.readRecent(topic, partition, offset, options.fetchBytes) ??
        (await options.reads.read(topic, partition, offset, options.fetchBytes));
      failures = 0;
      if (signal.aborted) return;
      if (batches.length === 0) {
        // Caught up: wait for the high watermark to pass the offset. Waits that keep ending at once with nothing
        // to read (the broker's waiter bound reached, a compaction gap below the high watermark) must not spin.
        emptyReads++;
        const startedMs = options.reads.clock.monotonicMs();
        await replicas.waitForData(topic, partition, offset, STREAM_WAIT_MS, signal);
        if (emptyReads > 1 && options.reads.clock.monotonicMs() - startedMs < EMPTY_READ_BACKOFF_MS)
          await sleep(options.reads.clock, EMPTY_READ_BACKOFF_MS, signal);
        continue;
      }
      emptyReads = 0;
      if (sink.room() === 0) continue;
      if (options.cache.preparesFor(format)) {
        await options.cache.prepare(batches, format);
        if (signal.aborted) return;
      }
      // The room is read now, in the same turn as the delivery: the other partitions of the sink may have spent
      // its credits while this one waited (a read answered from memory resolves in the same turn for all).
      const room = Math.min(sink.room(), RECORDS_PER_FRAME_MAX);
      if (room === 0) continue;
      const { run, nextOffset } = options.cache.encode(batches, topic, partition, format, offset, room);
      if (run.count > 0) sink.deliver(topic, partition, run);
      const position = nextOffset ?? Math.max(readNext, offset);
      if (position > offset) sink.reached?.(topic, partition, position);
      offset = position;
    } catch (error) {
      if (signal.aborted) return;
      // A leader failing over is a pause, as for a Kafka consumer: read again (from the same offset) once a new
      // leader serves the partition. Anything else ends the stream of this partition.
      if (isLeadershipInTransit(error)) {
        failures++;
        const backoffMs = Math.min(LEADER_RETRY_MS_MAX, LEADER_RETRY_MS * 2 ** Math.min(failures - 1, 4));
        await sleep(options.reads.clock, backoffMs, signal);
        continue;
      }
      sink.fail(topic, partition, error instanceof BrookError ? error : errors.kafkaError((error as Error).message));
      return;
    }
  }
}

/** First pause before reading a partition again whose leader is unavailable; doubles up to LEADER_RETRY_MS_MAX. */
const LEADER_RETRY_MS = 100;
const LEADER_RETRY_MS_MAX = 2_000;

/** The partition has no reachable leader right now (40404), or the broker asked answers "retry" (503). */
function isLeadershipInTransit(error: unknown): boolean {
  return error instanceof BrookError && (error.errorCode === 40404 || error.status === 503);
}
