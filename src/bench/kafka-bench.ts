// The Kafka listener benchmarks. Each starts a broker (node dist/main.js) and a bare TCP baseline server as child
// processes, drives both with the same load generator, the same pre-encoded frames and the same request pattern,
// and prints them side by side with the ratio broker/baseline.
//
// K1 (BROOK_BENCH_SECONDS, default 10): Produce v3 requests of one record batch of 1,000 records of 100 bytes
//   (pre-encoded once; only the correlation id changes), acks=1, from K_CONNECTIONS connections with
//   K_PIPELINE requests in flight on each, for a fixed time, the two sides alternating in rounds. Baseline: a TCP
//   server that splits the frames, appends each request frame to a file with fs.write and answers, in order, a
//   fixed Produce answer carrying the request's correlation id.
// K6 (BROOK_BENCH_K6_MB, default 1000): catch-up Fetch v4 of a partition prefilled over the Kafka listener
//   (prefill not timed), one request of at most 1 MiB at a time from the offset after the last answer's batches.
//   Baseline: a TCP server that answers each request frame with the next 1 MiB of a file of exactly the bytes the
//   broker sent (fs.read), as a frame with the correlation id. The two alternate in K6_ROUNDS whole passes. Each
//   side's CPU time (from /proc, all threads) is reported per MB sent.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBatch } from '../partition-log/record-batch.js';
import { callJson, cpuMs, freePort, rssBytes, startBroker, stop, type Server } from './bench-processes.js';
import {
  FrameConnection,
  fetchFrame,
  produceAnswerError,
  produceAnswerFrame,
  produceFrame,
  readFetchAnswer,
  SPLITTER_SOURCE,
} from './kafka-frames.js';
import { formatMeasurement, type Measurement } from './measure.js';

const RECORD_BYTES = 100;
const RECORDS_PER_BATCH = 1000;
export const K_CONNECTIONS = 4;
export const K_PIPELINE = 5;
const WARMUP_SECONDS = 1;
const K1_ROUNDS = 4;
const K6_ROUNDS = 3;
const FETCH_BYTES = 1024 * 1024;
const TOPIC = 'kbench';

// ---------------------------------------------------------------------------------------------------------------
// Baselines

