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
});
