// A bounded pool of open segment files. A broker with thousands of partitions and tens of thousands of segments
// keeps at most `maxOpenFiles` descriptors: handles are opened on demand, reference counted while in use, and
// the least recently used idle ones are closed when the bound is reached; when every handle is in use, a new
// path waits for a slot. A handle in use is never closed under its user; `forget(path)` (after a rename or delete)
// closes it once idle and makes the next use reopen the path.
import { open, type FileHandle } from 'node:fs/promises';

export const DEFAULT_MAX_OPEN_FILES = 1024;

interface PooledHandle {
  path: string;
  handle: Promise<FileHandle>;
  /** The handle once open: uses skip awaiting `handle` (a hop on every append and read). */
  opened: FileHandle | null;
  users: number;
  forgotten: boolean;
}

export interface HandleLease {
  /** The handle when it was already open, else null: then await `opening`. */
  opened: FileHandle | null;
  opening: Promise<FileHandle>;
  release(): void;
}

export class FileHandlePool {
  // Map iteration order is insertion order: re-inserting on use keeps it least-recently-used first.
  private readonly handles = new Map<string, PooledHandle>();
  /** Descriptors opening, open or closing; never above maxOpenFiles. */
  private slotsTaken = 0;
  /** Closes in flight: each gives a slot back when it completes. */
  private closing = 0;
  /** Opens waiting for a slot, first come first served; each is handed its slot when a close completes. */
  private readonly slotWaiters: Array<() => void> = [];

  constructor(readonly maxOpenFiles = DEFAULT_MAX_OPEN_FILES) {
    if (maxOpenFiles < 1) throw new RangeError('maxOpenFiles must be at least 1');
  }

  get openFiles(): number {
    return this.slotsTaken;
  }

  /**
   * Runs `use` with an open read-write handle on `path` (which must exist). When every descriptor is in use the
   * call waits for one to go idle, so `use` must not itself wait on another handle of this pool.
   */
  async withHandle<T>(path: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
    const entry = this.acquire(path);
    try {
      return await use(entry.opened ?? (await entry.handle));
    } finally {
      this.release(entry);
    }
  }

  /**
   * withHandle without the callback, for the hot append path: the caller gets the handle (already open, or a
   * promise of it) and must call `release()` exactly once when done with it, whatever happens.
   */
  lease(path: string): HandleLease {
    const entry = this.acquire(path);
    return { opened: entry.opened, opening: entry.handle, release: () => this.release(entry) };
  }

  /**
   * lease, but only when it needs no other path's handle closed: null when `path` is not pooled and every descriptor
   * slot is taken. For a write that can do without a pooled handle (the native append, which then opens the file in
   * its own job): with more active segments than descriptors, leasing evicts one handle and opens another for
   * nearly every append (a broker with 10,000 partitions and 1,024 handles).
   */
  leaseUnlessFull(path: string): HandleLease | null {
    if (!this.handles.has(path) && (this.slotsTaken >= this.maxOpenFiles || this.slotWaiters.length > 0)) return null;
    return this.lease(path);
  }

  /** Closes the handle of `path` once no one uses it; later uses reopen the file. */
  forget(path: string): void {
    const entry = this.handles.get(path);
    if (entry === undefined) return;
    this.handles.delete(path);
    entry.forgotten = true;
    if (entry.users === 0) void this.close(entry);
  }

  async closeAll(): Promise<void> {
    const entries = [...this.handles.values()];
    this.handles.clear();
    for (const entry of entries) entry.forgotten = true;
    await Promise.all(entries.filter((entry) => entry.users === 0).map((entry) => this.close(entry)));
  }

  private acquire(path: string): PooledHandle {
    let entry = this.handles.get(path);
    if (entry !== undefined) {
      this.handles.delete(path);
      this.handles.set(path, entry);
    } else {
      const slot = this.takeSlot();
      const created: PooledHandle = {
        path,
        handle: slot.then(() => open(path, 'r+')),
        opened: null,
        users: 0,
        forgotten: false,
      };
      created.handle.then(
        (handle) => {
          created.opened = handle;
        },
        () => undefined,
      );
      created.handle.catch(() => {
        this.giveSlotBack();
        if (this.handles.get(path) === created) this.handles.delete(path);
      });
      entry = created;
      this.handles.set(path, entry);
    }
    entry.users++;
    return entry;
  }

  private release(entry: PooledHandle): void {
    entry.users--;
    if (entry.users > 0) return;
    if (entry.forgotten) void this.close(entry);
    else this.evictIdle();
  }

  /** Resolves once a descriptor slot is this caller's. */
  private takeSlot(): Promise<void> {
    if (this.slotsTaken < this.maxOpenFiles && this.slotWaiters.length === 0) {
      this.slotsTaken++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.slotWaiters.push(resolve);
      this.evictIdle();
    });
  }

  private giveSlotBack(): void {
    const next = this.slotWaiters.shift();
    if (next === undefined) this.slotsTaken--;
    else next(); // the slot passes straight to the longest waiter
  }

  /** Closes least recently used idle handles, as many as there are waiters not already served by a close. */
  private evictIdle(): void {
    for (const entry of this.handles.values()) {
      if (this.slotWaiters.length <= this.closing) return;
      if (entry.users > 0) continue;
      this.handles.delete(entry.path);
      entry.forgotten = true;
      void this.close(entry);
    }
  }

  private async close(entry: PooledHandle): Promise<void> {
    this.closing++;
    let handle: FileHandle;
    try {
      handle = await entry.handle;
    } catch {
      this.closing--;
      return; // never opened: the failed open already gave its slot back
    }
    await handle.close().catch(() => undefined);
    this.closing--;
    this.giveSlotBack();
  }
}
