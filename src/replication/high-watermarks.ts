// The replica manager's use of the high-watermark checkpoint (high-watermark-checkpoint.ts has the file format):
// loaded once at start, written periodically and at shutdown, one write at a time (a call meanwhile shares it), and
// not at all while every partition's HW is what the last write put in the file (an idle broker with 10,000
// partitions otherwise serialized, wrote, fsynced and renamed the same 10,000 lines every interval). A failed read
// starts without seeds; a failed write is only logged (the previous file stays, a floor like any checkpoint; the
// next call writes again).
import type { LoggerService } from '@nestjs/common';
import {
  type HighWatermarkEntry,
  readHighWatermarkCheckpoint,
  writeHighWatermarkCheckpoint,
} from './high-watermark-checkpoint.js';
import { partitionKey, splitKey } from './leader-partition.js';

export class HighWatermarks {
  private inFlight: Promise<void> | null = null;
  /** The HW by partition key that the last successful write put in the file; null before one. */
  private written: ReadonlyMap<string, number> | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly logger: LoggerService,
    /** Visits the HW of every partition hosted here, by partition key, each key once. */
    private readonly entries: (visit: (key: string, highWatermark: number) => void) => void,
  ) {}

  /** The checkpointed HW of each partition, by partition key; empty when there is none or it is unreadable. */
  async load(): Promise<Map<string, number>> {
    const seeds = new Map<string, number>();
    try {
      for (const entry of await readHighWatermarkCheckpoint(this.dataDir)) {
        seeds.set(partitionKey(entry.topic, entry.partition), entry.highWatermark);
      }
    } catch (error) {
      this.logger.warn(`ignoring the high-watermark checkpoint: ${(error as Error).message}`);
    }
    return seeds;
  }

  /** Writes the checkpoint; one write at a time. */
  checkpoint(): Promise<void> {
    this.inFlight ??= this.write().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The last write at shutdown: after a periodic one in flight, which may hold older values. */
  async final(): Promise<void> {
    await this.inFlight;
    await this.checkpoint();
  }

  /** Whether the partitions visited now hold exactly what `written` does; the unchanged case builds nothing. */
  private unchangedSince(written: ReadonlyMap<string, number>): boolean {
    let count = 0;
    let same = true;
    this.entries((key, highWatermark) => {
      count++;
      if (same && written.get(key) !== highWatermark) same = false;
    });
    return same && count === written.size;
  }

  private async write(): Promise<void> {
    try {
      if (this.written !== null && this.unchangedSince(this.written)) return;
      const current = new Map<string, number>();
      const entries: HighWatermarkEntry[] = [];
      this.entries((key, highWatermark) => {
        current.set(key, highWatermark);
        const [topic, partition] = splitKey(key);
        entries.push({ topic, partition, highWatermark });
      });
      await writeHighWatermarkCheckpoint(this.dataDir, entries);
      this.written = current;
    } catch (error) {
      this.logger.warn(`could not write the high-watermark checkpoint: ${(error as Error).message}`);
    }
  }
}
