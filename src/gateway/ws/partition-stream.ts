// One partition streamed to one consumer (a WebSocket subscription or an SSE stream), in offset order: wait until
// the sink has room, read stored batches from the current offset (long-polling when caught up), decode at most as
// many records as the sink can take now, hand them over, move on. Memory per stream is one fetch
// (BROOK_WS_FETCH_BYTES_MAX) at a time; nothing is read while the sink has no room, so a consumer that stops
// reading or stops granting credits costs the broker nothing but the open stream.
import { setTimeout as sleep } from 'node:timers/promises';
import { BrookError, errors } from '../../common/brook-error.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { recordsFromBatches, type ApiRecord, type ReadFormat } from '../record-format.js';
import { EMPTY_READ_BACKOFF_MS, RECORDS_PER_FRAME_MAX, STREAM_WAIT_MS } from './ws-limits.js';

export interface StreamSink {
  /** Resolves when room() may have become positive, or when the signal aborts. */
  waitForRoom(signal: AbortSignal): Promise<void>;
  /** How many records the sink takes now (0 when out of credits or its socket is full). */
  room(): number;
  /** Takes records of one partition, in offset order; at most room() of them. Synchronous. */
  deliver(topic: string, partition: number, records: ApiRecord[]): void;
  /** The partition cannot be streamed any more (deleted topic, offset gone); the stream of it stops. */
  fail(topic: string, partition: number, error: BrookError): void;
}

export interface StreamOptions {
  topic: string;
  partition: number;
  offset: number;
  format: ReadFormat;
  fetchBytes: number;
  signal: AbortSignal;
}

export async function streamPartition(
  replicas: ReplicaManager,
  sink: StreamSink,
  options: StreamOptions,
): Promise<void> {
  const { topic, partition, format, signal } = options;
  let offset = options.offset;
  while (!signal.aborted) {
    if (sink.room() === 0) {
      await sink.waitForRoom(signal);
      continue;
    }
    const startedMs = performance.now();
    let batches: Buffer;
    let readNext: number;
    try {
      const result = await replicas.read(topic, partition, offset, {
        maxBytes: options.fetchBytes,
        waitMs: STREAM_WAIT_MS,
        signal,
      });
      batches = result.batches;
      readNext = result.nextOffset;
    } catch (error) {
      if (signal.aborted) return;
      sink.fail(topic, partition, error instanceof BrookError ? error : errors.kafkaError((error as Error).message));
      return;
    }
    if (signal.aborted) return;
    if (batches.length === 0) {
      // Caught up. A read that came back empty at once (the broker's waiter bound reached) must not spin.
      if (performance.now() - startedMs < EMPTY_READ_BACKOFF_MS)
        await sleep(EMPTY_READ_BACKOFF_MS, undefined, { signal }).catch(() => undefined);
      continue;
    }
    const room = Math.min(sink.room(), RECORDS_PER_FRAME_MAX);
    if (room === 0) continue;
    const { records, nextOffset } = recordsFromBatches(batches, partition, format, offset, room, topic);
    if (records.length > 0) sink.deliver(topic, partition, records);
    offset = nextOffset ?? Math.max(readNext, offset);
  }
}
