// Batches stdin lines for the console producer. Lines are sent in order, one request in flight at a time, each
// batch bounded by entries and bytes; when the input is faster than the broker the input is paused (no
// unbounded queue). A line that arrives alone (someone typing) is sent after `linger_ms`, not held for a full
// batch. Each line keeps its 1-based line number so failures can name it.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface NumberedLine {
  number: number;
  text: string;
}

export interface BatchLimits {
  entries_max: number;
  bytes_max: number;
  linger_ms: number;
}

/** Reads `input` line by line and calls `send` with consecutive batches until the input ends or `stop` fires. */
export async function batchLines(
  input: Readable,
  limits: BatchLimits,
  send: (batch: NumberedLine[]) => Promise<void>,
  stop: AbortSignal,
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  const queue: NumberedLine[] = [];
  let ended = false;
  let lineNumber = 0;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  lines.on('line', (text) => {
    queue.push({ number: ++lineNumber, text });
    if (queue.length >= limits.entries_max) lines.pause();
    notify();
  });
  lines.on('close', () => {
    ended = true;
    notify();
  });
  const onStop = (): void => lines.close();
  stop.addEventListener('abort', onStop, { once: true });
  try {
    while (true) {
      if (queue.length === 0) {
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (queue.length < limits.entries_max && !ended) await delay(limits.linger_ms);
      await send(takeBatch(queue, limits));
      if (queue.length < limits.entries_max && !ended) lines.resume();
    }
  } finally {
    stop.removeEventListener('abort', onStop);
    lines.close();
  }
}

/** Removes and returns the longest prefix of `queue` within the limits (at least one line, however long). */
export function takeBatch(
  queue: NumberedLine[],
  limits: Pick<BatchLimits, 'entries_max' | 'bytes_max'>,
): NumberedLine[] {
  let bytes = 0;
  let count = 0;
  while (count < queue.length && count < limits.entries_max) {
    bytes += Buffer.byteLength(queue[count].text);
    if (count > 0 && bytes > limits.bytes_max) break;
    count++;
  }
  return queue.splice(0, count);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
