// The storage engine micro-benchmark: append 100-byte records in batches of 1,000 and read them back, beside a
// baseline that writes and reads the same bytes with plain fs calls, in the same process and the same run.
//
// Page-cache writeback makes whichever side runs later in a long run slower, so the two sides alternate in
// rounds (files removed after each round) and the median round of each is reported.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../common/clock.js';
import { FileHandlePool } from '../partition-log/file-handle-pool.js';
import { logConfig } from '../partition-log/log-config.js';
import { PartitionLog } from '../partition-log/partition-log.js';
import { encodeBatch, type RecordInput } from '../partition-log/record-batch.js';
import { formatMeasurement, timed, type Measurement } from './measure.js';

const RECORD_BYTES = 100;
const RECORDS_PER_BATCH = 1000;
const READ_CHUNK_BYTES = 1024 * 1024;
const ROUNDS = 5;

interface RoundTimes {
  baselineWrite: number;
  baselineRead: number;
  logAppend: number;
  logRead: number;
  logAppendOwnBatch: number;
  encode: number;
}

async function baselineRound(dir: string, encoded: Buffer, batches: number): Promise<[number, number]> {
  const path = join(dir, 'baseline.log');
  const write = await timed(async () => {
    const file = await open(path, 'w');
    let position = 0;
    for (let i = 0; i < batches; i++) {
      await file.write(encoded, 0, encoded.length, position);
      position += encoded.length;
    }
    await file.close();
  });
  const read = await timed(async () => {
    const file = await open(path, 'r');
    let position = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const { bytesRead } = await file.read(buffer, 0, READ_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
    }
    await file.close();
  });
  await rm(path);
  return [write.seconds, read.seconds];
}

async function logRound(dir: string, encoded: Buffer, batches: number): Promise<[number, number, number]> {
  const logDir = join(dir, 'bench-0');
  const log = await PartitionLog.open(logDir, logConfig(), { clock: systemClock, pool: new FileHandlePool() });
  // The engine's append takes an encoded batch, as Kafka's log does (producers encode); it still checks the CRC
  // as it does for a client's batch. Encoding is measured on its own line.
  const append = await timed(async () => {
    for (let i = 0; i < batches; i++) await log.appendAsLeader(encoded, 0);
  });
  const read = await timed(async () => {
    let offset = 0;
    while (offset < log.logEndOffset) ({ nextOffset: offset } = await log.read(offset, { maxBytes: READ_CHUNK_BYTES }));
  });
  // The HTTP produce path appends batches Brook's own encoder just built and skips re-checking their CRC.
  const ownBatch = await timed(async () => {
    for (let i = 0; i < batches; i++) await log.appendAsLeader(encoded, 0, { verifyCrc: false });
  });
  await log.delete();
  return [append.seconds, read.seconds, ownBatch.seconds];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function runLogBench(recordsPerRound: number): Promise<Measurement[]> {
  const batches = Math.ceil(recordsPerRound / RECORDS_PER_BATCH);
  const records: RecordInput[] = Array.from({ length: RECORDS_PER_BATCH }, (_, i) => ({
    key: null,
    value: Buffer.alloc(RECORD_BYTES, i % 251),
    timestamp: Date.now(),
  }));
  const encoded = encodeBatch(records);
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-log-'));
  const rounds: RoundTimes[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const [baselineWrite, baselineRead] = await baselineRound(dir, encoded, batches);
      const [logAppend, logRead, logAppendOwnBatch] = await logRound(dir, encoded, batches);
      const encode = (
        await timed(async () => {
          for (let i = 0; i < batches; i++) encodeBatch(records);
        })
      ).seconds;
      rounds.push({ baselineWrite, baselineRead, logAppend, logRead, logAppendOwnBatch, encode });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const count = batches * RECORDS_PER_BATCH;
  const bytes = batches * encoded.length;
  const row = (name: string, pick: (round: RoundTimes) => number): Measurement => ({
    name,
    records: count,
    bytes,
    seconds: median(rounds.map(pick)),
  });
  const baselineWrite = row('baseline: fs write of the same bytes', (r) => r.baselineWrite);
  const logAppend = row('log append, client batch (CRC verified)', (r) => r.logAppend);
  const logAppendOwn = row('log append, Brook-encoded (produce path)', (r) => r.logAppendOwnBatch);
  const baselineRead = row('baseline: fs read, 1 MiB chunks', (r) => r.baselineRead);
  const logRead = row('log read, 1 MiB of whole batches', (r) => r.logRead);
  const encode = row('batch encode alone (no I/O)', (r) => r.encode);
  console.log(`${count.toLocaleString('en-US')} records of ${RECORD_BYTES} B per round, median of ${ROUNDS} rounds`);
  console.log(formatMeasurement(baselineWrite));
  console.log(formatMeasurement(logAppend, baselineWrite));
  console.log(formatMeasurement(logAppendOwn, baselineWrite));
  console.log(formatMeasurement(baselineRead));
  console.log(formatMeasurement(logRead, baselineRead));
  console.log(formatMeasurement(encode));
  return [baselineWrite, logAppend, logAppendOwn, baselineRead, logRead, encode];
}
