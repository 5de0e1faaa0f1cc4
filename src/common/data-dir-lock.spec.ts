import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_DIR_LOCK_FILE, DataDirLock, DataDirLockedError } from './data-dir-lock.js';

let dir: string;
let child: ChildProcess | null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brook-lock-'));
  child = null;
});

afterEach(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function startTicks(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
}

/** Another process that holds the lock, as a broker started on this data dir would. */
async function otherHolder(): Promise<ChildProcess> {
  child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((resolve) => child!.once('spawn', resolve));
  const owner = { pid: child.pid, startTicks: startTicks(child.pid!) };
  writeFileSync(join(dir, DATA_DIR_LOCK_FILE), JSON.stringify(owner));
  return child;
}

describe('DataDirLock', () => {
  it('takes a free data dir and gives it back on release', () => {
    const lock = DataDirLock.acquire(dir);
    expect(JSON.parse(readFileSync(join(dir, DATA_DIR_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(statSync(join(dir, DATA_DIR_LOCK_FILE)).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(join(dir, DATA_DIR_LOCK_FILE))).toBe(false);
  });

  it('refuses while another process holds it, even when that process is paused', async () => {
    const holder = await otherHolder();
    expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
    holder.kill('SIGSTOP');
    expect(() => DataDirLock.acquire(dir)).toThrow(/still running \(paused processes count\)/);
    holder.kill('SIGCONT');
  });

  it('takes over the lock of a process that is gone', async () => {
    const holder = await otherHolder();
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock whose pid now belongs to another process (a reused pid)', async () => {
    const holder = await otherHolder();
    const owner = { pid: holder.pid, startTicks: startTicks(holder.pid!) - 1 };
    writeFileSync(join(dir, DATA_DIR_LOCK_FILE), JSON.stringify(owner));
    DataDirLock.acquire(dir).release();
  });

  it('takes over an unreadable lock file', () => {
    writeFileSync(join(dir, DATA_DIR_LOCK_FILE), 'garbage');
    DataDirLock.acquire(dir).release();
  });
});
