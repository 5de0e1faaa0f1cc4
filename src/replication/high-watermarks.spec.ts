import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HIGH_WATERMARK_CHECKPOINT_FILE, readHighWatermarkCheckpoint } from './high-watermark-checkpoint.js';
import { HighWatermarks } from './high-watermarks.js';
import { partitionKey } from './leader-partition.js';

const quietLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('HighWatermarks', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'brook-hw-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fileExists = () =>
    stat(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE)).then(
      () => true,
      () => false,
    );

  it('writes the checkpoint only when a high watermark changed since the last write', async () => {
    const hws = new Map<string, number>([
      [partitionKey('orders', 0), 5],
      [partitionKey('orders', 1), 7],
    ]);
    const highWatermarks = new HighWatermarks(dir, quietLogger, (visit) => hws.forEach((hw, key) => visit(key, hw)));
    const [key] = hws.keys();
    await highWatermarks.checkpoint();
    expect(await readHighWatermarkCheckpoint(dir)).toHaveLength(2);
    // taken away behind its back: a write of the same values is skipped, so the file stays away
    await rm(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE));
    await highWatermarks.checkpoint();
    expect(await fileExists()).toBe(false);
    hws.set(key, 6);
    await highWatermarks.checkpoint();
    const written = await readHighWatermarkCheckpoint(dir);
    expect(written.map((entry) => entry.highWatermark).sort()).toEqual([6, 7]);
    // a partition gone counts as a change too
    await rm(join(dir, HIGH_WATERMARK_CHECKPOINT_FILE));
    hws.delete(key);
    await highWatermarks.final();
    expect(await readHighWatermarkCheckpoint(dir)).toHaveLength(1);
  });
});
