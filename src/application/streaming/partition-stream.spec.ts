import { describe, expect, it } from 'vitest';
import { encodeBatch } from '../../partition-log/record-batch.js';
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import { SharedReads, streamPartition, type StreamSink } from './partition-stream.js';
import { RecordJsonCache, type EncodedRun } from './record-json-cache.js';

/** A batch of `count` records at offset 0, as stored. */
function storedBatch(count: number): Buffer {
  const values = Array.from({ length: count }, (_, i) => ({ key: null, value: Buffer.from(`v${i}`), timestamp: 1 }));
  return encodeBatch(values);
}

/** A router whose reads answer at once (as a read of the batch just appended does): every partition holds `batch`. */
function instantRouter(batch: Buffer): PartitionRouter {
  return {
    readRecent: () => null,
    read: (_topic: string, _partition: number, offset: number) =>
      Promise.resolve(
        offset === 0
          ? { batches: batch, nextOffset: 10, highWatermark: 10, logStartOffset: 0 }
          : { batches: Buffer.alloc(0), nextOffset: offset, highWatermark: 10, logStartOffset: 0 },
      ),
    waitForData: (_t: string, _p: number, _o: number, _w: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  } as unknown as PartitionRouter;
}

describe('streamPartition', () => {
  it('never delivers more than the sink has room for when partitions read in the same turn', async () => {
    let credits = 7;
    const delivered: number[] = [];
    const failures: string[] = [];
    const abort = new AbortController();
    const sink: StreamSink = {
      room: () => credits,
      waitForRoom: (signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      deliver: (_topic: string, partition: number, run: EncodedRun) => {
        if (run.count > credits) throw new Error(`delivered ${run.count} records with ${credits} credits`);
        credits -= run.count;
        delivered[partition] = (delivered[partition] ?? 0) + run.count;
      },
      fail: (_topic, partition, error) => failures.push(`${partition}: ${error.message}`),
    };
    const router = instantRouter(storedBatch(10));
    const options = {
      topic: 't',
      offset: 0,
      format: 'string' as const,
      fetchBytes: 1024 * 1024,
      cache: new RecordJsonCache(),
      reads: new SharedReads(router),
      signal: abort.signal,
    };
    const streams = [0, 1].map((partition) => streamPartition(router, sink, { ...options, partition }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    await Promise.all(streams);
    expect(failures).toEqual([]);
    expect((delivered[0] ?? 0) + (delivered[1] ?? 0)).toBe(7);
  });

  it('delivers the batch a wake-up announces in the first reaction after it, when the read is answered from memory', async () => {
    const batch = storedBatch(10);
    let wake = () => {};
    let appended = false;
    const asyncReads: number[] = [];
    const router = {
      // the batch just appended is in memory once the wake-up has come
      readRecent: (_t: string, _p: number, offset: number) =>
        appended && offset === 0 ? { batches: batch, nextOffset: 10, highWatermark: 10, logStartOffset: 0 } : null,
      read: (_t: string, _p: number, offset: number) => {
        asyncReads.push(offset);
        return Promise.resolve(
          appended && offset === 0
            ? { batches: batch, nextOffset: 10, highWatermark: 10, logStartOffset: 0 }
            : { batches: Buffer.alloc(0), nextOffset: offset, highWatermark: appended ? 10 : 0, logStartOffset: 0 },
        );
      },
      waitForData: (_t: string, _p: number, _o: number, _w: number, signal: AbortSignal) =>
        new Promise<void>((resolve) => {
          wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    } as unknown as PartitionRouter;
    const delivered: number[] = [];
    const abort = new AbortController();
    const sink: StreamSink = {
      room: () => 100,
      waitForRoom: () => Promise.resolve(),
      deliver: (_topic, _partition, run) => delivered.push(run.count),
      fail: (_topic, _partition, error) => {
        throw error;
      },
    };
    const stream = streamPartition(router, sink, {
      topic: 't',
      partition: 0,
      offset: 0,
      format: 'string',
      fetchBytes: 1024 * 1024,
      cache: new RecordJsonCache(),
      reads: new SharedReads(router),
      signal: abort.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 10)); // caught up and parked
    expect(asyncReads).toEqual([0]);
    appended = true;
    wake();
    await Promise.resolve(); // one reaction: the stream's
    expect(delivered).toEqual([10]);
    expect(asyncReads.filter((offset) => offset === 0)).toHaveLength(1); // offset 0 not read through the log again
    abort.abort();
    await stream;
  });
});
