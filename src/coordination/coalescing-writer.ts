// Group commit for a whole-file store: every mutation asks for a write, and all the requests made before a write
// starts share it. At most one write runs at a time; requests that arrive while it runs share the next one. The
// write is started from setImmediate, so the mutations of one tick (and its microtasks) become one file write.
//
// flush() must capture the state synchronously when called (before its first await): a request is covered only by
// a write that started after it. After a failed write the writer stays failed: memory may be ahead of disk.

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class CoalescingWriter {
  private next: Batch | null = null;
  private running: Batch | null = null;
  private failure: unknown = null;
  private failed = false;

  constructor(private readonly flush: () => Promise<void>) {}

  /** Resolves once a write that started after this call has completed. */
  requestWrite(): Promise<void> {
    if (this.failed) return Promise.reject(this.failure);
    if (this.next === null) {
      this.next = newBatch();
      if (this.running === null) setImmediate(() => this.start());
    }
    return this.next.promise;
  }

  /** Resolves once every write requested so far has completed (at once when none is pending). */
  barrier(): Promise<void> {
    if (this.failed) return Promise.reject(this.failure);
    return (this.next ?? this.running)?.promise ?? Promise.resolve();
  }

  /** The error of the write that failed, or null. */
  get error(): unknown {
    return this.failed ? this.failure : null;
  }

  private start(): void {
    const batch = this.next;
    if (batch === null || this.running !== null) return;
    this.next = null;
    this.running = batch;
    let written: Promise<void>;
    try {
      written = this.flush();
    } catch (error) {
      written = Promise.reject(error);
    }
    written.then(
      () => this.finish(batch, null),
      (error: unknown) => this.finish(batch, error ?? new Error('write failed')),
    );
  }

  private finish(batch: Batch, error: unknown): void {
    this.running = null;
    if (error !== null) {
      this.failed = true;
      this.failure = error;
      batch.reject(error);
      this.next?.reject(error);
      this.next = null;
      return;
    }
    batch.resolve();
    if (this.next !== null) setImmediate(() => this.start());
  }
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody awaits any more must not surface as an unhandled rejection; awaiting callers still see it.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
