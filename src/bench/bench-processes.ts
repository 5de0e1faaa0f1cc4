// The child processes of the HTTP benchmarks (http-bench.ts, cluster-bench.ts, ws-bench.ts, group-bench.ts): a
// broker (node dist/main.js) on free ports with its own data dir, and the bare Node `http` baseline servers the
// benchmarks compare it with (WRITE_BASELINE: fs.write of each request body; READ_BASELINE: 1 MiB Range reads of a
// file); their resident memory and CPU time, read from /proc; and the keep-alive HTTP calls made to them.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Keep-alive connections per server (the produce workload's concurrent loops). */
export const CONNECTIONS = 8;
const MAIN_JS = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.js');

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
  readyWithinMs = 30_000,
): Promise<Server> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const server: Server = { name, child, port, agent };
  const deadline = Date.now() + readyWithinMs;
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
      throw new Error(`${name} did not become ready within ${readyWithinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit signal (null after a clean exit). */
export async function stop(server: Server, graceMs = 5000): Promise<NodeJS.Signals | null> {
  server.agent.destroy();
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.child.signalCode;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  return server.child.signalCode;
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

/** The ports of a broker's listeners: a restart of the same broker (scale-bench.ts) passes its old ones. */
export interface BrokerPorts {
  port: number;
  kafkaPort: number;
  registryPort: number;
}

export async function brokerPorts(): Promise<BrokerPorts> {
  // Every listener on a free port of its own: a default port (9092, 8081) may be taken by another process here.
  const port = await freePort();
  let kafkaPort = await freePort();
  while (kafkaPort === port) kafkaPort = await freePort();
  let registryPort = await freePort();
  while (registryPort === port || registryPort === kafkaPort) registryPort = await freePort();
  return { port, kafkaPort, registryPort };
}

export async function startBroker(
  dataDir: string,
  env: Record<string, string> = {},
  ports?: BrokerPorts,
  readyWithinMs?: number,
  mainJs: string = MAIN_JS,
): Promise<Server> {
  const { port, kafkaPort, registryPort } = ports ?? (await brokerPorts());
  const server = await startChild(
    'broker',
    [mainJs],
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
    readyWithinMs,
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
export const READ_BASELINE = `
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

/** A process's open descriptors (entries of /proc/<pid>/fd), and how many of them are segment files (`.log`). */
export function openFiles(pid: number | undefined): { all: number; segments: number } | undefined {
  try {
    const entries = readdirSync(`/proc/${pid}/fd`);
    let segments = 0;
    for (const entry of entries) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${entry}`).endsWith('.log')) segments++;
      } catch {
        // closed meanwhile
      }
    }
    return { all: entries.length, segments };
  } catch {
    return undefined;
  }
}
