// Errors of the coordination store port, shared by its adapters.

/** A key, value or argument outside the port's bounds (coordination-limits.ts). An operating error: the caller's. */
export class CoordinationLimitError extends RangeError {
  override readonly name = 'CoordinationLimitError';
}

/** An operation on a store after close(). */
export class CoordinationStoreClosedError extends Error {
  override readonly name = 'CoordinationStoreClosedError';
  constructor() {
    super('coordination store is closed');
  }
}

/** The persisted store could not be read back; Brook refuses to start rather than start empty. */
export class CoordinationStoreCorruptError extends Error {
  override readonly name = 'CoordinationStoreCorruptError';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `coordination store file ${file} is corrupt: ${reason}. Refusing to start with an empty store: ` +
        'restore the file from a backup, or move it away deliberately to start over.',
    );
  }
}

/**
 * A write to disk failed. Memory may be ahead of disk, so the store stops: this and every later operation fail,
 * and the process should restart and reload from what is durable.
 */
export class CoordinationStoreFailedError extends Error {
  override readonly name = 'CoordinationStoreFailedError';
  constructor(cause: unknown) {
    super(`coordination store stopped after a failed write: ${String(cause)}`, { cause });
  }
}

/** A fenced write refused because the fence counter moved on: the writer's epoch is stale. */
export class CoordinationFencedError extends Error {
  override readonly name = 'CoordinationFencedError';
  constructor(
    readonly counterKey: string,
    readonly expected: number,
    readonly current: number,
  ) {
    super(`write fenced: ${counterKey} is ${current}, not ${expected}`);
  }
}
