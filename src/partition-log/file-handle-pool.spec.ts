import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileHandlePool } from './file-handle-pool.js';

// Counts the descriptors the pool really holds: every `open` that succeeded and has not been closed yet.
const descriptors = vi.hoisted(() => ({ live: 0, peak: 0, opened: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof actual.open>): Promise<FileHandle> => {
    const handle = await actual.open(...args);
    descriptors.live++;
    descriptors.opened++;
    descriptors.peak = Math.max(descriptors.peak, descriptors.live);
    const close = handle.close.bind(handle);
    handle.close = async () => {
      descriptors.live--;
      await close();
    };
    return handle;
  };
  return { ...actual, open, default: { ...actual, open } };
});

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'brook-pool-'));
  descriptors.live = 0;
  descriptors.peak = 0;
  descriptors.opened = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function makeFiles(count: number): Promise<string[]> {
  const paths = Array.from({ length: count }, (_, i) => join(dir, `file-${i}`));
  await Promise.all(paths.map((path, i) => writeFile(path, `content of ${i}`)));
  return paths;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readText(handle: FileHandle): Promise<string> {
  const buffer = Buffer.alloc(64);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead).toString();
}

describe('FileHandlePool', () => {
  it('refuses a bound below one', () => {
    expect(() => new FileHandlePool(0)).toThrow(RangeError);
  });

  it('reuses the open handle of a path', async () => {
    const [path] = await makeFiles(1);
    const pool = new FileHandlePool(4);
    const first = await pool.withHandle(path, async (handle) => handle);
    const second = await pool.withHandle(path, async (handle) => handle);
    expect(second).toBe(first);
    expect(descriptors.opened).toBe(1);
    await pool.closeAll();
    expect(descriptors.live).toBe(0);
  });

  it('closes the least recently used idle handle at the bound', async () => {
    const [a, b, c] = await makeFiles(3);
    const pool = new FileHandlePool(2);
    const handleA = await pool.withHandle(a, async (handle) => handle);
    await pool.withHandle(b, async () => undefined);
    await pool.withHandle(a, async () => undefined); // a is now more recent than b
    await pool.withHandle(c, async () => undefined); // evicts b
    expect(await pool.withHandle(a, async (handle) => handle)).toBe(handleA);
    expect(descriptors.opened).toBe(3);
    await pool.withHandle(b, async () => undefined); // b reopens
    expect(descriptors.opened).toBe(4);
    expect(descriptors.peak).toBe(2);
    await pool.closeAll();
  });

  it('never holds more than maxOpenFiles descriptors across many files in concurrent use', async () => {
    const paths = await makeFiles(40);
    const maxOpenFiles = 5;
    const pool = new FileHandlePool(maxOpenFiles);
    let random = 12345;
    const nextRandom = () => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const uses = Array.from({ length: 400 }, async (_, i) => {
      const which = Math.floor(nextRandom() * paths.length);
      const hold = Math.floor(nextRandom() * 3);
      await sleep(Math.floor(i / 20));
      return pool.withHandle(paths[which], async (handle) => {
        expect(pool.openFiles).toBeLessThanOrEqual(maxOpenFiles);
        expect(descriptors.live).toBeLessThanOrEqual(maxOpenFiles);
        const text = await readText(handle);
        await sleep(hold);
        expect(await readText(handle)).toBe(text); // not closed under its user
        return text === `content of ${which}`;
      });
    });
    expect(await Promise.all(uses)).toEqual(uses.map(() => true));
    expect(descriptors.peak).toBeLessThanOrEqual(maxOpenFiles);
    expect(pool.openFiles).toBeLessThanOrEqual(maxOpenFiles);
    await pool.closeAll();
    expect(descriptors.live).toBe(0);
    expect(pool.openFiles).toBe(0);
  });

  it('leaseUnlessFull leases a pooled path or a free slot, and refuses (closing nothing) when every slot is taken', async () => {
    const [a, b, c] = await makeFiles(3);
    const pool = new FileHandlePool(2);
    const handleA = await pool.withHandle(a, async (handle) => handle);
    const leaseB = pool.leaseUnlessFull(b); // a free slot: opens b
    expect(leaseB).not.toBeNull();
    expect(await readText(leaseB!.opened ?? (await leaseB!.opening))).toBe('content of 1');
    leaseB!.release();
    expect(pool.leaseUnlessFull(c)).toBeNull(); // full, c not pooled: no eviction
    expect(descriptors.opened).toBe(2);
    expect(descriptors.live).toBe(2);
    const leaseA = pool.leaseUnlessFull(a); // pooled: its open handle, full or not
    expect(leaseA?.opened).toBe(handleA);
    leaseA!.release();
    expect(descriptors.opened).toBe(2);
    await pool.closeAll();
    expect(descriptors.live).toBe(0);
  });

  it('does not evict more idle handles than it needs', async () => {
    const paths = await makeFiles(6);
    const pool = new FileHandlePool(4);
    for (const path of paths.slice(0, 4)) await pool.withHandle(path, async () => undefined);
    await pool.withHandle(paths[4], async () => undefined);
    await sleep(5);
    expect(descriptors.live).toBe(4);
    const opened = descriptors.opened;
    // The three most recent of the first four are still open.
    for (const path of paths.slice(1, 4)) await pool.withHandle(path, async () => undefined);
    expect(descriptors.opened).toBe(opened);
    await pool.closeAll();
  });

  it('does not close a handle in use to make room; the newcomer waits', async () => {
    const [a, b] = await makeFiles(2);
    const pool = new FileHandlePool(1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let handleOfA: FileHandle | undefined;
    const userA = pool.withHandle(a, async (handle) => {
      handleOfA = handle;
      await held;
      return readText(handle); // still open after b asked for a slot
    });
    await sleep(5);
    let bRan = false;
    const userB = pool.withHandle(b, async (handle) => {
      bRan = true;
      return readText(handle);
    });
    await sleep(20);
    expect(bRan).toBe(false);
    expect(descriptors.live).toBe(1);
    release();
    expect(await userA).toBe('content of 0');
    expect(await userB).toBe('content of 1');
    expect(handleOfA).toBeDefined();
    expect(descriptors.peak).toBe(1);
    await pool.closeAll();
    expect(descriptors.live).toBe(0);
  });

  it('shares one handle between concurrent users of the same path', async () => {
    const [a] = await makeFiles(1);
    const pool = new FileHandlePool(1);
    const handles = await Promise.all(
      Array.from({ length: 10 }, () =>
        pool.withHandle(a, async (handle) => {
          await sleep(1);
          return handle;
        }),
      ),
    );
    expect(new Set(handles).size).toBe(1);
    expect(descriptors.opened).toBe(1);
    await pool.closeAll();
  });

  it('forget closes an idle handle at once and the next use reopens the path', async () => {
    const [a] = await makeFiles(1);
    const pool = new FileHandlePool(4);
    const before = await pool.withHandle(a, async (handle) => handle);
    pool.forget(a);
    await sleep(5);
    expect(descriptors.live).toBe(0);
    expect(pool.openFiles).toBe(0);
    await writeFile(a, 'replaced'); // e.g. a cleaned segment swapped in under the same name
    const text = await pool.withHandle(a, async (handle) => {
      expect(handle).not.toBe(before);
      return readText(handle);
    });
    expect(text).toBe('replaced');
    await pool.closeAll();
  });

  it('forget waits for a handle in use to go idle before closing it', async () => {
    const [a] = await makeFiles(1);
    const pool = new FileHandlePool(4);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const user = pool.withHandle(a, async (handle) => {
      await held;
      return readText(handle);
    });
    await sleep(5);
    pool.forget(a);
    await sleep(5);
    expect(descriptors.live).toBe(1);
    release();
    expect(await user).toBe('content of 0');
    await sleep(5);
    expect(descriptors.live).toBe(0);
    expect(pool.openFiles).toBe(0);
  });

  it('forget of an unknown path is a no-op', () => {
    new FileHandlePool(1).forget('/nowhere');
  });

  it('gives the slot back when a file cannot be opened', async () => {
    const [a] = await makeFiles(1);
    const pool = new FileHandlePool(1);
    await expect(pool.withHandle(join(dir, 'missing'), async () => undefined)).rejects.toThrow(/ENOENT/);
    expect(pool.openFiles).toBe(0);
    expect(await pool.withHandle(a, readText)).toBe('content of 0');
    await pool.closeAll();
  });

  it('closeAll closes idle handles now and busy ones when their users finish', async () => {
    const [a, b] = await makeFiles(2);
    const pool = new FileHandlePool(4);
    await pool.withHandle(a, async () => undefined);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const user = pool.withHandle(b, async (handle) => {
      await held;
      return readText(handle);
    });
    await sleep(5);
    await pool.closeAll();
    expect(descriptors.live).toBe(1);
    release();
    expect(await user).toBe('content of 1');
    await sleep(5);
    expect(descriptors.live).toBe(0);
  });
});
