// The exclusive lock of a broker's data dir (Kafka's `.lock`): two processes must never write the same segments,
// checkpoints or embedded store, not even a SIGSTOPped old process and a new one started beside it, and a restarted
// broker may replace its previous registration at once only because the lock proves that process is gone
// (controller-election.service.ts). Node has no flock, so the lock is a file created exclusively:
//
//   <data-dir>/.lock     JSON {"pid": <process id>, "startTicks": <process start time, /proc/<pid>/stat field 22>}
//
// Taking it: create the file (O_EXCL). When it exists, it is held while its process is alive: signal 0 reaches it
// and, on Linux, /proc shows it with the same start time (a reused pid does not hold it) and not as a zombie. A
// paused (SIGSTOP) process is alive. A lock whose process is gone is stale: it is moved aside under a name of this
// process's own, checked to still be the stale one (another starting process may have taken it over meanwhile,
// in which case it is put back and this process refuses), and the file is created again. The lock is removed when
// the process exits normally; after a crash it is stale.
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FILE_MODE } from './file-modes.js';

export const DATA_DIR_LOCK_FILE = '.lock';

/** How often taking the lock starts over after moving a stale one aside (each attempt is a few syscalls). */
const LOCK_ATTEMPTS_MAX = 5;

interface LockOwner {
  pid: number;
  startTicks: number | null;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

export class DataDirLock {
  private released = false;

  private constructor(private readonly path: string) {}

  /** Takes the lock of `dataDir` for this process; throws DataDirLockedError while a live process holds it. */
  static acquire(dataDir: string): DataDirLock {
    const path = join(dataDir, DATA_DIR_LOCK_FILE);
    const own = JSON.stringify({ pid: process.pid, startTicks: startTicksOf(process.pid) } satisfies LockOwner);
    for (let attempt = 1; attempt <= LOCK_ATTEMPTS_MAX; attempt++) {
      if (createExclusive(path, own)) {
        const lock = new DataDirLock(path);
        process.once('exit', () => lock.release());
        return lock;
      }
      const text = readIfPresent(path);
      if (text === null) continue; // released meanwhile: try again
      const owner = parseOwner(text);
      if (owner !== null && isAlive(owner)) {
        throw new DataDirLockedError(
          `data dir ${dataDir} is locked by process ${owner.pid}, which is still running (paused processes ` +
            'count): stop it first; two brokers must never share a data dir',
        );
      }
      moveStaleAside(path, text);
    }
    throw new DataDirLockedError(`data dir ${dataDir}: its lock kept changing hands while this broker started`);
  }

  /** Removes the lock file (at a normal exit). Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', DATA_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Moves a stale lock out of the way, unless another process took the lock over meanwhile (then it is put back). */
function moveStaleAside(path: string, staleText: string): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readIfPresent(aside);
  if (moved !== staleText) {
    // a fresh lock of another starting process: give it back (link fails if yet another one exists by now)
    try {
      linkSync(aside, path);
    } catch {
      // the path is taken again: this attempt starts over and sees whoever holds it
    }
  }
  unlinkSync(aside);
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    return { pid: parsed.pid as number, startTicks: typeof parsed.startTicks === 'number' ? parsed.startTicks : null };
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return false; // this process has no earlier lock to respect
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(owner.pid);
  if (stat === null) return true; // no /proc (not Linux): the signal is all there is to go by
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return owner.startTicks === null || owner.startTicks === stat.startTicks;
}

function startTicksOf(pid: number): number | null {
  return procStat(pid)?.startTicks ?? null;
}

/** State and start time from /proc/<pid>/stat (the command name, in parentheses, may hold spaces). */
function procStat(pid: number): { state: string; startTicks: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  return Number.isSafeInteger(startTicks) ? { state: fields[0], startTicks } : null;
}
