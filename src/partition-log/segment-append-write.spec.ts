// writeCheckedBatches on this thread: a follower's append (`inline`, up to INLINE_WRITE_BYTES_MAX) and, when
// BROOK_SYNC_APPEND_BYTES_MAX is set (default 0), any append up to it, so that it completes while libuv's thread pool
// is busy; larger ones, and every leader append by default, in the thread pool.
import { pbkdf2 } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchOf, makeTempDir, removeDir } from '../../test/support/log-fixtures.js';
import { INLINE_WRITE_BYTES_MAX, SYNC_APPEND_BYTES_MAX, writeCheckedBatches } from './segment-append-write.js';

type SegmentAppendWrite = typeof import('./segment-append-write.js');

describe('writeCheckedBatches inline (a follower append)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('brook-append-write-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('has written every batch at the position before it returns (no thread-pool job to wait for)', async () => {
    const path = join(dir, 'f');
    const file = await open(path, 'w+');
    try {
      await file.write(Buffer.from('0123'), 0, 4, 0);
      const batches = [batchOf({ value: 'a' }), batchOf({ value: 'b' })];
      const writing = writeCheckedBatches(file, path, batches, 2, [0, 1], true);
      // read before the promise is awaited: the bytes are already in the file
      expect(readFileSync(path)).toEqual(Buffer.concat([Buffer.from('01'), ...batches]));
      expect(await writing).toEqual({ corrupt: [], checkError: null, wroteRefused: false });
    } finally {
      await file.close();
    }
  });

  it('checks the listed CRCs first: with a corrupt batch nothing is written', async () => {
    const path = join(dir, 'f');
    const file = await open(path, 'w+');
    try {
      const good = batchOf({ value: 'a' });
      const corrupt = Buffer.from(batchOf({ value: 'b' }));
      corrupt[corrupt.length - 1] ^= 0x01;
      expect(await writeCheckedBatches(file, path, [good, corrupt], 0, [0, 1], true)).toEqual({
        corrupt: [1],
        checkError: null,
        wroteRefused: false,
      });
      expect((await stat(path)).size).toBe(0);
      // a batch not listed is not checked (it was checked before it was queued)
      await writeCheckedBatches(file, path, [good, corrupt], 0, [0], true);
      expect(await readFile(path)).toEqual(Buffer.concat([good, corrupt]));
    } finally {
      await file.close();
    }
  });

  it('leaves a write above INLINE_WRITE_BYTES_MAX to the thread pool, with the same outcome', async () => {
    const path = join(dir, 'f');
    const file = await open(path, 'w+');
    try {
      const batch = batchOf({ value: 'x'.repeat(64 * 1024) });
      const batches = Array.from({ length: Math.ceil(INLINE_WRITE_BYTES_MAX / batch.length) + 1 }, () => batch);
      const writing = writeCheckedBatches(file, path, batches, 0, [0], true);
      expect((await writing).corrupt).toEqual([]);
      expect(await readFile(path)).toEqual(Buffer.concat(batches));
    } finally {
      await file.close();
    }
  });
});

/** Keeps every thread of libuv's pool busy for a while; `finished` counts the jobs done so far. */
function occupyThreadPool(): { finished: () => number; all: Promise<void> } {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let finished = 0;
  const jobs = Array.from(
    { length: threads * 2 },
    () =>
      new Promise<void>((resolve, reject) =>
        pbkdf2('secret', 'salt', 300_000, 32, 'sha256', (error) => {
          finished++;
          if (error === null) resolve();
          else reject(error);
        }),
      ),
  );
  return { finished: () => finished, all: Promise.all(jobs).then(() => undefined) };
}

describe('writeCheckedBatches by default: a leader append goes through the thread pool', () => {
  it('waits for a thread of the pool even for a small append (BROOK_SYNC_APPEND_BYTES_MAX unset)', async () => {
    expect(SYNC_APPEND_BYTES_MAX).toBe(0);
    const dir = await makeTempDir('brook-append-write-');
    const path = join(dir, '00000000000000000000.log');
    const handle = await open(path, 'w+');
    try {
      const batches = [batchOf({ value: 'a' })];
      const pool = occupyThreadPool();
      const write = await writeCheckedBatches(handle, path, batches, 0, [0]);
      expect(pool.finished()).toBeGreaterThan(0);
      expect(write.corrupt).toEqual([]);
      expect(await readFile(path)).toEqual(batches[0]);
      await pool.all;
    } finally {
      await handle.close();
      await removeDir(dir);
    }
  });
});

describe('writeCheckedBatches of a small append, not inline (BROOK_SYNC_APPEND_BYTES_MAX=262144)', () => {
  let bounded: SegmentAppendWrite;
  beforeAll(async () => {
    vi.stubEnv('BROOK_SYNC_APPEND_BYTES_MAX', String(256 * 1024));
    vi.resetModules();
    bounded = await import('./segment-append-write.js');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });
  let dir: string;
  let handle: FileHandle;
  let path: string;

  beforeEach(async () => {
    dir = await makeTempDir('brook-append-write-');
    path = join(dir, '00000000000000000000.log');
    handle = await open(path, 'w+');
  });
  afterEach(async () => {
    await handle.close();
    await removeDir(dir);
  });

  it('writes a small append on this thread: done while every thread-pool thread is busy', async () => {
    const batches = [batchOf({ value: 'a' }), batchOf({ value: 'b' })];
    const pool = occupyThreadPool();
    const write = await bounded.writeCheckedBatches(handle, path, batches, 0, [0, 1]);
    expect(pool.finished()).toBe(0);
    expect(write).toEqual({ corrupt: [], checkError: null, wroteRefused: false });
    expect(await readFile(path)).toEqual(Buffer.concat(batches));
    await pool.all;
  });

  it('writes nothing of a small append whose CRC check fails, and names the corrupt batch', async () => {
    const batches = [batchOf({ value: 'a' }), batchOf({ value: 'b' })];
    batches[1][batches[1].length - 1] ^= 0xff;
    const write = await bounded.writeCheckedBatches(handle, path, batches, 0, [0, 1]);
    expect(write).toEqual({ corrupt: [1], checkError: null, wroteRefused: false });
    expect((await readFile(path)).length).toBe(0);
  });

  it('writes an append above the bound in the thread pool, at its position', async () => {
    expect(bounded.SYNC_APPEND_BYTES_MAX).toBe(256 * 1024);
    const big = batchOf({ value: 'x'.repeat(bounded.SYNC_APPEND_BYTES_MAX) });
    await handle.write(Buffer.from('head'), 0, 4, 0);
    const pool = occupyThreadPool();
    const write = await bounded.writeCheckedBatches(handle, path, [big], 4, []);
    expect(pool.finished()).toBeGreaterThan(0); // it waited for a thread of the pool
    expect(write.corrupt).toEqual([]);
    expect(await readFile(path)).toEqual(Buffer.concat([Buffer.from('head'), big]));
    await pool.all;
  });
});