const PRODUCE_BASELINE = `
const net = require('node:net');
const fs = require('node:fs');
${SPLITTER_SOURCE}
const fd = fs.openSync(process.env.BENCH_FILE, 'w');
const answer = Buffer.from(process.env.BENCH_ANSWER, 'hex');
let position = 0;
net.createServer((socket) => {
  socket.setNoDelay(true);
  const pending = [];
  const flush = () => {
    while (pending.length > 0 && pending[0].done) socket.write(pending.shift().answer);
  };
  socket.on('data', splitter((frame) => {
    const entry = { done: false, answer: Buffer.from(answer) };
    entry.answer.writeInt32BE(frame.readInt32BE(8), 4);
    pending.push(entry);
    const at = position;
    position += frame.length;
    fs.write(fd, frame, 0, frame.length, at, (error) => {
      if (error) { socket.destroy(); return; }
      entry.done = true;
      flush();
    });
  }));
  socket.on('error', () => {});
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

const FETCH_BASELINE = `
const net = require('node:net');
const fs = require('node:fs');
${SPLITTER_SOURCE}
const fd = fs.openSync(process.env.BENCH_FILE, 'r');
const size = fs.fstatSync(fd).size;
const chunk = Number(process.env.BENCH_CHUNK);
net.createServer((socket) => {
  socket.setNoDelay(true);
  let position = 0;
  socket.on('data', splitter((frame) => {
    const correlationId = frame.readInt32BE(8);
    const length = Math.max(0, Math.min(chunk, size - position));
    const data = Buffer.allocUnsafe(length);
    fs.read(fd, data, 0, length, position, (error, read) => {
      if (error) { socket.destroy(); return; }
      position += read;
      const head = Buffer.alloc(8);
      head.writeInt32BE(4 + read, 0);
      head.writeInt32BE(correlationId, 4);
      socket.cork(); socket.write(head); socket.write(data.subarray(0, read)); socket.uncork();
      if (position >= size) position = 0; // the next pass starts again
    });
  }));
  socket.on('error', () => {});
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

interface TcpServer {
  child: ChildProcess;
  port: number;
}

async function startTcpBaseline(script: string, env: Record<string, string>): Promise<TcpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, ...env, BENCH_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the baseline exited with ${child.exitCode} before it was ready`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return { child, port };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the baseline did not listen within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopTcp(server: TcpServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------------------------------------------------------
// The load generator

async function createKafkaTopic(broker: Server): Promise<void> {
  const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
  await callJson(broker, 'POST', `/v3/clusters/${clusters[0].cluster_id}/topics`, {
    topic_name: TOPIC,
    partitions_count: 1,
  });
}

function batchFrame(): Buffer {
  const value = Buffer.alloc(RECORD_BYTES, 'x');
  const now = Date.now();
  const batch = encodeBatch(Array.from({ length: RECORDS_PER_BATCH }, () => ({ key: null, value, timestamp: now })));
  return produceFrame(TOPIC, 0, batch, 1);
}

interface ProduceRun {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  cpuMs: number;
}

/** Produces `frame` for `seconds` (or `requests` requests) from K_CONNECTIONS connections, K_PIPELINE in flight each. */
async function produceFor(
  port: number,
  pid: number | undefined,
  frame: Buffer,
  limit: { seconds?: number; requests?: number },
): Promise<ProduceRun> {
  const connections = await Promise.all(Array.from({ length: K_CONNECTIONS }, () => FrameConnection.open(port)));
  const latenciesMs: number[] = [];
  let requests = 0;
  let started = 0;
  const cpuBefore = cpuMs(pid);
  const begin = performance.now();
  const deadline = limit.seconds === undefined ? Infinity : begin + limit.seconds * 1000;
  const more = () => performance.now() < deadline && (limit.requests === undefined || started < limit.requests);
  const lane = async (connection: FrameConnection) => {
    while (more()) {
      started++;
      const sent = performance.now();
      const answer = await connection.request(frame);
      const error = produceAnswerError(answer);
      if (error !== 0) throw new Error(`Produce answered error ${error}`);
      latenciesMs.push(performance.now() - sent);
      requests++;
    }
  };
  try {
    await Promise.all(connections.flatMap((connection) => Array.from({ length: K_PIPELINE }, () => lane(connection))));
  } finally {
    for (const connection of connections) connection.close();
  }
  const seconds = (performance.now() - begin) / 1000;
  const cpuAfter = cpuMs(pid);
  return {
    requests,
    seconds,
    latenciesMs,
    cpuMs: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : 0,
  };
}

export async function runK1(seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-k1-'));
  const frame = batchFrame();
  let broker: Server | undefined;
  let baseline: TcpServer | undefined;
  try {
    baseline = await startTcpBaseline(PRODUCE_BASELINE, {
      BENCH_FILE: join(dir, 'baseline.log'),
      BENCH_ANSWER: produceAnswerFrame(TOPIC, 0).toString('hex'),
    });
    broker = await startBroker(join(dir, 'broker'));
    await createKafkaTopic(broker);
    const sides = [
      { port: baseline.port, pid: baseline.child.pid },
      { port: broker.kafkaPort!, pid: broker.child.pid },
    ];
    for (const side of sides) await produceFor(side.port, side.pid, frame, { seconds: WARMUP_SECONDS });
    const totals = sides.map(() => ({ requests: 0, seconds: 0, latenciesMs: [] as number[], cpuMs: 0 }));
    for (let round = 0; round < K1_ROUNDS; round++) {
      for (const [index, side] of sides.entries()) {
        const run = await produceFor(side.port, side.pid, frame, { seconds: seconds / K1_ROUNDS });
        const total = totals[index];
        total.requests += run.requests;
        total.seconds += run.seconds;
        total.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) total.latenciesMs.push(latency);
      }
    }
    const row = (index: number, name: string): Measurement => {
      const total = totals[index];
      const records = total.requests * RECORDS_PER_BATCH;
      return {
        name,
        records,
        bytes: records * RECORD_BYTES,
        seconds: total.seconds,
        latenciesMs: total.latenciesMs,
        rssBytes: rssBytes(sides[index].pid),
        cpuMsPerRequest: total.cpuMs > 0 ? total.cpuMs / total.requests : undefined,
      };
    };
    const base = row(0, 'baseline: tcp + fs.write of the frame');
    const brook = row(1, 'brook: Kafka Produce v3, 1000 rec/batch');
    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_BATCH} per batch (${(frame.length / 1024).toFixed(0)} KiB frame), acks=1, ` +
        `${K_CONNECTIONS} connections x ${K_PIPELINE} in flight, ${seconds} s each in ${K1_ROUNDS} alternating rounds ` +
        `after ${WARMUP_SECONDS} s warm-up; MB/s of record payload; cpu: the server process's CPU time per request`,
    );
    console.log(formatMeasurement(base));
    console.log(formatMeasurement(brook, base));
    return [base, brook];
  } finally {
    if (broker !== undefined) await stop(broker);
    if (baseline !== undefined) await stopTcp(baseline);
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// K6: catch-up Fetch

interface FetchPass {
  bytes: number;
  records: number;
  requests: number;
  seconds: number;
  /** The server process's CPU time during the pass (0 when /proc cannot tell). */
  cpuMs: number;
}

/** The CPU time `pid` spends while `pass` runs, added to what the pass returns. */
async function withCpu(pid: number | undefined, pass: () => Promise<FetchPass>): Promise<FetchPass> {
  const before = cpuMs(pid);
  const result = await pass();
  const after = cpuMs(pid);
  return { ...result, cpuMs: before !== undefined && after !== undefined ? after - before : 0 };
}

/** Fetches the partition from offset 0 to `endOffset`, one 1 MiB request at a time. */
async function fetchPass(port: number, endOffset: number): Promise<FetchPass> {
  const connection = await FrameConnection.open(port);
  const pass = { bytes: 0, records: 0, requests: 0, seconds: 0, cpuMs: 0 };
  const begin = performance.now();
  try {
    for (let offset = 0; offset < endOffset;) {
      const answer = readFetchAnswer(await connection.request(fetchFrame(TOPIC, 0, offset, FETCH_BYTES)));
      pass.requests++;
      if (answer.errorCode !== 0) throw new Error(`Fetch at ${offset} answered error ${answer.errorCode}`);
      if (answer.nextOffset === null) throw new Error(`Fetch at ${offset} answered no complete batch`);
      pass.bytes += answer.bytes;
      pass.records += answer.records;
      offset = answer.nextOffset;
    }
  } finally {
    connection.close();
  }
  pass.seconds = (performance.now() - begin) / 1000;
  return pass;
}

/** Reads `bytes` from the baseline, 1 MiB per request, one request at a time. */
async function baselinePass(port: number, bytes: number): Promise<FetchPass> {
  const connection = await FrameConnection.open(port);
  const pass = { bytes: 0, records: 0, requests: 0, seconds: 0, cpuMs: 0 };
  const frame = fetchFrame(TOPIC, 0, 0, FETCH_BYTES);
  const begin = performance.now();
  try {
    while (pass.bytes < bytes) {
      const answer = await connection.request(frame);
      pass.requests++;
      pass.bytes += answer.length - 8;
    }
  } finally {
    connection.close();
  }
  pass.seconds = (performance.now() - begin) / 1000;
  return pass;
}

export async function runK6(megabytes: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-k6-'));
  let broker: Server | undefined;
  let baseline: TcpServer | undefined;
  try {
    broker = await startBroker(join(dir, 'broker'));
    await createKafkaTopic(broker);
    const frame = batchFrame();
    const batches = Math.ceil((megabytes * 1e6) / (frame.length - 70));
    const prefillStarted = performance.now();
    await produceFor(broker.kafkaPort!, broker.child.pid, frame, { requests: batches });
    const prefillSeconds = (performance.now() - prefillStarted) / 1000;
    const endOffset = batches * RECORDS_PER_BATCH;

    // Warm-up, not timed: a whole pass, which also gives the byte count the baseline's file gets.
    const warm = await fetchPass(broker.kafkaPort!, endOffset);
    const file = join(dir, 'baseline.bin');
    const handle = await open(file, 'w');
    const chunk = Buffer.alloc(FETCH_BYTES, 'x');
    for (let at = 0; at < warm.bytes; at += chunk.length) {
      await handle.write(chunk, 0, Math.min(chunk.length, warm.bytes - at), at);
    }
    await handle.close();
    baseline = await startTcpBaseline(FETCH_BASELINE, { BENCH_FILE: file, BENCH_CHUNK: String(FETCH_BYTES) });
    await baselinePass(baseline.port, Math.min(warm.bytes, 32 * FETCH_BYTES));

    const base = { bytes: 0, seconds: 0, requests: 0, cpuMs: 0 };
    const brook = { bytes: 0, records: 0, seconds: 0, requests: 0, cpuMs: 0 };
    for (let round = 0; round < K6_ROUNDS; round++) {
      const b = await withCpu(baseline.child.pid, () => baselinePass(baseline!.port, warm.bytes));
      const r = await withCpu(broker.child.pid, () => fetchPass(broker!.kafkaPort!, endOffset));
      base.bytes += b.bytes;
      base.seconds += b.seconds;
      base.requests += b.requests;
      base.cpuMs += b.cpuMs;
      brook.bytes += r.bytes;
      brook.records += r.records;
      brook.seconds += r.seconds;
      brook.requests += r.requests;
      brook.cpuMs += r.cpuMs;
    }
    const perMB = (side: { cpuMs: number; bytes: number }) =>
      side.cpuMs > 0 ? side.cpuMs / (side.bytes / 1e6) : undefined;
    const baseRow: Measurement = {
      name: 'baseline: tcp + fs.read, 1 MiB',
      records: brook.records,
      bytes: base.bytes,
      seconds: base.seconds,
      cpuMsPerMB: perMB(base),
    };
    const brookRow: Measurement = {
      name: 'brook: Kafka Fetch v4, 1 MiB',
      records: brook.records,
      bytes: brook.bytes,
      seconds: brook.seconds,
      rssBytes: rssBytes(broker.child.pid),
      cpuMsPerMB: perMB(brook),
    };
    console.log(
      `${endOffset.toLocaleString('en-US')} records of ${RECORD_BYTES} B (${(warm.bytes / 1e6).toFixed(0)} MB stored, prefilled ` +
        `over the Kafka listener in ${prefillSeconds.toFixed(1)} s, not timed), one request at a time; MB/s of stored batch bytes`,
    );
    console.log(formatMeasurement(baseRow) + `  (${K6_ROUNDS} passes of ${base.requests / K6_ROUNDS} requests)`);
    console.log(
      formatMeasurement(brookRow, baseRow) + `  (${K6_ROUNDS} passes of ${brook.requests / K6_ROUNDS} requests)`,
    );
    return [baseRow, brookRow];
  } finally {
    if (broker !== undefined) await stop(broker);
    if (baseline !== undefined) await stopTcp(baseline);
    await rm(dir, { recursive: true, force: true });
  }
}
