import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchLines, takeBatch, type NumberedLine } from './line-batcher.js';

const lines = (...texts: string[]): NumberedLine[] => texts.map((text, index) => ({ number: index + 1, text }));

describe('takeBatch', () => {
  it('takes at most entries_max lines', () => {
    const queue = lines('a', 'b', 'c');
    expect(takeBatch(queue, { entries_max: 2, bytes_max: 100 }).map((line) => line.text)).toEqual(['a', 'b']);
    expect(queue.map((line) => line.text)).toEqual(['c']);
  });

  it('stops before the line that would pass bytes_max, but always takes one line', () => {
    const queue = lines('aaaa', 'bbbb', 'cc');
    expect(takeBatch(queue, { entries_max: 10, bytes_max: 6 }).map((line) => line.text)).toEqual(['aaaa']);
    expect(takeBatch(queue, { entries_max: 10, bytes_max: 6 }).map((line) => line.text)).toEqual(['bbbb', 'cc']);
    const huge = lines('x'.repeat(50));
    expect(takeBatch(huge, { entries_max: 10, bytes_max: 6 })).toHaveLength(1);
  });

  it('counts bytes, not characters', () => {
    const queue = lines('é', 'é');
    expect(takeBatch(queue, { entries_max: 10, bytes_max: 3 })).toHaveLength(1);
  });
});

describe('batchLines', () => {
  const limits = { entries_max: 3, bytes_max: 1024, linger_ms: 1 };

  it('sends every line once, in order, numbered, in batches within the limits', async () => {
    const input = Readable.from([Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n']);
    const batches: NumberedLine[][] = [];
    await batchLines(input, limits, async (batch) => void batches.push(batch), new AbortController().signal);
    expect(batches.every((batch) => batch.length >= 1 && batch.length <= 3)).toBe(true);
    expect(batches.flat()).toEqual(Array.from({ length: 10 }, (_, i) => ({ number: i + 1, text: `line ${i + 1}` })));
  });

  it('sends a lone line without waiting for the input to end', async () => {
    const input = new PassThrough();
    const sent: string[] = [];
    let firstSent!: () => void;
    const first = new Promise<void>((resolve) => (firstSent = resolve));
    const done = batchLines(
      input,
      { ...limits, entries_max: 100 },
      async (batch) => {
        sent.push(...batch.map((line) => line.text));
        firstSent();
      },
      new AbortController().signal,
    );
    input.write('typed\n');
    await first;
    expect(sent).toEqual(['typed']);
    input.end('last line without newline');
    await done;
    expect(sent).toEqual(['typed', 'last line without newline']);
  });

  it('stops reading when aborted, after sending what was read', async () => {
    const input = new PassThrough();
    const stop = new AbortController();
    const sent: string[] = [];
    const done = batchLines(input, limits, async (batch) => void sent.push(...batch.map((l) => l.text)), stop.signal);
    input.write('one\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await done;
    expect(sent).toEqual(['one']);
  });

  it('propagates a failed send and reads no further', async () => {
    const input = Readable.from(['a\nb\nc\nd\ne\nf\n']);
    let calls = 0;
    const failing = async (): Promise<void> => {
      calls++;
      throw new Error('broker said no');
    };
    await expect(batchLines(input, limits, failing, new AbortController().signal)).rejects.toThrow('broker said no');
    expect(calls).toBe(1);
  });
});
