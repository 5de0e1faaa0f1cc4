// The fs path LogSegment.append takes (segment-append-write.ts) where the native append is not available (no
// compiler at build time, or BROOK_NATIVE_APPEND=false): CRCs checked on the JavaScript thread while the write is
// in flight, a refused group written and then cut off again. The modules are loaded afresh with the switch set, so
// this runs wherever the addon exists too.
import { stat } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

type Fixtures = typeof import('../../test/support/log-fixtures.js');
type NativeAppend = typeof import('./native-append.js');
type SegmentFiles = typeof import('./segment-files.js');

describe('log append without the native append (BROOK_NATIVE_APPEND=false)', () => {
  let fixtures: Fixtures;
  let nativeAppend: NativeAppend;
  let files: SegmentFiles;
  let dir: string;

  beforeAll(async () => {
    vi.stubEnv('BROOK_NATIVE_APPEND', 'false');
    vi.resetModules();
    fixtures = await import('../../test/support/log-fixtures.js');
    nativeAppend = await import('./native-append.js');
    files = await import('./segment-files.js');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });
  beforeEach(async () => {
    dir = await fixtures.makeTempDir('brook-fallback-append-');
  });
  afterEach(async () => {
    await fixtures.removeDir(dir);
  });

  it('is switched off', () => {
    expect(nativeAppend.nativeWritevChecked).toBeNull();
  });

  it('writes with fs; a corrupt batch in a tick is cut off again, the others get dense offsets', async () => {
    const { batchOf, CountingPool, harness, readAll } = fixtures;
    const pool = new CountingPool(16);
    const log = await harness(dir, {}, pool).open();
    try {
      await log.appendAsLeader(batchOf({ value: 'before' }), 0);
      const path = files.logFilePath(dir, 0);
      const sizeBefore = (await stat(path)).size;
      pool.reset();
      const batches = ['a', 'b', 'c'].map((value) => batchOf({ value }));
      batches[1][batches[1].length - 1] ^= 0xff;
      const outcomes = await Promise.allSettled(batches.map((batch) => log.appendAsLeader(batch, 0)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // fs writev twice (with the corrupt batch, then cut off; without it), the native append never
      expect(pool.calls.get(path)).toMatchObject({ writev: 2, nativeWritev: 0 });
      expect((await readAll(log)).map((record) => [record.offset, record.value?.toString()])).toEqual([
        [0, 'before'],
        [1, 'a'],
        [2, 'c'],
      ]);
      expect((await stat(path)).size - sizeBefore).toBe(batches[0].length + batches[2].length);
    } finally {
      await log.close();
    }
  });
});
