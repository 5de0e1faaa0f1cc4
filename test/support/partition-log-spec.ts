// The shared setup of the PartitionLog specs (src/partition-log/local-log, log-appender, log-truncation,
// log-maintenance and log-loader .spec.ts): a fresh temp folder in `dir` for each test, every log opened with `open`
// closed after it, and two helpers their tests share.
import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach } from 'vitest';
import type { PartitionLog } from '../../src/partition-log/partition-log.js';
import { batchOfValues, makeTempDir, removeDir } from './log-fixtures.js';

export let dir: string;
/** The logs `open` opened; a test that opens one itself adds it here to have it closed. */
export const opened: PartitionLog[] = [];

/** Registers the hooks that give each test of the calling spec file its folder and close its logs. */
export function useLogDir(): void {
  beforeEach(async () => {
    dir = await makeTempDir();
  });

  afterEach(async () => {
    for (const log of opened.splice(0)) await log.close().catch(() => undefined);
    await removeDir(dir);
  });
}

export async function open(h: { open(): Promise<PartitionLog> }): Promise<PartitionLog> {
  const log = await h.open();
  opened.push(log);
  return log;
}

/** Appends `batches` batches of `perBatch` records one after another; values are `b<i>-<j>`. */
export async function appendBatches(
  log: PartitionLog,
  batches: number,
  perBatch: number,
  epoch = 0,
  timestamp?: (i: number) => number,
) {
  const infos = [];
  for (let i = 0; i < batches; i++) {
    infos.push(await log.appendAsLeader(batchOfValues(`b${i}`, perBatch, timestamp?.(i)), epoch));
  }
  return infos;
}

export async function logFiles(): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
}
