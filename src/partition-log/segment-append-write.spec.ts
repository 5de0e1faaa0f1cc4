import { readFileSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchOf, makeTempDir, removeDir } from '../../test/support/log-fixtures.js';
import { INLINE_WRITE_BYTES_MAX, writeCheckedBatches } from './segment-append-write.js';

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
