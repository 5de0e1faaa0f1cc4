// Work that must not overlap, run one item at a time in the order it was queued: every mutation of a partition
// log (the append drain, roll, truncation, retention, the cleaner's swaps, close).
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` once everything queued before it has settled; its failure reaches only this caller. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
