import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchOf, makeTempDir, removeDir, T0 } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { LogSegment } from './log-segment.js';
import { readBatchHeader } from './record-batch-layout.js';
import { canWriteByPath } from './segment-append-write.js';

const options = { indexIntervalBytes: 4096, segmentIndexBytes: 10 * 1024 * 1024 };

// More active segments than descriptors (10,000 partitions, 1,024 handles): an append must not close another
// segment's pooled handle to open its own.
describe.skipIf(!canWriteByPath)('LogSegment appends with the handle pool full', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('brook-segment-handles-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('writes through a job of its own and leaves the pooled handle of another segment open', async () => {
    const pool = new FileHandlePool(1);
    const first = await LogSegment.create(dir, 0, pool, options, T0);
    const second = await LogSegment.create(dir, 1000, pool, options, T0);
    const batch = (baseOffset: number, value: string) => {
      const buffer = batchOf({ value });
      buffer.writeBigInt64BE(BigInt(baseOffset), 0);
      return { buffer, header: readBatchHeader(buffer) };
    };
    expect(await first.append([batch(0, 'a')])).toEqual([]);
    const firstHandle = await pool.withHandle(first.logPath, async (handle) => handle);
    const written = batch(1000, 'b');
    expect(await second.append([written], [0])).toEqual([]);
    expect(pool.openFiles).toBe(1);
    expect(await pool.withHandle(first.logPath, async (handle) => handle)).toBe(firstHandle);
    expect(Buffer.compare(await readFile(second.logPath), written.buffer)).toBe(0);
    expect(second.sizeBytes).toBe(written.buffer.length);
    expect(second.nextOffset).toBe(1001);
    await pool.closeAll();
  });

  it('refuses a corrupt batch without writing it, as with a pooled handle', async () => {
    const pool = new FileHandlePool(1);
    const first = await LogSegment.create(dir, 0, pool, options, T0);
    const second = await LogSegment.create(dir, 500, pool, options, T0);
    await pool.withHandle(first.logPath, async () => undefined);
    const buffer = batchOf({ value: 'c' });
    buffer.writeBigInt64BE(500n, 0);
    buffer[buffer.length - 1] ^= 0x01;
    expect(await second.append([{ buffer, header: readBatchHeader(buffer) }], [0])).toEqual([0]);
    expect((await readFile(second.logPath)).length).toBe(0);
    expect(second.sizeBytes).toBe(0);
    await pool.closeAll();
  });
});
