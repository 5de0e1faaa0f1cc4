// The leader-epoch checkpoint of one partition (KIP-101/279): for each leader epoch, the first offset written
// in it. Stored as `leader-epoch-checkpoint` in Kafka's text layout:
//
//   0                  format version
//   <n>                entry count
//   <epoch> <offset>   n lines, epochs and offsets strictly increasing
//
// Written with an atomic replace (temp file, rename), fsynced except when it only gains an epoch at the log end
// (local-log.ts says why that is safe; log-loader.ts assigns the re-scanned batches' epochs after a crash). This
// class holds the entries and answers the questions; persistence is the caller's, so the cache itself is pure and
// tested directly.

export interface EpochEntry {
  epoch: number;
  startOffset: number;
}

export const UNDEFINED_EPOCH = -1;
export const UNDEFINED_EPOCH_OFFSET = -1;

export class LeaderEpochCache {
  private entries: EpochEntry[];

  constructor(entries: EpochEntry[] = []) {
    this.entries = [...entries];
  }

  all(): EpochEntry[] {
    return [...this.entries];
  }

  latestEpoch(): number {
    return this.entries.length === 0 ? UNDEFINED_EPOCH : this.entries[this.entries.length - 1].epoch;
  }

  /**
   * Records that `epoch` starts at `startOffset`. Epochs only move forward; an entry whose epoch or offset does not
   * is a caller bug unless it repeats the latest epoch (ignored). Returns whether the cache changed.
   */
  assign(epoch: number, startOffset: number): boolean {
    const latest = this.entries[this.entries.length - 1];
    if (latest !== undefined && epoch <= latest.epoch) return false;
    // A leader may write an epoch's first batch at an offset an older entry claims after a truncation; drop those.
    // concat, not push: an array pushed to holds room for 16 more entries (~130 bytes a partition; they are few)
    this.entries = this.entries.filter((entry) => entry.startOffset < startOffset).concat({ epoch, startOffset });
    return true;
  }

  /**
   * KIP-101/279's OffsetsForLeaderEpoch answer, as Kafka's LeaderEpochFileCache.endOffsetFor: the largest epoch <=
   * `requestedEpoch` this log knows, and the end offset of that epoch (the start offset of the next larger epoch,
   * or the log end offset when it is the latest). Below the first known epoch: the requested epoch and the first
   * epoch's start offset (that data is gone; the follower replicates from there). Above the latest, or for the
   * undefined epoch, or with no epochs: UNDEFINED.
   */
  endOffsetFor(requestedEpoch: number, logEndOffset: number): { epoch: number; endOffset: number } {
    const undefinedAnswer = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
    if (this.entries.length === 0 || requestedEpoch === UNDEFINED_EPOCH) return undefinedAnswer;
    if (requestedEpoch === this.latestEpoch()) return { epoch: requestedEpoch, endOffset: logEndOffset };
    const nextIndex = this.entries.findIndex((entry) => entry.epoch > requestedEpoch);
    if (nextIndex === -1) return undefinedAnswer;
    if (nextIndex === 0) return { epoch: requestedEpoch, endOffset: this.entries[0].startOffset };
    return { epoch: this.entries[nextIndex - 1].epoch, endOffset: this.entries[nextIndex].startOffset };
  }

  /** After the log is truncated to `endOffset`: forget epochs that start at or after it. */
  truncateFromEnd(endOffset: number): boolean {
    const kept = this.entries.filter((entry) => entry.startOffset < endOffset);
    const changed = kept.length !== this.entries.length;
    this.entries = kept;
    return changed;
  }

  /** After the log start moves to `startOffset`: the epoch covering it now starts there. */
  truncateFromStart(startOffset: number): boolean {
    let coveringIndex = -1;
    for (let i = 0; i < this.entries.length; i++) if (this.entries[i].startOffset <= startOffset) coveringIndex = i;
    if (coveringIndex === -1) return false;
    const covering = this.entries[coveringIndex];
    if (coveringIndex === 0 && covering.startOffset === startOffset) return false;
    this.entries = [{ epoch: covering.epoch, startOffset }, ...this.entries.slice(coveringIndex + 1)];
    return true;
  }

  clear(): void {
    this.entries = [];
  }

  serialize(): string {
    return [
      '0',
      String(this.entries.length),
      ...this.entries.map((entry) => `${entry.epoch} ${entry.startOffset}`),
      '',
    ].join('\n');
  }

  static parse(text: string): LeaderEpochCache {
    const lines = text.split('\n').filter((line) => line.length > 0);
    if (lines[0] !== '0') throw new Error(`unknown leader-epoch-checkpoint version ${JSON.stringify(lines[0])}`);
    const count = Number(lines[1]);
    if (!Number.isInteger(count) || count !== lines.length - 2)
      throw new Error('leader-epoch-checkpoint entry count mismatch');
    const entries = lines.slice(2).map((line) => {
      const [epoch, startOffset] = line.split(' ').map(Number);
      if (!Number.isInteger(epoch) || !Number.isInteger(startOffset))
        throw new Error(`bad leader-epoch-checkpoint line ${line}`);
      return { epoch, startOffset };
    });
    for (let i = 1; i < entries.length; i++) {
      if (entries[i].epoch <= entries[i - 1].epoch || entries[i].startOffset < entries[i - 1].startOffset) {
        throw new Error('leader-epoch-checkpoint entries out of order');
      }
    }
    return new LeaderEpochCache(entries);
  }
}
