// The walks over a segment file's batches (segment-scan.ts) read a chunk at a time through one SegmentWindow:
// what they find is what a walk batch by batch finds (torn tail, bad CRC, offsets going back, a batch larger than a
// chunk), in one read for a small segment. The reads are counted on the handle.
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchOfValues, makeTempDir, removeDir } from '../../test/support/log-fixtures.js';
import { assignOffsetAndEpoch, readBatchHeader, type BatchHeader } from './record-batch-layout.js';
import { readFirstHeader, scanHeaders, scanValidBatches, SegmentWindow } from './segment-scan.js';

let dir: string;
let handle: FileHandle | undefined;
beforeEach(async () => {
  dir = await makeTempDir('brook-scan-');
});
afterEach(async () => {
  await handle?.close();
  handle = undefined;
  await removeDir(dir);
});

/** `count` batches of 3 records each, offsets 3i..3i+2, epoch 1; `big` (an index) holds one ~100 KB value. */
function batches(count: number, big = -1): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const batch = i === big ? batchOfValues('x'.repeat(100_000), 3) : batchOfValues(`v${i}`, 3);
    assignOffsetAndEpoch(batch, 3 * i, 1);
    return batch;
  });
}

/** The batches written as a file, opened, with its reads counted. */
async function segmentFile(parts: Buffer[]): Promise<{ file: FileHandle; reads: () => number; size: number }> {
  const path = join(dir, '00000000000000000000.log');
  const bytes = Buffer.concat(parts);
  await writeFile(path, bytes);
  handle = await open(path, 'r');
  const real = handle;
  let reads = 0;
  const counted = {
    read: (...args: Parameters<FileHandle['read']>) => {
      reads++;
      return real.read(...args);
    },
  } as unknown as FileHandle;
  return { file: counted, reads: () => reads, size: bytes.length };
}

function endOf(parts: Buffer[], count: number): number {
  return parts.slice(0, count).reduce((sum, part) => sum + part.length, 0);
}

describe('scanValidBatches', () => {
  it('checks every batch of a small segment in one read', async () => {
    const parts = batches(200);
    const { file, reads, size } = await segmentFile(parts);
    const seen: number[] = [];
    const result = await scanValidBatches(file, size, 0, (header, position) => {
      expect(position).toBe(endOf(parts, seen.length));
      seen.push(header.baseOffset);
    });
    expect(result).toEqual({ validBytes: size, nextOffset: 600 });
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => 3 * i));
    expect(size).toBeLessThan(64 * 1024);
    expect(reads()).toBe(1); // a read per header and batch was 400
  });

  it('stops at a torn tail, a batch that fails its CRC, and offsets that go back', async () => {
    const parts = batches(120);
    const torn = await segmentFile(parts);
    expect(await scanValidBatches(torn.file, torn.size - 5, 0, () => undefined)).toEqual({
      validBytes: endOf(parts, 119),
      nextOffset: 357,
    });
    await handle?.close();

    const corrupt = batches(120);
    corrupt[70][corrupt[70].length - 2] ^= 0xff; // a record byte: the CRC no longer matches
    const bad = await segmentFile(corrupt);
    let count = 0;
    const result = await scanValidBatches(bad.file, bad.size, 0, () => count++);
    expect(result).toEqual({ validBytes: endOf(corrupt, 70), nextOffset: 210 });
    expect(count).toBe(70);
    await handle?.close();

    const back = batches(120);
    assignOffsetAndEpoch(back[90], 3, 1); // below the offset the batch before ended at
    const backwards = await segmentFile(back);
    expect(await scanValidBatches(backwards.file, backwards.size, 0, () => undefined)).toEqual({
      validBytes: endOf(back, 90),
      nextOffset: 270,
    });
  });

  it('reads a batch larger than a chunk whole, and goes on after it', async () => {
    const parts = batches(30, 10);
    const { file, reads, size } = await segmentFile(parts);
    expect(parts[10].length).toBeGreaterThan(64 * 1024);
    let count = 0;
    expect(await scanValidBatches(file, size, 0, () => count++)).toEqual({ validBytes: size, nextOffset: 90 });
    expect(count).toBe(30);
    expect(reads()).toBeLessThanOrEqual(3);
  });
});

describe('scanHeaders', () => {
  it('passes the headers from the first batch that reaches an offset, in one read for a small segment', async () => {
    const parts = batches(200);
    const { file, reads, size } = await segmentFile(parts);
    const seen: BatchHeader[] = [];
    await scanHeaders(file, endOf(parts, 50), size, (header) => seen.push(header), 301);
    // the batch holding offset 301 is the one at 300 (offsets 300-302)
    expect(seen.map((header) => header.baseOffset)).toEqual(Array.from({ length: 100 }, (_, i) => 300 + 3 * i));
    expect(reads()).toBe(1);
  });

  it('shares a window with readFirstHeader: the first header and the tail in one read', async () => {
    const parts = batches(100);
    const { file, reads, size } = await segmentFile(parts);
    const window = new SegmentWindow(file, size);
    const first = await readFirstHeader(file, size, window);
    expect(first).toEqual(readBatchHeader(parts[0]));
    let tail = 0;
    await scanHeaders(file, endOf(parts, 80), size, () => tail++, -1, window);
    expect(tail).toBe(20);
    expect(reads()).toBe(1);
  });

  it('ends at a header cut off by the end, and finds nothing in an empty file', async () => {
    const parts = batches(10);
    const { file, size } = await segmentFile(parts);
    let count = 0;
    await scanHeaders(file, 0, endOf(parts, 9) + 20, () => count++);
    expect(count).toBe(9);
    expect(await readFirstHeader(file, 0)).toBeNull();
    expect(size).toBeGreaterThan(0);
  });
});
