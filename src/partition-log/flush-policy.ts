// When a log fsyncs its active segment (flush.messages, flush.ms): a pure state machine over the messages appended
// since the last flush and the monotonic time it happened at. The log counts, asks and flushes.
import type { LogConfig } from './log-config.js';

export type FlushSettings = Pick<LogConfig, 'flushMessages' | 'flushMs'>;

export class FlushPolicy {
  private unflushedMessages = 0;
  private lastFlushMs: number;

  constructor(nowMs: number) {
    this.lastFlushMs = nowMs;
  }

  /** Counts `messages` appended; true when flush.messages or flush.ms says the active segment is due an fsync. */
  dueAfterAppend(messages: number, nowMs: number, settings: FlushSettings): boolean {
    this.unflushedMessages += messages;
    return this.unflushedMessages >= settings.flushMessages || nowMs - this.lastFlushMs >= settings.flushMs;
  }

  /** For the periodic check: true when flush.ms has passed since the last flush and something is unflushed. */
  dueByTime(nowMs: number, settings: FlushSettings): boolean {
    return nowMs - this.lastFlushMs >= settings.flushMs && this.unflushedMessages > 0;
  }

  flushed(nowMs: number): void {
    this.unflushedMessages = 0;
    this.lastFlushMs = nowMs;
  }
}
