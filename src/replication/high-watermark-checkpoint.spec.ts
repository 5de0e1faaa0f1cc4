import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HIGH_WATERMARK_CHECKPOINT_FILE,
  parseHighWatermarks,
  readHighWatermarkCheckpoint,
  serializeHighWatermarks,
  writeHighWatermarkCheckpoint,
} from './high-watermark-checkpoint.js';

describe('the high-watermark checkpoint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'brook-hw-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes Kafka's replication-offset-checkpoint text format", () => {
    expect(
      serializeHighWatermarks([
        { topic: 'orders', partition: 0, highWatermark: 1200 },
        { topic: '__consumer_offsets', partition: 49, highWatermark: 0 },
      ]),
    ).toBe('0\n2\norders 0 1200\n__consumer_offsets 49 0\n');
  });

  it('reads back what it wrote, for any topic names and offsets', () => {
    const entry = fc.record({
      topic: fc.stringMatching(/^[a-zA-Z0-9._-]{1,249}$/),
      partition: fc.nat(100_000),
      highWatermark: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        expect(parseHighWatermarks(serializeHighWatermarks(entries))).toEqual(entries);
      }),
    );
  });

  it('refuses a malformed file rather than guessing', () => {
    for (const text of [
      '',
      '1\n0\n',
      '0\n2\nt 0 5\n',
      '0\n1\nt 0\n',
      '0\n1\nt -1 5\n',
      '0\n1\nt 0 x\n',
      '0\n1\n 0 5\n',
    ]) {
      expect(() => parseHighWatermarks(text), JSON.stringify(text)).toThrow();
    }
  });

  it('is empty when the file does not exist, and is replaced whole on each write', async () => {
    expect(await readHighWatermarkCheckpoint(dir)).toEqual([]);
    await writeHighWatermarkCheckpoint(dir, [{ topic: 't', partition: 0, highWatermark: 5 }]);
    await writeHighWatermarkCheckpoint(dir, [{ topic: 't', partition: 1, highWatermark: 7 }]);
    expect(await readHighWatermarkCheckpoint(dir)).toEqual([{ topic: 't', partition: 1, highWatermark: 7 }]);
    expect(await readFile(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE), 'utf8')).toBe('0\n1\nt 1 7\n');
    await writeFile(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE), 'garbage');
    await expect(readHighWatermarkCheckpoint(dir)).rejects.toThrow();
  });
});
