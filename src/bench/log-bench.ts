// The storage engine micro-benchmark: append 100-byte records in batches of 1,000 and read them back, beside a
// baseline that writes and reads the same bytes with plain fs calls, in the same process and the same run.
//
// Page-cache writeback makes whichever side runs later in a long run slower, so the two sides alternate in
// rounds (files removed after each round) and the median round of each is reported. What keeps the comparison
// fair (the workload, the bytes and the baseline's calls are the same in every round):
// - The first WARMUP_ROUNDS rounds run exactly like the others and are not counted. V8 compiles the hot functions
//   with TurboFan on background threads during the first rounds (--trace-opt on this bench: 30, 30 and 22
//   compilations in the first three rounds, 0-14 in each later one); on a two-core machine those threads take the
//   CPU from the JavaScript thread and the thread-pool thread for milliseconds at a time (perf sched showed the
//   JavaScript thread waiting runnable behind them while the other core was idle). The engine has more code to
//   compile than the baseline's loop, so counting these rounds measured the JIT, not the I/O path. Both sides get
//   the same warm-up.
// - ROUNDS measured rounds with the median: one round of 500,000 records takes ~30 ms per side, so a preemption
//   by another process costs a round several percent; more rounds keep one such round out of the median, on
//   both sides alike.
// - Which side runs first alternates from round to round, so that neither always follows the previous round's
//   deletions or the encode loop.
// - Each of the two Brook append lines starts from a freshly opened, empty log, as each baseline write starts
//   from a freshly created, empty file, and the log is prepared as the broker prepares it before any produce:
//   open, then its leader epoch recorded (ReplicaManager.becomeLeader calls assignEpochAtEnd). Appending to a log
//   whose epoch was never recorded made the first append write the leader-epoch checkpoint with fsync (temporary
//   file, fsync, rename, fsync of the directory), a path the broker's appends never take: 1-6 ms, and up to
//   100 ms when other processes had dirty data for the journal commit to flush, against a whole loop of ~30 ms;
//   the baseline has no counterpart. Opening the log was never timed; neither is recording its epoch.
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
const WARMUP_ROUNDS = 3;
const ROUNDS = 9;
const LEADER_EPOCH = 0;

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
  // The engine's append takes an encoded batch, as Kafka's log does (producers encode); it still checks the CRC
  // as it does for a client's batch. Encoding is measured on its own line.
  const clientLog = await openLog(join(dir, 'bench-0'));
  const append = await timed(async () => {
    for (let i = 0; i < batches; i++) await clientLog.appendAsLeader(encoded, LEADER_EPOCH);
  });
  const read = await timed(async () => {
    let offset = 0;
    while (offset < clientLog.logEndOffset)
      ({ nextOffset: offset } = await clientLog.read(offset, { maxBytes: READ_CHUNK_BYTES }));
  });
  await clientLog.delete();
  // The HTTP produce path appends batches Brook's own encoder just built and skips re-checking their CRC.
  const ownLog = await openLog(join(dir, 'bench-1'));
  const ownBatch = await timed(async () => {
    for (let i = 0; i < batches; i++) await ownLog.appendAsLeader(encoded, LEADER_EPOCH, { verifyCrc: false });
  });
  await ownLog.delete();
  return [append.seconds, read.seconds, ownBatch.seconds];
}

/** A fresh log, as a partition's leader has it before its first produce (see the header). */
async function openLog(dir: string): Promise<PartitionLog> {
  const log = await PartitionLog.open(dir, logConfig(), { clock: systemClock, pool: new FileHandlePool() });
  await log.assignEpochAtEnd(LEADER_EPOCH);
  return log;
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
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      let baselineWrite = 0;
      let baselineRead = 0;
      let logTimes: [number, number, number] = [0, 0, 0];
      // counted from the first measured round: of the 9, the baseline goes first in 5
      if ((round - WARMUP_ROUNDS) % 2 === 0) {
        [baselineWrite, baselineRead] = await baselineRound(dir, encoded, batches);
        logTimes = await logRound(dir, encoded, batches);
      } else {
        logTimes = await logRound(dir, encoded, batches);
        [baselineWrite, baselineRead] = await baselineRound(dir, encoded, batches);
      }
      const [logAppend, logRead, logAppendOwnBatch] = logTimes;
      const encode = (
        await timed(async () => {
          for (let i = 0; i < batches; i++) encodeBatch(records);
        })
      ).seconds;
      if (round >= WARMUP_ROUNDS)
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
  console.log(
    `${count.toLocaleString('en-US')} records of ${RECORD_BYTES} B per round, median of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up rounds`,
  );
  console.log(formatMeasurement(baselineWrite));
  console.log(formatMeasurement(logAppend, baselineWrite));
  console.log(formatMeasurement(logAppendOwn, baselineWrite));
  console.log(formatMeasurement(baselineRead));
  console.log(formatMeasurement(logRead, baselineRead));
  console.log(formatMeasurement(encode));
  return [baselineWrite, logAppend, logAppendOwn, baselineRead, logRead, encode];
}
