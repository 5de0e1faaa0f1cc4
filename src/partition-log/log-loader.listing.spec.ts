// Opening a log lists its folder once: at 10,000 partitions each listing, marker check and state read is a round
// trip through the thread pool per log, on the start-up's critical path. The fs calls are counted per folder.
import * as fsPromises from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { appendBatches, dir, open, opened, useLogDir } from '../../test/support/partition-log-spec.js';
import { harness } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { PartitionLog } from './partition-log.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, readdir: vi.fn(actual.readdir), access: vi.fn(actual.access) };
});

useLogDir();

/** Calls of `fn` on `path` or a file inside it. */
function callsOn(fn: unknown, path: string): number {
  return (fn as ReturnType<typeof vi.fn>).mock.calls.filter(
    ([first]) => typeof first === 'string' && (first === path || first.startsWith(`${path}/`)),
  ).length;
}

describe('opening a log', () => {
  it('lists its folder once, after a crash and after a clean close, and checks no marker file apart', async () => {
    const h = harness(dir, { segmentBytes: 500 });
    const log = await open(h);
    await appendBatches(log, 20, 3, 2);
    vi.clearAllMocks();
    // kill -9: no close
    const crashed = await PartitionLog.open(dir, h.config, { clock: h.clock, pool: new FileHandlePool(8) });
    opened.push(crashed);
    expect(callsOn(fsPromises.readdir, dir)).toBe(1);
    expect(callsOn(fsPromises.access, dir)).toBe(0);
    expect(crashed.logEndOffset).toBe(60);
    await crashed.close();
    vi.clearAllMocks();
    const reopened = await open(h);
    expect(callsOn(fsPromises.readdir, dir)).toBe(1);
    expect(reopened.logEndOffset).toBe(60);
  });
});
