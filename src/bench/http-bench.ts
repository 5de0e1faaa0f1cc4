// The HTTP benchmarks. Each starts a broker (node dist/main.js) and a bare Node `http` baseline server as child
// processes, drives both with the same client, the same bodies and the same request pattern, and prints them
// side by side with the ratio broker/baseline.
//
// W1 (BROOK_BENCH_SECONDS, default 10): produce 100-byte records, 1,000 per request in the v2 binary format, from
//   8 keep-alive connections for a fixed time, the two sides alternating in rounds. Baseline: a server that fs.writes each request body to a file.
// W6 (BROOK_BENCH_READ_MB, default 200): catch-up read of a prefilled partition (prefill not timed), 1 MiB per
//   request, one request at a time, raw batches (Accept: application/vnd.brook.batches) and JSON (format=binary).
//   Baseline and raw read alternate in rounds. Baseline: a server answering 1 MiB Range requests from a file of the same size with fs.createReadStream.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMeasurement, type Measurement } from './measure.js';

export const RECORD_BYTES = 100;
export const RECORDS_PER_REQUEST = 1000;
export const CONNECTIONS = 8;
export const WARMUP_SECONDS = 1;
export const W1_ROUNDS = 4;
const W6_ROUNDS = 3;
const READ_CHUNK_BYTES = 1024 * 1024;
const JSON_MAX_RECORDS = 10_000;
export const TOPIC = 'bench';
const MAIN_JS = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.js');

// ---------------------------------------------------------------------------------------------------------------
// Child processes

export interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  agent: Agent;
  /** A broker's Kafka listener port (its own free port, never 9092). */
  kafkaPort?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startChild(
  name: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
): Promise<Server> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const server: Server = { name, child, port, agent };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
    try {
      const res = await call(server, 'GET', readyPath);
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(server);
      throw new Error(`${name} did not become ready within 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stop(server: Server): Promise<void> {
  server.agent.destroy();
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export function rssBytes(pid: number | undefined): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, all threads) of a process so far, in ms; undefined when /proc cannot tell. */
export function cpuMs(pid: number | undefined): number | undefined {
  try {
    // The fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are
    // fields 14 and 15, in clock ticks (100 per second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export async function startBroker(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  // Every listener on a free port of its own: a default port (9092, 8081) may be taken by another process here.
  let kafkaPort = await freePort();
  while (kafkaPort === port) kafkaPort = await freePort();
  let registryPort = await freePort();
  while (registryPort === port || registryPort === kafkaPort) registryPort = await freePort();
  const server = await startChild(
    'broker',
    [MAIN_JS],
    {
      BROOK_PORT: String(port),
      BROOK_KAFKA_PORT: String(kafkaPort),
      BROOK_SCHEMA_REGISTRY_PORT: String(registryPort),
      BROOK_DATA_DIR: dataDir,
      BROOK_LOG_LEVEL: 'warn',
      ...env,
    },
    port,
    '/v3/clusters',
  );
  return { ...server, kafkaPort };
}

// The W1 baseline: append each request body to one file with fs.write, answer 200.
export const WRITE_BASELINE = `
const http = require('node:http');
const fs = require('node:fs');
const fd = fs.openSync(process.env.BENCH_FILE, 'w');
let position = 0;
http.createServer((req, res) => {
  if (req.method !== 'POST') { res.end('{}'); return; }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const at = position;
    position += body.length;
    fs.write(fd, body, 0, body.length, at, (error) => {
      res.writeHead(error ? 500 : 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

// The W6 baseline: answer "Range: bytes=a-b" requests from one file with fs.createReadStream.
const READ_BASELINE = `
const http = require('node:http');
const fs = require('node:fs');
const path = process.env.BENCH_FILE;
http.createServer((req, res) => {
  const size = fs.statSync(path).size;
  const match = /bytes=(\\d+)-(\\d+)/.exec(req.headers.range || '');
  if (!match) { res.end('{}'); return; }
  const start = Number(match[1]);
  const end = Math.min(Number(match[2]), size - 1);
  if (start >= size) { res.writeHead(416); res.end(); return; }
  res.writeHead(206, { 'content-type': 'application/octet-stream', 'content-length': end - start + 1, 'content-range': 'bytes ' + start + '-' + end + '/' + size });
  fs.createReadStream(path, { start, end }).pipe(res);
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

export async function startBaseline(name: string, script: string, file: string): Promise<Server> {
  const port = await freePort();
  return startChild(name, ['-e', script], { BENCH_PORT: String(port), BENCH_FILE: file }, port, '/');
}

// ---------------------------------------------------------------------------------------------------------------
// Client

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function call(
  server: Server,
  method: string,
  path: string,
  body?: Buffer | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, agent: server.agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function callJson(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await call(server, method, path, body === undefined ? undefined : JSON.stringify(body), {
    'content-type': 'application/json',
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
  return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
}

export async function createTopic(broker: Server): Promise<string> {
  const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
  const clusterId = clusters[0].cluster_id;
  await callJson(broker, 'POST', `/v3/clusters/${clusterId}/topics`, { topic_name: TOPIC, partitions_count: 1 });
  return clusterId;
}

export function produceBody(): Buffer {
  const value = Buffer.alloc(RECORD_BYTES, 'x').toString('base64');
  const records = Array.from({ length: RECORDS_PER_REQUEST }, () => ({ value }));
  return Buffer.from(JSON.stringify({ records }));
}

const PRODUCE_HEADERS = { 'content-type': 'application/vnd.kafka.binary.v2+json' };
export const PRODUCE_PATH = `/topics/${TOPIC}/partitions/0`;

function checkProduced(server: Server, res: Response): void {
  if (res.status !== 200)
    throw new Error(`${server.name} answered ${res.status}: ${res.body.toString('utf8', 0, 300)}`);
  // A per-record failure comes back inside offsets[] with status 200.
  if (/"error_code":\d/.test(res.body.toString('latin1')))
    throw new Error(`${server.name} failed records: ${res.body.toString('utf8', 0, 300)}`);
}

/**
 * Posts `body` to `path` from CONNECTIONS concurrent loops until `seconds` have passed; returns the latencies and
 * the CPU time the server process spent meanwhile (0 when /proc cannot tell).
 */
export async function produceFor(
  server: Server,
  body: Buffer,
  seconds: number,
  path = PRODUCE_PATH,
  headers: Record<string, string> = PRODUCE_HEADERS,
): Promise<{ requests: number; seconds: number; latenciesMs: number[]; cpuMs: number }> {
  const cpuBefore = cpuMs(server.child.pid);
  const latenciesMs: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      const res = await call(server, 'POST', path, body, headers);
      latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
      checkProduced(server, res);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const cpuAfter = cpuMs(server.child.pid);
  return {
    requests: latenciesMs.length,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    latenciesMs,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? 0 : cpuAfter - cpuBefore,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// W1: produce

export async function runW1(seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w1-'));
  const body = produceBody();
  const servers: Server[] = [];
  try {
    const baselineServer = await startBaseline('baseline', WRITE_BASELINE, join(dir, 'baseline.log'));
    servers.push(baselineServer);
    const broker = await startBroker(join(dir, 'broker'));
    servers.push(broker);
    await createTopic(broker);
    await produceFor(baselineServer, body, WARMUP_SECONDS);
    await produceFor(broker, body, WARMUP_SECONDS);
    // Load from other processes on this machine drifts, so the two sides alternate in W1_ROUNDS rounds of
    // seconds / W1_ROUNDS each (both servers stay up; the idle one costs nothing) and the rounds are summed.
    const totals = new Map<Server, { requests: number; seconds: number; latenciesMs: number[]; cpuMs: number }>([
      [baselineServer, { requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0 }],
      [broker, { requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0 }],
    ]);
    for (let round = 0; round < W1_ROUNDS; round++) {
      for (const server of [baselineServer, broker]) {
        const run = await produceFor(server, body, seconds / W1_ROUNDS);
        const total = totals.get(server)!;
        total.requests += run.requests;
        total.seconds += run.seconds;
        total.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) total.latenciesMs.push(latency);
      }
    }
    const row = (server: Server, name: string): Measurement => {
      const total = totals.get(server)!;
      const records = total.requests * RECORDS_PER_REQUEST;
      return {
        name,
        records,
        bytes: records * RECORD_BYTES,
        seconds: total.seconds,
        latenciesMs: total.latenciesMs,
        rssBytes: rssBytes(server.child.pid),
        cpuMsPerRequest: total.cpuMs > 0 ? total.cpuMs / total.requests : undefined,
      };
    };
    const baseline = row(baselineServer, 'baseline: http + fs.write of the body');
    const brook = row(broker, 'brook: v2 binary produce, 1000 rec/request');
    await stop(broker);
    await stop(baselineServer);

    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_REQUEST} per request (${(body.length / 1024).toFixed(0)} KiB body), ` +
        `${CONNECTIONS} connections, ${seconds} s each in ${W1_ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up; ` +
        "MB/s of record payload; rss at the end; cpu: the server process's CPU time per request",
    );
    console.log(formatMeasurement(baseline));
    console.log(formatMeasurement(brook, baseline));
    return [baseline, brook];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// W6: catch-up read

async function prefill(broker: Server, body: Buffer, records: number): Promise<void> {
  let remaining = Math.ceil(records / RECORDS_PER_REQUEST);
  const loop = async () => {
    while (remaining > 0) {
      remaining--;
      checkProduced(broker, await call(broker, 'POST', PRODUCE_PATH, body, PRODUCE_HEADERS));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
}

function header(res: Response, name: string): number {
  const value = res.headers[name];
  const parsed = Number(Array.isArray(value) ? value[0] : value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`missing or bad ${name} header: ${String(value)}`);
  return parsed;
}

async function readRaw(
  broker: Server,
  clusterId: string,
  endOffset: number,
): Promise<{ bytes: number; records: number; seconds: number; requests: number }> {
  const base = `/v3/clusters/${clusterId}/topics/${TOPIC}/partitions/0/records`;
  const started = process.hrtime.bigint();
  let offset = 0;
  let bytes = 0;
  let requests = 0;
  while (offset < endOffset) {
    const res = await call(broker, 'GET', `${base}?offset=${offset}&max_bytes=${READ_CHUNK_BYTES}`, undefined, {
      accept: 'application/vnd.brook.batches',
    });
    if (res.status !== 200)
      throw new Error(`raw read at ${offset}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
    const next = header(res, 'x-brook-next-offset');
    if (next <= offset) throw new Error(`raw read at ${offset} made no progress`);
    bytes += res.body.length;
    requests++;
    offset = next;
  }
  return { bytes, records: offset, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

async function readJson(
  broker: Server,
  clusterId: string,
  endOffset: number,
): Promise<{ wireBytes: number; records: number; seconds: number; requests: number }> {
  const base = `/v3/clusters/${clusterId}/topics/${TOPIC}/partitions/0/records`;
  const started = process.hrtime.bigint();
  let offset = 0;
  let wireBytes = 0;
  let requests = 0;
  while (offset < endOffset) {
    const res = await call(
      broker,
      'GET',
      `${base}?offset=${offset}&max_bytes=${READ_CHUNK_BYTES}&format=binary&max_records=${JSON_MAX_RECORDS}`,
    );
    if (res.status !== 200)
      throw new Error(`json read at ${offset}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
    const text = res.body.toString('latin1');
    if (requests === 0) {
      // Check the shape once; afterwards only next_offset is picked out, so the client's JSON.parse of 10,000
      // records is not charged to the broker.
      const parsed = JSON.parse(text) as { records: Array<{ offset: number; value: string }>; next_offset: number };
      if (
        parsed.records.length !== parsed.next_offset - offset ||
        Buffer.from(parsed.records[0].value, 'base64').length !== RECORD_BYTES
      ) {
        throw new Error('unexpected JSON read answer');
      }
    }
    const match = /"next_offset":(\d+)/.exec(text.slice(text.lastIndexOf('"next_offset":')));
    const next = Number(match?.[1]);
    if (!(next > offset)) throw new Error(`json read at ${offset} made no progress`);
    wireBytes += res.body.length;
    requests++;
    offset = next;
  }
  return { wireBytes, records: offset, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

async function readBaseline(
  server: Server,
  size: number,
): Promise<{ bytes: number; seconds: number; requests: number }> {
  const started = process.hrtime.bigint();
  let position = 0;
  let requests = 0;
  while (position < size) {
    const end = Math.min(position + READ_CHUNK_BYTES, size) - 1;
    const res = await call(server, 'GET', '/file', undefined, { range: `bytes=${position}-${end}` });
    if (res.status !== 206 || res.body.length !== end - position + 1)
      throw new Error(`baseline read at ${position}: ${res.status}, ${res.body.length} bytes`);
    position += res.body.length;
    requests++;
  }
  return { bytes: position, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

export async function runW6(readMb: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w6-'));
  const servers: Server[] = [];
  try {
    const broker = await startBroker(join(dir, 'broker'));
    servers.push(broker);
    const clusterId = await createTopic(broker);
    const records = Math.ceil((readMb * 1e6) / RECORD_BYTES / RECORDS_PER_REQUEST) * RECORDS_PER_REQUEST;
    const prefillStarted = Date.now();
    await prefill(broker, produceBody(), records);
    const prefillSeconds = (Date.now() - prefillStarted) / 1000;

    // Warm-up, not timed: a whole raw pass (which also gives the byte count) and a short JSON pass.
    const warm = await readRaw(broker, clusterId, records);
    await readJson(broker, clusterId, Math.min(records, 300_000));

    // The baseline serves a file of exactly the bytes the raw read receives, with the same request pattern.
    const file = join(dir, 'baseline.bin');
    const handle = await open(file, 'w');
    const chunk = Buffer.alloc(READ_CHUNK_BYTES, 'x');
    for (let at = 0; at < warm.bytes; at += chunk.length)
      await handle.write(chunk, 0, Math.min(chunk.length, warm.bytes - at), at);
    await handle.close();
    const baselineServer = await startBaseline('baseline', READ_BASELINE, file);
    servers.push(baselineServer);
    await readBaseline(baselineServer, Math.min(warm.bytes, 32 * READ_CHUNK_BYTES));

    // Load from other processes drifts, so the baseline and the raw read alternate in W6_ROUNDS whole passes
    // (summed); the much slower JSON read runs one pass.
    const base = { bytes: 0, seconds: 0, requests: 0 };
    const raw = { bytes: 0, records: 0, seconds: 0, requests: 0 };
    for (let round = 0; round < W6_ROUNDS; round++) {
      const b = await readBaseline(baselineServer, warm.bytes);
      const r = await readRaw(broker, clusterId, records);
      for (const [total, run] of [
        [base, b],
        [raw, r],
      ] as const) {
        total.bytes += run.bytes;
        total.seconds += run.seconds;
        total.requests += run.requests;
      }
      raw.records += r.records;
    }
    const json = await readJson(broker, clusterId, records);
    const rss = rssBytes(broker.child.pid);
    await stop(broker);
    await stop(baselineServer);

    const baseline: Measurement = {
      name: 'baseline: http + fs.createReadStream, 1 MiB',
      records: raw.records,
      bytes: base.bytes,
      seconds: base.seconds,
    };
    const rawRow: Measurement = {
      name: 'brook: raw batches read, 1 MiB',
      records: raw.records,
      bytes: raw.bytes,
      seconds: raw.seconds,
      rssBytes: rss,
    };
    // The JSON row's MB/s counts the same stored bytes as the raw row (the records delivered), so its ratio
    // compares records/s; its wire size is printed below.
    const jsonRow: Measurement = {
      name: 'brook: JSON read (format=binary, 10000 rec)',
      records: json.records,
      bytes: raw.bytes * (json.records / raw.records),
      seconds: json.seconds,
    };
    console.log(
      `${records.toLocaleString('en-US')} records of ${RECORD_BYTES} B (${(warm.bytes / 1e6).toFixed(0)} MB stored, prefilled via produce in ` +
        `${prefillSeconds.toFixed(1)} s, not timed), one request at a time; MB/s of stored batch bytes`,
    );
    console.log(formatMeasurement(baseline) + `  (${W6_ROUNDS} passes of ${base.requests / W6_ROUNDS} requests)`);
    console.log(
      formatMeasurement(rawRow, baseline) + `  (${W6_ROUNDS} passes of ${raw.requests / W6_ROUNDS} requests)`,
    );
    console.log(
      formatMeasurement(jsonRow, baseline) +
        `  (${json.requests} requests, ${(json.wireBytes / 1e6).toFixed(0)} MB of JSON, ${(json.wireBytes / json.seconds / 1e6).toFixed(1)} MB/s on the wire)`,
    );
    return [baseline, rawRow, jsonRow];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}
